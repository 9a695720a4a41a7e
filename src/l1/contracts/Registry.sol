// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

interface IVersioned {
    function getVersion() external view returns (uint256);
}

/// @title Registry: the rollup instances by version; the latest added is canonical.
contract Registry {
    error Registry__Unauthorized(address caller);
    error Registry__ZeroAddress();
    error Registry__VersionAlreadyExists(uint256 version);
    error Registry__UnknownVersion(uint256 version);
    error Registry__NoRollup();

    event CanonicalRollupUpdated(address indexed instance, uint256 indexed version);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    address public owner;
    /// Versions in the order they were added.
    uint256[] internal versions;
    mapping(uint256 => address) internal rollups;

    constructor(address initialOwner) {
        if (initialOwner == address(0)) revert Registry__ZeroAddress();
        owner = initialOwner;
        emit OwnershipTransferred(address(0), initialOwner);
    }

    function transferOwnership(address newOwner) external {
        if (msg.sender != owner) revert Registry__Unauthorized(msg.sender);
        if (newOwner == address(0)) revert Registry__ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice Registers a rollup under the version it reports; it becomes the canonical rollup.
    function addRollup(address rollup) external {
        if (msg.sender != owner) revert Registry__Unauthorized(msg.sender);
        if (rollup == address(0)) revert Registry__ZeroAddress();
        uint256 version = IVersioned(rollup).getVersion();
        if (rollups[version] != address(0)) revert Registry__VersionAlreadyExists(version);
        rollups[version] = rollup;
        versions.push(version);
        emit CanonicalRollupUpdated(rollup, version);
    }

    function getCanonicalRollup() external view returns (address) {
        if (versions.length == 0) revert Registry__NoRollup();
        return rollups[versions[versions.length - 1]];
    }

    function getRollup(uint256 version) external view returns (address) {
        address rollup = rollups[version];
        if (rollup == address(0)) revert Registry__UnknownVersion(version);
        return rollup;
    }

    function numberOfVersions() external view returns (uint256) {
        return versions.length;
    }

    function getVersion(uint256 index) external view returns (uint256) {
        return versions[index];
    }
}
