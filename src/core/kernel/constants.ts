// The widths and sizes of the private kernel tail's output as the reference (4.1.2) fixes them:
// array capacities, lengths in fields (what the tx hash covers) and in bytes (what travels).
// The values are the reference's protocol constants; the byte sizes follow from its binary layout
// (fields 32 bytes, u32 4, u64 8, u128 16, bool 1, EthAddress 20), spelled out in each codec.

export { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS } from '../block.js';
// The protocol's per-tx capacities (both parts of a tx together; each part has this many slots).
export const MAX_NOTE_HASHES_PER_TX = 64;
export const MAX_NULLIFIERS_PER_TX = 64;
export const MAX_L2_TO_L1_MSGS_PER_TX = 8;
export const MAX_PRIVATE_LOGS_PER_TX = 64;
export const MAX_CONTRACT_CLASS_LOGS_PER_TX = 1;
export const MAX_ENQUEUED_CALLS_PER_TX = 32;
/** The most calldata fields all of a tx's public calls may carry together. */
export const MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS = 16_000;

// Domain separators of the tx hash, by variant.
export const PRIVATE_TX_HASH_SEPARATOR = 1_971_680_439;
export const PUBLIC_TX_HASH_SEPARATOR = 1_630_108_851;

// The protocol's own roots in 4.1.2: the tree of its circuits' verification keys and the hash of
// its protocol contracts. A tx built for another release names others and is refused.
export const VK_TREE_ROOT = 0x1dd2644a17d1ddd8831287a78c5a1033b7ae35cdf2a3db833608856c062fc2ban;
export const PROTOCOL_CONTRACTS_HASH = 0x2672340d9a0107a7b81e6d10d25b854debe613f3272e8738e8df0ca2ff297141n;

/** Fields of a ChonkProof: a proof of any other length does not decode. */
export const CHONK_PROOF_LENGTH = 1935;

// Lengths in fields.
export const GAS_SETTINGS_LENGTH = 8;
export const TX_CONTEXT_LENGTH = 10;
export const TX_CONSTANT_DATA_LENGTH = 34;
export const PRIVATE_TO_ROLLUP_ACCUMULATED_DATA_LENGTH = 1243;
export const PRIVATE_TO_PUBLIC_ACCUMULATED_DATA_LENGTH = 1371;
export const PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH = 1281;
export const PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH = 2784;

// Lengths in bytes.
export const BLOCK_HEADER_SIZE_IN_BYTES = 440;
export const TX_CONSTANT_DATA_SIZE_IN_BYTES = 648;
export const SCOPED_L2_TO_L1_MESSAGE_SIZE_IN_BYTES = 84;
export const PRIVATE_LOG_SIZE_IN_BYTES = 516;
export const SCOPED_LOG_HASH_SIZE_IN_BYTES = 68;
export const PUBLIC_CALL_REQUEST_SIZE_IN_BYTES = 97;
export const PRIVATE_TO_ROLLUP_ACCUMULATED_DATA_SIZE_IN_BYTES = 37_860;
export const PRIVATE_TO_PUBLIC_ACCUMULATED_DATA_SIZE_IN_BYTES = 40_964;
/** The tail's output for a private-only tx: flag, constants, gas, fee payer, expiration, data. */
export const TAIL_FOR_ROLLUP_SIZE_IN_BYTES = 38_557;
/** The tail's output for a tx with public calls: both parts' data and the teardown request. */
export const TAIL_FOR_PUBLIC_SIZE_IN_BYTES = 82_722;

// What a tx may carry beside its data, bounded by the slots of a tail output with public calls
// (a class log hash and 32 call requests in each part, and the teardown call), so that a decoder
// never reads more than any tx can use.
export const MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX = 2 * MAX_CONTRACT_CLASS_LOGS_PER_TX;
export const MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX = 2 * MAX_ENQUEUED_CALLS_PER_TX + 1;
