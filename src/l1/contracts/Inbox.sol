// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

import {Constants, Hash, L2Actor} from "./Libraries.sol";

/// @title Inbox: L1-to-L2 messages, grouped per consuming checkpoint.
///
/// Grouping and lag: messages go into the group currently open for sending (`inProgress`). Group n
/// is consumed by checkpoint n. The inbox starts with group 2 open (group 1, consumed by checkpoint
/// 1, is always empty). When the rollup consumes group n and group n + 1 is the open one, group
/// n + 2 opens. So a message sent while checkpoint N is the pending tip lands in group N + 2 and
/// becomes part of checkpoint N + 2 (one checkpoint of lag, so a proposer always knows the complete
/// message set of the checkpoint it builds). A group holds at most 1024 messages; when the open
/// group is full, the next group opens early.
///
/// Message index (global leaf index) = (group - 1) * 1024 + position within the group.
/// Leaf = sha256ToField(sender as field ‖ chainId ‖ recipient.actor ‖ recipient.version ‖ content ‖
/// secretHash ‖ index), each a 32-byte word. The sender recorded is msg.sender (for Fee Juice
/// deposits that is the FeeJuicePortal).
///
/// Group root = balanced sha256ToField Merkle tree (node = sha256ToField(left ‖ right)) of height 10
/// over the group's leaves padded with zero leaves; an empty group's root is the root of 1024 zero
/// leaves. Roots are kept incrementally (a frontier per group) and computed when asked.
///
/// Pruning: when the rollup prunes unproven checkpoints, the new checkpoints with the same numbers
/// consume the same (already sealed) groups again. `consume` may therefore be called again for a
/// group; sealed groups never change, so it returns the same root. No message is ever deleted.
contract Inbox {
    error Inbox__Unauthorized(address caller);
    error Inbox__RollupAlreadySet();
    error Inbox__ZeroAddress();
    error Inbox__VersionMismatch(uint256 expected, uint256 actual);
    error Inbox__ActorTooLarge(bytes32 actor);
    error Inbox__ContentTooLarge(bytes32 content);
    error Inbox__SecretHashTooLarge(bytes32 secretHash);
    error Inbox__GroupNotSealed(uint256 group, uint256 inProgress);

    event MessageSent(uint256 indexed checkpointNumber, uint256 index, bytes32 indexed hash);
    event RollupSet(address indexed rollup);

    uint256 internal constant HEIGHT = Constants.L1_TO_L2_MSG_SUBTREE_HEIGHT;
    uint256 internal constant GROUP_CAPACITY = Constants.L1_TO_L2_MSGS_PER_CHECKPOINT;

    /// Rollup version every recipient must name.
    uint256 public immutable VERSION;
    /// The account that deployed the inbox and may set the rollup once.
    address public immutable DEPLOYER;
    /// The rollup: the only caller of `consume`.
    address public rollup;

    uint256 internal inProgress;
    uint256 internal totalMessagesInserted;
    /// group => number of messages.
    mapping(uint256 => uint256) internal groupSize;
    /// group => level => frontier node (level HEIGHT holds the root of a full group).
    mapping(uint256 => mapping(uint256 => bytes32)) internal frontier;
    /// group => consumed at least once.
    mapping(uint256 => bool) internal consumed;

    constructor(uint256 version) {
        VERSION = version;
        DEPLOYER = msg.sender;
        inProgress = 2;
    }

    /// @notice Hands the inbox to the rollup (once, by the deployer).
    function setRollup(address newRollup) external {
        if (msg.sender != DEPLOYER) revert Inbox__Unauthorized(msg.sender);
        if (rollup != address(0)) revert Inbox__RollupAlreadySet();
        if (newRollup == address(0)) revert Inbox__ZeroAddress();
        rollup = newRollup;
        emit RollupSet(newRollup);
    }

    /// @notice Sends a message to an L2 contract.
    /// @return leaf The message hash (the L1-to-L2 tree leaf).
    /// @return index The message's global leaf index.
    function sendL2Message(L2Actor calldata recipient, bytes32 content, bytes32 secretHash)
        external
        returns (bytes32 leaf, uint256 index)
    {
        if (recipient.version != VERSION) revert Inbox__VersionMismatch(VERSION, recipient.version);
        if (uint256(recipient.actor) >= Constants.P) revert Inbox__ActorTooLarge(recipient.actor);
        if (uint256(content) >= Constants.P) revert Inbox__ContentTooLarge(content);
        if (uint256(secretHash) >= Constants.P) revert Inbox__SecretHashTooLarge(secretHash);

        uint256 group = inProgress;
        uint256 position = groupSize[group];
        if (position == GROUP_CAPACITY) {
            group += 1;
            inProgress = group;
            position = 0;
        }
        index = (group - 1) * GROUP_CAPACITY + position;
        leaf = Hash.sha256ToField(
            abi.encode(
                uint256(uint160(msg.sender)),
                block.chainid,
                recipient.actor,
                recipient.version,
                content,
                secretHash,
                index
            )
        );
        _insert(group, position, leaf);
        totalMessagesInserted += 1;
        emit MessageSent(group, index, leaf);
    }

    /// @notice Returns the root of the sealed group `group` (the in-hash of checkpoint `group`) and,
    /// when `group + 1` is the open group, opens group `group + 2`. Only the rollup. May be called
    /// again for a group already consumed (after a prune); it then returns the same root.
    function consume(uint256 group) external returns (bytes32 root) {
        if (msg.sender != rollup) revert Inbox__Unauthorized(msg.sender);
        uint256 open = inProgress;
        if (group == 0 || group >= open) revert Inbox__GroupNotSealed(group, open);
        root = _root(group);
        consumed[group] = true;
        if (group + 1 == open) {
            inProgress = group + 2;
        }
    }

    /// @notice Current root of a group (final once the group is sealed).
    function getRoot(uint256 group) external view returns (bytes32) {
        return _root(group);
    }

    /// @notice Number of messages in a group.
    function getGroupSize(uint256 group) external view returns (uint256) {
        return groupSize[group];
    }

    /// @notice Whether a checkpoint has consumed the group (stays true after a prune).
    function isConsumed(uint256 group) external view returns (bool) {
        return consumed[group];
    }

    /// @notice The group currently open for sending.
    function getInProgress() external view returns (uint256) {
        return inProgress;
    }

    /// @notice Number of messages ever sent.
    function getTotalMessagesInserted() external view returns (uint256) {
        return totalMessagesInserted;
    }

    /// @notice Root of an empty group (1024 zero leaves).
    function getEmptyRoot() external pure returns (bytes32) {
        return Hash.zeroRoot(HEIGHT);
    }

    function _insert(uint256 group, uint256 position, bytes32 leaf) internal {
        uint256 size = position + 1;
        groupSize[group] = size;
        mapping(uint256 => bytes32) storage branch = frontier[group];
        bytes32 acc = leaf;
        for (uint256 h = 0; h < HEIGHT; h++) {
            if (size & 1 == 1) {
                branch[h] = acc;
                return;
            }
            acc = Hash.node(branch[h], acc);
            size >>= 1;
        }
        // The group is full: acc is its root.
        branch[HEIGHT] = acc;
    }

    function _root(uint256 group) internal view returns (bytes32) {
        uint256 size = groupSize[group];
        mapping(uint256 => bytes32) storage branch = frontier[group];
        if (size == GROUP_CAPACITY) return branch[HEIGHT];
        bytes32 acc;
        bytes32 zero;
        for (uint256 h = 0; h < HEIGHT; h++) {
            if (size & 1 == 1) {
                acc = Hash.node(branch[h], acc);
            } else {
                acc = Hash.node(acc, zero);
            }
            zero = Hash.node(zero, zero);
            size >>= 1;
        }
        return acc;
    }
}
