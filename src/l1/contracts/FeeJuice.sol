// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

/// @title FeeJuice: a minimal ERC20 (the rollup's fee asset) whose mint is restricted to an owner (dev).
contract FeeJuice {
    error FeeJuice__Unauthorized(address caller);
    error FeeJuice__ZeroAddress();
    error FeeJuice__InsufficientBalance(address account, uint256 balance, uint256 needed);
    error FeeJuice__InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    string public constant name = "Fee Juice";
    string public constant symbol = "FEE";
    uint8 public constant decimals = 18;

    address public owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    constructor(address initialOwner) {
        if (initialOwner == address(0)) revert FeeJuice__ZeroAddress();
        owner = initialOwner;
        emit OwnershipTransferred(address(0), initialOwner);
    }

    function transferOwnership(address newOwner) external {
        if (msg.sender != owner) revert FeeJuice__Unauthorized(msg.sender);
        if (newOwner == address(0)) revert FeeJuice__ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function mint(address to, uint256 amount) external {
        if (msg.sender != owner) revert FeeJuice__Unauthorized(msg.sender);
        if (to == address(0)) revert FeeJuice__ZeroAddress();
        totalSupply += amount;
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert FeeJuice__InsufficientAllowance(from, msg.sender, allowed, amount);
            unchecked {
                allowance[from][msg.sender] = allowed - amount;
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        if (to == address(0)) revert FeeJuice__ZeroAddress();
        uint256 balance = balanceOf[from];
        if (balance < amount) revert FeeJuice__InsufficientBalance(from, balance, amount);
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
