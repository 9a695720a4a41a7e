// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

import {Hash, L2Actor} from "./Libraries.sol";

interface IERC20Minimal {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IInboxSend {
    function sendL2Message(L2Actor calldata recipient, bytes32 content, bytes32 secretHash)
        external
        returns (bytes32 leaf, uint256 index);
}

/// @title FeeJuicePortal: locks Fee Juice on L1 and tells the L2 Fee Juice contract to credit it.
///
/// deposit(to, amount, secretHash) pulls `amount` Fee Juice from the caller (transferFrom; approve
/// the portal first) and sends an L1-to-L2 message through the inbox to the Fee Juice L2 contract
/// (address 5, version = the rollup version) with
///   content = sha256ToField(abi.encodeWithSignature("claim(bytes32,uint256)", to, amount))
/// (the 4-byte selector and two 32-byte words, 68 bytes hashed). The inbox records the portal as
/// the message's sender. Withdrawals back to L1 are not implemented (the locked juice stays here).
contract FeeJuicePortal {
    error FeeJuicePortal__ZeroAddress();
    error FeeJuicePortal__TransferFailed();

    event DepositToAztecPublic(bytes32 indexed to, uint256 amount, bytes32 secretHash, bytes32 key, uint256 index);

    /// Address of the Fee Juice contract on L2.
    bytes32 public constant L2_TOKEN_ADDRESS = bytes32(uint256(5));

    address public immutable INBOX;
    address public immutable UNDERLYING;
    uint256 public immutable VERSION;

    constructor(address inbox, address underlying, uint256 version) {
        if (inbox == address(0) || underlying == address(0)) revert FeeJuicePortal__ZeroAddress();
        INBOX = inbox;
        UNDERLYING = underlying;
        VERSION = version;
    }

    /// @notice Deposits `amount` Fee Juice for the L2 address `to`, claimable on L2 with the secret
    /// behind `secretHash`.
    /// @return key The L1-to-L2 message hash.
    /// @return index The message's global leaf index.
    function deposit(bytes32 to, uint256 amount, bytes32 secretHash) external returns (bytes32 key, uint256 index) {
        if (!IERC20Minimal(UNDERLYING).transferFrom(msg.sender, address(this), amount)) {
            revert FeeJuicePortal__TransferFailed();
        }
        bytes32 content = Hash.sha256ToField(abi.encodeWithSignature("claim(bytes32,uint256)", to, amount));
        (key, index) = IInboxSend(INBOX).sendL2Message(L2Actor(L2_TOKEN_ADDRESS, VERSION), content, secretHash);
        emit DepositToAztecPublic(to, amount, secretHash, key, index);
    }
}
