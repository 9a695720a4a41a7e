// The reference release whose published node API `/aztec` follows, and the version headers its
// node sends on every answer. The stock client compares them with its own when given, so they
// carry 4.1.2's values: the protocol circuits' verification-key tree root and the protocol
// contracts' hash, both constants of that release.
import { toHex32 } from '../core/field.js';
import { PROTOCOL_CONTRACTS_HASH, VK_TREE_ROOT } from '../core/kernel/constants.js';

export const REFERENCE_PACKAGE_VERSION = '4.1.2';

export const REFERENCE_VERSION_HEADERS: Readonly<Record<string, string>> = {
  'x-aztec-packageversion': REFERENCE_PACKAGE_VERSION,
  'x-aztec-l2circuitsvktreeroot': toHex32(VK_TREE_ROOT),
  'x-aztec-l2protocolcontractshash': toHex32(PROTOCOL_CONTRACTS_HASH),
};

/** 4.1.2's limits on one call (`api_limit` in the reference): tags or leaves, txs, blocks and checkpoints. */
export const MAX_RPC_LEN = 100;
export const MAX_RPC_TXS_LEN = 50;
export const MAX_RPC_BLOCKS_LEN = 50;
export const MAX_RPC_CHECKPOINTS_LEN = 50;
/** Logs per tag in one page of a tag query. */
export const MAX_LOGS_PER_TAG = 10;
/** Function signatures one registerContractFunctionSignatures call may carry, and their length. */
export const MAX_SIGNATURES_PER_CALL = 100;
export const MAX_SIGNATURE_LENGTH = 10_000;
