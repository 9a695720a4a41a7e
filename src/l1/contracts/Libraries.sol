// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.27;

/// @title Small helpers shared by the cairn L1 contracts (no external dependencies).

/// @notice Protocol constants shared by the L1 contracts and the node.
library Constants {
    /// BN254 scalar field modulus: every value that enters an L2 hash must be below it.
    uint256 internal constant P = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001;
    /// Height of an L1-to-L2 message group tree (1024 leaves per checkpoint).
    uint256 internal constant L1_TO_L2_MSG_SUBTREE_HEIGHT = 10;
    uint256 internal constant L1_TO_L2_MSGS_PER_CHECKPOINT = 1024;
    /// Checkpoints per epoch the out-hash tree can hold (height 5).
    uint256 internal constant MAX_CHECKPOINTS_PER_EPOCH = 32;
    /// Size of a serialised checkpoint header.
    uint256 internal constant CHECKPOINT_HEADER_SIZE_IN_BYTES = 316;
}

/// @notice An L2 contract: address (a field element) and rollup version.
struct L2Actor {
    bytes32 actor;
    uint256 version;
}

/// @notice An L1 account on a given chain.
struct L1Actor {
    address actor;
    uint256 chainId;
}

/// @notice SHA-256 reduced to a field element, and Merkle helpers built on it.
library Hash {
    /// sha256 of `data` with the last digest byte dropped and a zero byte prefixed (the top 31
    /// bytes of the digest, shifted right by one byte): always below 2^248, so a field element.
    function sha256ToField(bytes memory data) internal pure returns (bytes32) {
        return bytes32(uint256(sha256(data)) >> 8);
    }

    /// Merkle node of the sha256ToField trees: sha256ToField(left ‖ right).
    function node(bytes32 left, bytes32 right) internal pure returns (bytes32) {
        return bytes32(uint256(sha256(abi.encodePacked(left, right))) >> 8);
    }

    /// Root of a balanced tree of `2^height` zero leaves.
    function zeroRoot(uint256 height) internal pure returns (bytes32 z) {
        for (uint256 i = 0; i < height; i++) {
            z = node(z, z);
        }
    }

    /// Root reached from `leaf` at `index` with `path` (siblings, leaf level first): at level i the
    /// running node is the left child when bit i of `index` is 0.
    function rootFromPath(bytes32 leaf, uint256 index, bytes32[] calldata path) internal pure returns (bytes32) {
        bytes32 acc = leaf;
        for (uint256 i = 0; i < path.length; i++) {
            if ((index >> i) & 1 == 0) {
                acc = node(acc, path[i]);
            } else {
                acc = node(path[i], acc);
            }
        }
        return acc;
    }
}

/// @notice ECDSA recovery of EIP-191 ("Ethereum Signed Message") signatures.
library Signatures {
    /// secp256k1 order / 2: signatures with a larger `s` are malleable duplicates and rejected.
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    /// keccak256("\x19Ethereum Signed Message:\n32" ‖ digest).
    function toEthSignedMessageHash(bytes32 digest) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", digest));
    }

    /// Signer of a 65-byte (r ‖ s ‖ v) signature over `hash`, or address(0) if it is malformed.
    function recover(bytes32 hash, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > HALF_N) return address(0);
        return ecrecover(hash, v, r, s);
    }
}
