// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

import {Constants, Hash, Signatures} from "./Libraries.sol";
import {Slasher} from "./Slasher.sol";

interface IInboxConsume {
    function consume(uint256 group) external returns (bytes32 root);
}

interface IOutboxInsert {
    function insert(uint256 epoch, uint256 numCheckpointsInEpoch, bytes32 root) external;
}

/// @notice Constructor configuration of the rollup.
struct RollupConfig {
    /// Seconds per L2 slot.
    uint256 slotDuration;
    /// Slots per epoch (1..32: an epoch's out-hash tree holds at most 32 checkpoints).
    uint256 epochDuration;
    /// Epochs after its end during which an epoch may still be proven.
    uint256 proofSubmissionEpochs;
    /// Committee size; 0 means no committee (anyone may propose without attestations).
    uint256 targetCommitteeSize;
    /// Mana target per checkpoint (fee model input; the limit is twice the target).
    uint256 manaTarget;
    /// Proving cost per mana in wei (fee model input, may be 0).
    uint256 provingCostPerMana;
    /// Rollup version (also the version of L1-to-L2 / L2-to-L1 messages).
    uint256 version;
    /// Archive root of the genesis state (checkpoint 0).
    bytes32 genesisArchiveRoot;
    /// The only account allowed to submit epoch proofs.
    address prover;
    /// The validator set (fixed at deployment).
    address[] validators;
    /// Slots per slashing round (see Slasher).
    uint256 slashingRoundSize;
    /// Votes a slash payload needs within a round (more than half of the round).
    uint256 slashingQuorumSize;
}

/// @notice What a proposer submits for a checkpoint (besides the attestations).
struct ProposeArgs {
    /// Must be the pending checkpoint number + 1.
    uint256 checkpointNumber;
    /// Must be the current slot, and later than the previous checkpoint's slot.
    uint256 slot;
    /// Archive root after the checkpoint's last block.
    bytes32 archive;
    /// sha256ToField of the 316-byte serialised checkpoint header.
    bytes32 headerHash;
    /// The header's totalManaUsed (< 2^128).
    uint256 totalManaUsed;
    /// The header's epochOutHash (out-hash root of the epoch's checkpoints so far).
    bytes32 outHash;
    /// The header's inHash: must equal the inbox root of this checkpoint's message group.
    bytes32 inHash;
}

/// @notice What the rollup stores per checkpoint.
struct CheckpointLog {
    bytes32 archive;
    bytes32 headerHash;
    /// Epoch out hash accumulated up to and including this checkpoint.
    bytes32 outHash;
    /// Root of the L1-to-L2 message group this checkpoint consumed.
    bytes32 inHash;
    uint64 slot;
    /// L1 block in which the checkpoint was proposed.
    uint64 l1BlockNumber;
    /// Timestamp of that L1 block.
    uint64 l1Timestamp;
    uint128 totalManaUsed;
    /// Fee model: max(0, prev.excessMana + prev.totalManaUsed - manaTarget); 0 for checkpoint 1.
    uint128 excessMana;
    /// Fee model: block.basefee observed at proposal.
    uint128 l1BaseFee;
    /// Fee model: block.blobbasefee observed at proposal.
    uint128 l1BlobBaseFee;
}

/// @title Rollup: the L1 side of the cairn rollup.
///
/// Time: slot = (timestamp - genesisTime) / slotDuration, epoch = slot / epochDuration, with
/// genesisTime = the timestamp of the deployment block (timestamps before it count as slot 0).
/// Checkpoint 0 is genesis (slot 0, the genesis archive root, the hash of the all-zero header), so
/// the first checkpoint can be proposed from slot 1 on.
///
/// Committee: the validator set is fixed at deployment. The committee of an epoch is the whole set
/// (in deployment order) when it has at most targetCommitteeSize members; otherwise a sample of
/// targetCommitteeSize members drawn by a partial Fisher-Yates shuffle: for i = 0..k-1, swap
/// position i with i + uint256(keccak256(abi.encode(epochSeed, i))) % (n - i), where
/// epochSeed = keccak256(abi.encode(epoch, SEED)). SEED is fixed at deployment:
/// keccak256(abi.encode(block.chainid, address(this), genesisTime, version, genesisArchiveRoot)),
/// so the committee of any epoch (past or future) is known and deterministic. (Unpredictability is
/// not a goal of this dev rollup.) The proposer of a slot is
/// committee[uint256(keccak256(abi.encode(epoch, slot, SEED))) % committee.length]. With an empty
/// committee (no validators, or targetCommitteeSize = 0) anyone may propose without attestations.
///
/// Attestations: one entry per committee member, in committee order; empty bytes for a member who
/// did not sign, else a 65-byte (r ‖ s ‖ v) EIP-191 signature of the digest
/// keccak256(abi.encode(keccak256("cairn.checkpoint.attestation.v1"), block.chainid, address(this),
/// checkpointNumber, slot, archive, headerHash)), i.e. of keccak256("\x19Ethereum Signed
/// Message:\n32" ‖ digest). Every non-empty entry must be a valid signature of its member, more than
/// 2/3 of the committee must have signed, and the slot's proposer must be among them. msg.sender is
/// not restricted (a proposer may publish from another key). The header fields carried next to the
/// header hash (mana used, out hash, in hash) are not re-derived from the header here: the
/// committee signs the header hash and the epoch proof is trusted (dev prover).
///
/// Proofs: submitEpochProof is restricted to the authorised prover and the proof bytes are accepted
/// as given (dev prover, no verifier). A proof covers checkpoints [from, to] of one epoch, starting
/// right after the proven checkpoint: either the first k checkpoints of the epoch (a partial-epoch
/// proof) or, after a partial proof, an extension up to a later checkpoint of the same epoch. The
/// out hash must equal the out hash the last covered checkpoint recorded, and is inserted into the
/// outbox as the root for (epoch, number of the epoch's checkpoints covered so far).
///
/// Slashing: the rollup deploys its Slasher (getSlasher()), where the slots' proposers vote on
/// slash payloads round by round.
///
/// Pruning: when currentEpoch > epochOf(provenCheckpoint + 1) + proofSubmissionEpochs, the pending
/// chain is reset to the proven checkpoint (by anyone through prune(), and first thing in propose()).
/// A proof for checkpoints that are due for pruning is rejected. The new checkpoints that reuse the
/// pruned numbers consume the same inbox groups again (see Inbox).
contract Rollup {
    error Rollup__InvalidConfig(string reason);
    error Rollup__Unauthorized(address caller);
    error Rollup__InvalidCheckpointNumber(uint256 expected, uint256 actual);
    error Rollup__InvalidSlot(uint256 currentSlot, uint256 actual);
    error Rollup__SlotAlreadyInChain(uint256 lastSlot, uint256 proposedSlot);
    error Rollup__ManaUsedTooLarge(uint256 totalManaUsed);
    error Rollup__InvalidAttestationsLength(uint256 expected, uint256 actual);
    error Rollup__InvalidAttestation(uint256 index, address expected, address recovered);
    error Rollup__MissingProposerAttestation(address proposer);
    error Rollup__InsufficientAttestations(uint256 needed, uint256 provided);
    error Rollup__InvalidInHash(bytes32 expected, bytes32 actual);
    error Rollup__CheckpointNotFound(uint256 checkpointNumber);
    error Rollup__InvalidFromCheckpoint(uint256 expected, uint256 actual);
    error Rollup__InvalidToCheckpoint(uint256 toCheckpoint, uint256 pendingCheckpoint);
    error Rollup__CheckpointNotInEpoch(uint256 checkpointNumber, uint256 checkpointEpoch, uint256 epoch);
    error Rollup__TooManyCheckpointsInEpoch(uint256 count);
    error Rollup__InvalidOutHash(bytes32 expected, bytes32 actual);
    error Rollup__ProofWindowClosed(uint256 epoch, uint256 currentEpoch);
    error Rollup__NothingToPrune();

    event CheckpointProposed(uint256 indexed checkpointNumber, bytes32 indexed archive, bytes32 headerHash, uint256 slot);
    event EpochProven(uint256 indexed epoch, uint256 fromCheckpoint, uint256 toCheckpoint, bytes32 outHash);
    event CheckpointsPruned(uint256 fromCheckpoint, uint256 toCheckpoint);

    bytes32 public constant ATTESTATION_TYPEHASH = keccak256("cairn.checkpoint.attestation.v1");

    uint256 internal immutable GENESIS_TIME;
    uint256 internal immutable L1_START_BLOCK;
    uint256 internal immutable SLOT_DURATION;
    uint256 internal immutable EPOCH_DURATION;
    uint256 internal immutable PROOF_SUBMISSION_EPOCHS;
    uint256 internal immutable TARGET_COMMITTEE_SIZE;
    uint256 internal immutable MANA_TARGET;
    uint256 internal immutable PROVING_COST_PER_MANA;
    uint256 internal immutable VERSION;
    address internal immutable PROVER;
    bytes32 internal immutable SEED;
    IInboxConsume internal immutable INBOX;
    IOutboxInsert internal immutable OUTBOX;
    Slasher internal immutable SLASHER;

    address[] internal validators;

    uint256 internal pendingCheckpointNumber;
    uint256 internal provenCheckpointNumber;
    mapping(uint256 => CheckpointLog) internal checkpoints;
    /// epoch => first checkpoint of the epoch (recorded by the epoch's first proof).
    mapping(uint256 => uint256) internal epochFirstCheckpoint;

    constructor(RollupConfig memory config, address inbox, address outbox) {
        if (config.slotDuration == 0) revert Rollup__InvalidConfig("slotDuration");
        if (config.epochDuration == 0 || config.epochDuration > Constants.MAX_CHECKPOINTS_PER_EPOCH) {
            revert Rollup__InvalidConfig("epochDuration");
        }
        if (config.prover == address(0)) revert Rollup__InvalidConfig("prover");
        if (inbox == address(0)) revert Rollup__InvalidConfig("inbox");
        if (outbox == address(0)) revert Rollup__InvalidConfig("outbox");
        if (config.manaTarget > type(uint128).max) revert Rollup__InvalidConfig("manaTarget");
        for (uint256 i = 0; i < config.validators.length; i++) {
            address v = config.validators[i];
            if (v == address(0)) revert Rollup__InvalidConfig("validator zero");
            for (uint256 j = 0; j < i; j++) {
                if (config.validators[j] == v) revert Rollup__InvalidConfig("validator duplicate");
            }
            validators.push(v);
        }

        GENESIS_TIME = block.timestamp;
        L1_START_BLOCK = block.number;
        SLOT_DURATION = config.slotDuration;
        EPOCH_DURATION = config.epochDuration;
        PROOF_SUBMISSION_EPOCHS = config.proofSubmissionEpochs;
        TARGET_COMMITTEE_SIZE = config.targetCommitteeSize;
        MANA_TARGET = config.manaTarget;
        PROVING_COST_PER_MANA = config.provingCostPerMana;
        VERSION = config.version;
        PROVER = config.prover;
        INBOX = IInboxConsume(inbox);
        OUTBOX = IOutboxInsert(outbox);
        SEED = keccak256(
            abi.encode(block.chainid, address(this), block.timestamp, config.version, config.genesisArchiveRoot)
        );

        CheckpointLog storage genesis = checkpoints[0];
        genesis.archive = config.genesisArchiveRoot;
        genesis.headerHash = Hash.sha256ToField(new bytes(Constants.CHECKPOINT_HEADER_SIZE_IN_BYTES));
        genesis.l1BlockNumber = uint64(block.number);
        genesis.l1Timestamp = uint64(block.timestamp);

        SLASHER = new Slasher(address(this), config.slashingRoundSize, config.slashingQuorumSize);
    }

    // ------------------------------------------------------------------ propose

    /// @notice Publishes checkpoint `args.checkpointNumber` with the committee's attestations.
    /// `body` is the checkpoint's data — its header and blocks with their tx effects, as the node
    /// encodes them. L1 does not read it: it is carried in calldata so that any node can rebuild
    /// the chain from L1 alone (data availability). Nodes check it against `headerHash`, which the
    /// committee's attestations sign.
    function propose(ProposeArgs calldata args, bytes[] calldata attestations, bytes calldata body) external {
        body; // carried for data availability only
        if (_canPruneAt(block.timestamp)) _prune();

        uint256 pending = pendingCheckpointNumber;
        if (args.checkpointNumber != pending + 1) {
            revert Rollup__InvalidCheckpointNumber(pending + 1, args.checkpointNumber);
        }
        uint256 currentSlot = getCurrentSlot();
        if (args.slot != currentSlot) revert Rollup__InvalidSlot(currentSlot, args.slot);
        CheckpointLog storage prev = checkpoints[pending];
        if (args.slot <= prev.slot) revert Rollup__SlotAlreadyInChain(prev.slot, args.slot);
        if (args.totalManaUsed > type(uint128).max) revert Rollup__ManaUsedTooLarge(args.totalManaUsed);

        _verifyAttestations(args, attestations);

        bytes32 inHash = INBOX.consume(args.checkpointNumber);
        if (inHash != args.inHash) revert Rollup__InvalidInHash(inHash, args.inHash);

        uint256 excess = uint256(prev.excessMana) + uint256(prev.totalManaUsed);
        excess = excess > MANA_TARGET ? excess - MANA_TARGET : 0;
        if (excess > type(uint128).max) excess = type(uint128).max;

        CheckpointLog storage log = checkpoints[args.checkpointNumber];
        log.archive = args.archive;
        log.headerHash = args.headerHash;
        log.outHash = args.outHash;
        log.inHash = inHash;
        log.slot = uint64(args.slot);
        log.l1BlockNumber = uint64(block.number);
        log.l1Timestamp = uint64(block.timestamp);
        log.totalManaUsed = uint128(args.totalManaUsed);
        log.excessMana = uint128(excess);
        log.l1BaseFee = uint128(block.basefee);
        log.l1BlobBaseFee = uint128(block.blobbasefee);

        pendingCheckpointNumber = args.checkpointNumber;
        emit CheckpointProposed(args.checkpointNumber, args.archive, args.headerHash, args.slot);
    }

    function _verifyAttestations(ProposeArgs calldata args, bytes[] calldata attestations) internal view {
        uint256 epoch = args.slot / EPOCH_DURATION;
        address[] memory committee = _committee(epoch);
        uint256 size = committee.length;
        if (size == 0) return;
        if (attestations.length != size) revert Rollup__InvalidAttestationsLength(size, attestations.length);

        bytes32 digest = Signatures.toEthSignedMessageHash(
            getAttestationDigest(args.checkpointNumber, args.slot, args.archive, args.headerHash)
        );
        uint256 proposerIndex = _proposerIndex(epoch, args.slot, size);
        uint256 signed;
        bool proposerSigned;
        for (uint256 i = 0; i < size; i++) {
            if (attestations[i].length == 0) continue;
            address signer = Signatures.recover(digest, attestations[i]);
            if (signer != committee[i]) revert Rollup__InvalidAttestation(i, committee[i], signer);
            signed += 1;
            if (i == proposerIndex) proposerSigned = true;
        }
        if (!proposerSigned) revert Rollup__MissingProposerAttestation(committee[proposerIndex]);
        if (signed * 3 <= size * 2) revert Rollup__InsufficientAttestations((size * 2) / 3 + 1, signed);
    }

    // ------------------------------------------------------------------ proofs

    /// @notice Proves checkpoints [fromCheckpoint, toCheckpoint] of `epoch` (dev prover: the proof bytes
    /// are not verified) and inserts the epoch's out hash into the outbox.
    function submitEpochProof(
        uint256 epoch,
        uint256 fromCheckpoint,
        uint256 toCheckpoint,
        bytes32 outHash,
        bytes calldata /* proof */
    ) external {
        if (msg.sender != PROVER) revert Rollup__Unauthorized(msg.sender);
        uint256 proven = provenCheckpointNumber;
        uint256 pending = pendingCheckpointNumber;
        if (_canPruneAt(block.timestamp)) {
            revert Rollup__ProofWindowClosed(_epochOfCheckpoint(proven + 1), getCurrentEpoch());
        }
        if (fromCheckpoint != proven + 1) revert Rollup__InvalidFromCheckpoint(proven + 1, fromCheckpoint);
        if (toCheckpoint < fromCheckpoint || toCheckpoint > pending) {
            revert Rollup__InvalidToCheckpoint(toCheckpoint, pending);
        }
        uint256 fromEpoch = _epochOfCheckpoint(fromCheckpoint);
        if (fromEpoch != epoch) revert Rollup__CheckpointNotInEpoch(fromCheckpoint, fromEpoch, epoch);
        uint256 toEpoch = _epochOfCheckpoint(toCheckpoint);
        if (toEpoch != epoch) revert Rollup__CheckpointNotInEpoch(toCheckpoint, toEpoch, epoch);

        uint256 first;
        if (proven > 0 && _epochOfCheckpoint(proven) == epoch) {
            first = epochFirstCheckpoint[epoch];
        } else {
            first = fromCheckpoint;
            epochFirstCheckpoint[epoch] = fromCheckpoint;
        }
        uint256 count = toCheckpoint - first + 1;
        if (count > Constants.MAX_CHECKPOINTS_PER_EPOCH) revert Rollup__TooManyCheckpointsInEpoch(count);
        bytes32 expected = checkpoints[toCheckpoint].outHash;
        if (outHash != expected) revert Rollup__InvalidOutHash(expected, outHash);

        provenCheckpointNumber = toCheckpoint;
        OUTBOX.insert(epoch, count, outHash);
        emit EpochProven(epoch, fromCheckpoint, toCheckpoint, outHash);
    }

    // ------------------------------------------------------------------ pruning

    /// @notice Resets the pending chain to the proven checkpoint when the proof window of the first
    /// unproven checkpoint's epoch has passed. Anyone may call it.
    function prune() external {
        if (!_canPruneAt(block.timestamp)) revert Rollup__NothingToPrune();
        _prune();
    }

    /// @notice Whether prune() would prune now.
    function canPrune() external view returns (bool) {
        return _canPruneAt(block.timestamp);
    }

    /// @notice Whether prune() would prune at `timestamp` (given the current chain).
    function canPruneAtTime(uint256 timestamp) external view returns (bool) {
        return _canPruneAt(timestamp);
    }

    function _canPruneAt(uint256 timestamp) internal view returns (bool) {
        uint256 proven = provenCheckpointNumber;
        if (pendingCheckpointNumber == proven) return false;
        return getEpochAt(timestamp) > _epochOfCheckpoint(proven + 1) + PROOF_SUBMISSION_EPOCHS;
    }

    function _prune() internal {
        uint256 from = provenCheckpointNumber + 1;
        uint256 to = pendingCheckpointNumber;
        pendingCheckpointNumber = provenCheckpointNumber;
        emit CheckpointsPruned(from, to);
    }

    // ------------------------------------------------------------------ committee

    /// @notice keccak256(abi.encode(ATTESTATION_TYPEHASH, chainid, rollup, checkpointNumber, slot,
    /// archive, headerHash)): what committee members sign (as an Ethereum signed message).
    function getAttestationDigest(uint256 checkpointNumber, uint256 slot, bytes32 archive, bytes32 headerHash)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(ATTESTATION_TYPEHASH, block.chainid, address(this), checkpointNumber, slot, archive, headerHash)
        );
    }

    /// @notice The committee of the epoch containing `timestamp`.
    function getCommitteeAt(uint256 timestamp) external view returns (address[] memory) {
        return _committee(getEpochAt(timestamp));
    }

    /// @notice The committee of `epoch`.
    function getEpochCommittee(uint256 epoch) external view returns (address[] memory) {
        return _committee(epoch);
    }

    /// @notice The proposer of the slot containing `timestamp` (zero if anyone may propose).
    function getProposerAt(uint256 timestamp) public view returns (address) {
        return _proposerAtSlot(getSlotAt(timestamp));
    }

    /// @notice The proposer of `slot` (zero if anyone may propose).
    function getProposerAtSlot(uint256 slot) external view returns (address) {
        return _proposerAtSlot(slot);
    }

    /// @notice The proposer of the current slot (zero if anyone may propose).
    function getCurrentProposer() external view returns (address) {
        return getProposerAt(block.timestamp);
    }

    function _proposerAtSlot(uint256 slot) internal view returns (address) {
        uint256 epoch = slot / EPOCH_DURATION;
        address[] memory committee = _committee(epoch);
        if (committee.length == 0) return address(0);
        return committee[_proposerIndex(epoch, slot, committee.length)];
    }

    function _proposerIndex(uint256 epoch, uint256 slot, uint256 size) internal view returns (uint256) {
        return uint256(keccak256(abi.encode(epoch, slot, SEED))) % size;
    }

    function _committee(uint256 epoch) internal view returns (address[] memory committee) {
        uint256 n = validators.length;
        uint256 k = TARGET_COMMITTEE_SIZE;
        if (k == 0 || n == 0) return new address[](0);
        address[] memory pool = validators;
        if (n <= k) return pool;
        bytes32 epochSeed = keccak256(abi.encode(epoch, SEED));
        committee = new address[](k);
        for (uint256 i = 0; i < k; i++) {
            uint256 j = i + (uint256(keccak256(abi.encode(epochSeed, i))) % (n - i));
            address picked = pool[j];
            pool[j] = pool[i];
            pool[i] = picked;
            committee[i] = picked;
        }
    }

    // ------------------------------------------------------------------ time

    function getSlotAt(uint256 timestamp) public view returns (uint256) {
        if (timestamp <= GENESIS_TIME) return 0;
        return (timestamp - GENESIS_TIME) / SLOT_DURATION;
    }

    function getEpochAt(uint256 timestamp) public view returns (uint256) {
        return getSlotAt(timestamp) / EPOCH_DURATION;
    }

    function getEpochAtSlot(uint256 slot) external view returns (uint256) {
        return slot / EPOCH_DURATION;
    }

    function getTimestampForSlot(uint256 slot) external view returns (uint256) {
        return GENESIS_TIME + slot * SLOT_DURATION;
    }

    function getCurrentSlot() public view returns (uint256) {
        return getSlotAt(block.timestamp);
    }

    function getCurrentEpoch() public view returns (uint256) {
        return getEpochAt(block.timestamp);
    }

    // ------------------------------------------------------------------ chain views

    function getPendingCheckpointNumber() external view returns (uint256) {
        return pendingCheckpointNumber;
    }

    function getProvenCheckpointNumber() external view returns (uint256) {
        return provenCheckpointNumber;
    }

    /// @notice The stored data of checkpoint `checkpointNumber` (0 = genesis); reverts above the pending tip.
    function getCheckpoint(uint256 checkpointNumber) external view returns (CheckpointLog memory) {
        if (checkpointNumber > pendingCheckpointNumber) revert Rollup__CheckpointNotFound(checkpointNumber);
        return checkpoints[checkpointNumber];
    }

    /// @notice Archive root after checkpoint `checkpointNumber` (zero above the pending tip).
    function archiveAt(uint256 checkpointNumber) external view returns (bytes32) {
        if (checkpointNumber > pendingCheckpointNumber) return bytes32(0);
        return checkpoints[checkpointNumber].archive;
    }

    /// @notice Epoch of a checkpoint at or below the pending tip.
    function getEpochForCheckpoint(uint256 checkpointNumber) external view returns (uint256) {
        if (checkpointNumber > pendingCheckpointNumber) revert Rollup__CheckpointNotFound(checkpointNumber);
        return _epochOfCheckpoint(checkpointNumber);
    }

    function _epochOfCheckpoint(uint256 checkpointNumber) internal view returns (uint256) {
        return uint256(checkpoints[checkpointNumber].slot) / EPOCH_DURATION;
    }

    /// @notice Excess mana the next checkpoint will record: max(0, tip.excessMana + tip.totalManaUsed - manaTarget).
    function getNextExcessMana() external view returns (uint256) {
        CheckpointLog storage tip = checkpoints[pendingCheckpointNumber];
        uint256 excess = uint256(tip.excessMana) + uint256(tip.totalManaUsed);
        return excess > MANA_TARGET ? excess - MANA_TARGET : 0;
    }

    // ------------------------------------------------------------------ configuration views

    function getVersion() external view returns (uint256) {
        return VERSION;
    }

    function getGenesisTime() external view returns (uint256) {
        return GENESIS_TIME;
    }

    function getL1StartBlock() external view returns (uint256) {
        return L1_START_BLOCK;
    }

    function getSlotDuration() external view returns (uint256) {
        return SLOT_DURATION;
    }

    function getEpochDuration() external view returns (uint256) {
        return EPOCH_DURATION;
    }

    function getProofSubmissionEpochs() external view returns (uint256) {
        return PROOF_SUBMISSION_EPOCHS;
    }

    function getTargetCommitteeSize() external view returns (uint256) {
        return TARGET_COMMITTEE_SIZE;
    }

    function getManaTarget() external view returns (uint256) {
        return MANA_TARGET;
    }

    /// @notice Mana limit per checkpoint: twice the target.
    function getManaLimit() external view returns (uint256) {
        return MANA_TARGET * 2;
    }

    function getProvingCostPerMana() external view returns (uint256) {
        return PROVING_COST_PER_MANA;
    }

    function getProver() external view returns (address) {
        return PROVER;
    }

    function getInbox() external view returns (address) {
        return address(INBOX);
    }

    function getOutbox() external view returns (address) {
        return address(OUTBOX);
    }

    function getValidators() external view returns (address[] memory) {
        return validators;
    }

    function getSeed() external view returns (bytes32) {
        return SEED;
    }

    function getSlasher() external view returns (address) {
        return address(SLASHER);
    }
}
