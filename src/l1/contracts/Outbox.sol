// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

import {Constants, Hash, L1Actor, L2Actor} from "./Libraries.sol";

/// @title Outbox: the proven L2-to-L1 message roots of each epoch, and their one-time consumption.
///
/// roots[epoch][k] (k = 0..31) is the out-hash root proven for the first k + 1 checkpoints of the
/// epoch (partial-epoch proofs insert smaller k, a later proof of the same epoch a larger one).
/// Only the rollup inserts. A message is consumed with a membership proof against
/// roots[epoch][numCheckpointsInEpoch - 1]:
///   leaf   = sha256ToField(l2Sender.actor ‖ l2Sender.version ‖ recipient.actor (20 bytes) ‖
///            recipient.chainId ‖ content), packed as the reference protocol hashes it
///   node   = sha256ToField(left ‖ right), path siblings leaf level first, bit i of leafIndex
///            set when the running node is the right child at level i
///   leafId = 2^path.length + leafIndex, consumable once per epoch (a bitmap per epoch).
contract Outbox {
    error Outbox__Unauthorized(address caller);
    error Outbox__RollupAlreadySet();
    error Outbox__ZeroAddress();
    error Outbox__InvalidNumCheckpoints(uint256 numCheckpointsInEpoch);
    error Outbox__VersionMismatch(uint256 expected, uint256 actual);
    error Outbox__InvalidRecipient(address expected, address actual);
    error Outbox__InvalidChainId(uint256 expected, uint256 actual);
    error Outbox__NothingToConsumeAtEpoch(uint256 epoch, uint256 numCheckpointsInEpoch);
    error Outbox__PathTooLong(uint256 length);
    error Outbox__LeafIndexOutOfBounds(uint256 leafIndex, uint256 pathLength);
    error Outbox__InvalidProof(bytes32 expectedRoot, bytes32 actualRoot);
    error Outbox__AlreadyConsumed(uint256 epoch, uint256 leafId);

    event RootAdded(uint256 indexed epoch, uint256 numCheckpointsInEpoch, bytes32 indexed root);
    event MessageConsumed(uint256 indexed epoch, bytes32 indexed root, bytes32 indexed messageHash, uint256 leafId);
    event RollupSet(address indexed rollup);

    /// Rollup version every L2 sender must carry.
    uint256 public immutable VERSION;
    /// The account that deployed the outbox and may set the rollup once.
    address public immutable DEPLOYER;
    /// The rollup: the only caller of `insert`.
    address public rollup;

    /// epoch => k => root for the first k + 1 checkpoints.
    mapping(uint256 => bytes32[32]) internal roots;
    /// epoch => word => bitmap of consumed leaf ids.
    mapping(uint256 => mapping(uint256 => uint256)) internal consumedBits;

    constructor(uint256 version) {
        VERSION = version;
        DEPLOYER = msg.sender;
    }

    /// @notice Hands the outbox to the rollup (once, by the deployer).
    function setRollup(address newRollup) external {
        if (msg.sender != DEPLOYER) revert Outbox__Unauthorized(msg.sender);
        if (rollup != address(0)) revert Outbox__RollupAlreadySet();
        if (newRollup == address(0)) revert Outbox__ZeroAddress();
        rollup = newRollup;
        emit RollupSet(newRollup);
    }

    /// @notice Records the root proven for the first `numCheckpointsInEpoch` checkpoints of `epoch`.
    function insert(uint256 epoch, uint256 numCheckpointsInEpoch, bytes32 root) external {
        if (msg.sender != rollup) revert Outbox__Unauthorized(msg.sender);
        if (numCheckpointsInEpoch == 0 || numCheckpointsInEpoch > Constants.MAX_CHECKPOINTS_PER_EPOCH) {
            revert Outbox__InvalidNumCheckpoints(numCheckpointsInEpoch);
        }
        roots[epoch][numCheckpointsInEpoch - 1] = root;
        emit RootAdded(epoch, numCheckpointsInEpoch, root);
    }

    /// @notice Consumes an L2-to-L1 message addressed to msg.sender on this chain.
    function consume(
        L2Actor calldata l2Sender,
        L1Actor calldata recipient,
        bytes32 content,
        uint256 epoch,
        uint256 numCheckpointsInEpoch,
        uint256 leafIndex,
        bytes32[] calldata path
    ) external {
        if (l2Sender.version != VERSION) revert Outbox__VersionMismatch(VERSION, l2Sender.version);
        if (recipient.actor != msg.sender) revert Outbox__InvalidRecipient(recipient.actor, msg.sender);
        if (recipient.chainId != block.chainid) revert Outbox__InvalidChainId(block.chainid, recipient.chainId);
        if (numCheckpointsInEpoch == 0 || numCheckpointsInEpoch > Constants.MAX_CHECKPOINTS_PER_EPOCH) {
            revert Outbox__InvalidNumCheckpoints(numCheckpointsInEpoch);
        }
        bytes32 root = roots[epoch][numCheckpointsInEpoch - 1];
        if (root == bytes32(0)) revert Outbox__NothingToConsumeAtEpoch(epoch, numCheckpointsInEpoch);
        if (path.length >= 256) revert Outbox__PathTooLong(path.length);
        if (leafIndex >> path.length != 0) revert Outbox__LeafIndexOutOfBounds(leafIndex, path.length);

        bytes32 messageHash = Hash.sha256ToField(
            abi.encodePacked(l2Sender.actor, l2Sender.version, recipient.actor, recipient.chainId, content)
        );
        bytes32 computed = Hash.rootFromPath(messageHash, leafIndex, path);
        if (computed != root) revert Outbox__InvalidProof(root, computed);

        uint256 leafId = (uint256(1) << path.length) + leafIndex;
        uint256 word = leafId >> 8;
        uint256 bit = uint256(1) << (leafId & 0xff);
        uint256 bits = consumedBits[epoch][word];
        if (bits & bit != 0) revert Outbox__AlreadyConsumed(epoch, leafId);
        consumedBits[epoch][word] = bits | bit;

        emit MessageConsumed(epoch, root, messageHash, leafId);
    }

    /// @notice The root proven for the first `numCheckpointsInEpoch` checkpoints of `epoch` (zero if none).
    function getRootData(uint256 epoch, uint256 numCheckpointsInEpoch) external view returns (bytes32) {
        if (numCheckpointsInEpoch == 0 || numCheckpointsInEpoch > Constants.MAX_CHECKPOINTS_PER_EPOCH) {
            return bytes32(0);
        }
        return roots[epoch][numCheckpointsInEpoch - 1];
    }

    /// @notice All 32 roots of an epoch (index k = root for the first k + 1 checkpoints).
    function getEpochRoots(uint256 epoch) external view returns (bytes32[32] memory) {
        return roots[epoch];
    }

    /// @notice Whether the message with `leafId` (2^pathLength + leafIndex) was consumed in `epoch`.
    function hasMessageBeenConsumedAtEpoch(uint256 epoch, uint256 leafId) external view returns (bool) {
        return consumedBits[epoch][leafId >> 8] & (uint256(1) << (leafId & 0xff)) != 0;
    }
}
