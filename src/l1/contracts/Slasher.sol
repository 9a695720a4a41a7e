// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

import {Signatures} from "./Libraries.sol";

/// @notice What the slasher needs from the rollup: the clock and the proposer of a slot.
interface IRollupSlots {
    function getCurrentSlot() external view returns (uint256);
    function getProposerAtSlot(uint256 slot) external view returns (address);
}

/// @notice One offense inside a slash payload (the node's Offense without validator and amount).
struct SlashOffense {
    uint256 offenseType;
    uint256 epochOrSlot;
}

/// @notice The penalty a payload proposes for one validator, with the offenses it is for.
struct ValidatorSlash {
    address validator;
    uint256 amount;
    SlashOffense[] offenses;
}

/// @title Slasher: slash payloads and the proposers' votes on them, round by round.
///
/// Rounds: round = slot / roundSize. In each slot, that slot's proposer may cast one vote (a
/// "signal") for a slash payload. A payload that gets quorumSize votes within one round wins the
/// round (PayloadSubmittable); later votes for the round are still counted.
///
/// Payloads: a payload is a list of ValidatorSlash, validators strictly ascending, each with at
/// least one offense and its offenses strictly ascending by (offenseType, epochOrSlot). Its
/// address is the low 160 bits of keccak256(abi.encode(slashes)), so the same content always has
/// the same address and anyone can compute it. Creating one stores only its creation time and
/// block; the content is in the SlashPayloadCreated event of that block. Anyone may create a payload; only votes make it
/// count.
///
/// Votes are signed by the proposer (EIP-191 over keccak256(abi.encode(SIGNAL_TYPEHASH, chainid,
/// slasher, slot, payload))) so that any account may send them, e.g. the proposer's publisher.
///
/// cairn's rollup holds no stake: a winning payload is the network's verdict, recorded on L1;
/// nothing is deducted and the validator set does not change.
contract Slasher {
    error Slasher__InvalidConfig(string reason);
    error Slasher__EmptyPayload();
    error Slasher__PayloadTooLarge(uint256 offenses, uint256 max);
    error Slasher__ValidatorsNotAscending(uint256 index);
    error Slasher__ZeroAmount(uint256 index);
    error Slasher__NoOffenses(uint256 index);
    error Slasher__OffensesNotAscending(uint256 index, uint256 offenseIndex);
    error Slasher__InvalidOffenseType(uint256 index, uint256 offenseIndex, uint256 offenseType);
    error Slasher__UnknownPayload(address payload);
    error Slasher__NoProposer(uint256 slot);
    error Slasher__NotProposer(uint256 slot, address proposer, address signer);
    error Slasher__AlreadySignalled(uint256 slot);

    event SlashPayloadCreated(address indexed payload, ValidatorSlash[] slashes);
    event SignalCast(address indexed payload, uint256 indexed round, address indexed signaler);
    event PayloadSubmittable(address indexed payload, uint256 indexed round);

    bytes32 public constant SIGNAL_TYPEHASH = keccak256("cairn.slash.signal.v1");
    /// Offenses a payload may hold (bounds the creation gas).
    uint256 public constant MAX_PAYLOAD_OFFENSES = 128;
    /// Largest offense type (the node's OffenseType enum).
    uint256 public constant MAX_OFFENSE_TYPE = 255;

    IRollupSlots internal immutable ROLLUP;
    uint256 internal immutable ROUND_SIZE;
    uint256 internal immutable QUORUM_SIZE;

    /// When a payload was created (timestamp 0: not created).
    struct Creation {
        uint64 timestamp;
        uint64 blockNumber;
    }

    /// payload => its creation's L1 timestamp and block (where its SlashPayloadCreated event is).
    mapping(address => Creation) internal creations;
    /// round => payloads voted for in the round, in the order of their first vote.
    mapping(uint256 => address[]) internal roundPayloads;
    /// round => payload => votes.
    mapping(uint256 => mapping(address => uint256)) internal signals;
    /// round => the payload that reached the quorum first (zero: none yet).
    mapping(uint256 => address) internal winners;
    /// The last slot a vote was cast in, plus one (0: none yet).
    uint256 internal lastSignalSlotPlusOne;

    constructor(address rollup, uint256 roundSize, uint256 quorumSize) {
        if (rollup == address(0)) revert Slasher__InvalidConfig("rollup");
        if (roundSize == 0) revert Slasher__InvalidConfig("roundSize");
        if (quorumSize * 2 <= roundSize || quorumSize > roundSize) revert Slasher__InvalidConfig("quorumSize");
        ROLLUP = IRollupSlots(rollup);
        ROUND_SIZE = roundSize;
        QUORUM_SIZE = quorumSize;
    }

    // ------------------------------------------------------------------ payloads

    /// @notice The address of a payload with this content (whether created or not).
    function getPayloadAddress(ValidatorSlash[] calldata slashes) public pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode(slashes)))));
    }

    /// @notice Creates the payload (once; later calls return the same address).
    function createSlashPayload(ValidatorSlash[] calldata slashes) public returns (address payload) {
        payload = getPayloadAddress(slashes);
        if (creations[payload].timestamp != 0) return payload;
        _checkPayload(slashes);
        creations[payload] = Creation(uint64(block.timestamp), uint64(block.number));
        emit SlashPayloadCreated(payload, slashes);
    }

    function _checkPayload(ValidatorSlash[] calldata slashes) internal pure {
        if (slashes.length == 0) revert Slasher__EmptyPayload();
        uint256 total;
        for (uint256 i = 0; i < slashes.length; i++) {
            ValidatorSlash calldata s = slashes[i];
            if (i > 0 && s.validator <= slashes[i - 1].validator) revert Slasher__ValidatorsNotAscending(i);
            if (s.amount == 0) revert Slasher__ZeroAmount(i);
            uint256 n = s.offenses.length;
            if (n == 0) revert Slasher__NoOffenses(i);
            for (uint256 j = 0; j < n; j++) {
                SlashOffense calldata o = s.offenses[j];
                if (o.offenseType > MAX_OFFENSE_TYPE) revert Slasher__InvalidOffenseType(i, j, o.offenseType);
                if (j > 0) {
                    SlashOffense calldata p = s.offenses[j - 1];
                    bool ascending =
                        o.offenseType > p.offenseType || (o.offenseType == p.offenseType && o.epochOrSlot > p.epochOrSlot);
                    if (!ascending) revert Slasher__OffensesNotAscending(i, j);
                }
            }
            total += n;
        }
        if (total > MAX_PAYLOAD_OFFENSES) revert Slasher__PayloadTooLarge(total, MAX_PAYLOAD_OFFENSES);
    }

    // ------------------------------------------------------------------ votes

    /// @notice What the proposer of `slot` signs to vote for `payload`.
    function getSignalDigest(uint256 slot, address payload) public view returns (bytes32) {
        return keccak256(abi.encode(SIGNAL_TYPEHASH, block.chainid, address(this), slot, payload));
    }

    /// @notice Casts the current slot's vote for an existing payload, signed by the slot's proposer.
    function signal(address payload, bytes calldata signature) external {
        if (creations[payload].timestamp == 0) revert Slasher__UnknownPayload(payload);
        _signal(payload, signature);
    }

    /// @notice Creates the payload if it does not exist yet, then votes for it as signal() does.
    function createAndSignal(ValidatorSlash[] calldata slashes, bytes calldata signature)
        external
        returns (address payload)
    {
        payload = createSlashPayload(slashes);
        _signal(payload, signature);
    }

    function _signal(address payload, bytes calldata signature) internal {
        uint256 slot = ROLLUP.getCurrentSlot();
        if (lastSignalSlotPlusOne == slot + 1) revert Slasher__AlreadySignalled(slot);
        address proposer = ROLLUP.getProposerAtSlot(slot);
        if (proposer == address(0)) revert Slasher__NoProposer(slot);
        address signer =
            Signatures.recover(Signatures.toEthSignedMessageHash(getSignalDigest(slot, payload)), signature);
        if (signer != proposer) revert Slasher__NotProposer(slot, proposer, signer);

        lastSignalSlotPlusOne = slot + 1;
        uint256 round = slot / ROUND_SIZE;
        uint256 votes = ++signals[round][payload];
        if (votes == 1) roundPayloads[round].push(payload);
        emit SignalCast(payload, round, proposer);
        if (votes == QUORUM_SIZE && winners[round] == address(0)) {
            winners[round] = payload;
            emit PayloadSubmittable(payload, round);
        }
    }

    // ------------------------------------------------------------------ views

    function getRoundSize() external view returns (uint256) {
        return ROUND_SIZE;
    }

    function getQuorumSize() external view returns (uint256) {
        return QUORUM_SIZE;
    }

    function getRollup() external view returns (address) {
        return address(ROLLUP);
    }

    function getCurrentRound() external view returns (uint256) {
        return ROLLUP.getCurrentSlot() / ROUND_SIZE;
    }

    /// @notice The L1 timestamp and block of the payload's creation (zeros: it was not created).
    function getPayloadCreation(address payload) external view returns (uint256 timestamp, uint256 blockNumber) {
        Creation storage c = creations[payload];
        return (c.timestamp, c.blockNumber);
    }

    /// @notice The payloads voted for in `round`, in the order of their first vote, and their votes.
    function getRoundPayloads(uint256 round) external view returns (address[] memory payloads, uint256[] memory votes) {
        payloads = roundPayloads[round];
        votes = new uint256[](payloads.length);
        for (uint256 i = 0; i < payloads.length; i++) {
            votes[i] = signals[round][payloads[i]];
        }
    }

    function getPayloadSignals(uint256 round, address payload) external view returns (uint256) {
        return signals[round][payload];
    }

    /// @notice The payload that won `round` (zero if none has reached the quorum).
    function getRoundWinner(uint256 round) external view returns (address) {
        return winners[round];
    }
}
