// Public hashing API of cairn.
export { keccak256 } from './keccak.js';
export {
  POSEIDON2_FALLBACK_WARNING_CODE,
  type Poseidon2BackendInfo,
  type Poseidon2BackendKind,
  poseidon2Backend,
  poseidon2Hash,
  poseidon2HashBatch,
  poseidon2HashBatchFields,
  poseidon2HashBytes,
  poseidon2HashPairs,
  poseidon2HashWithSeparator,
  poseidon2Permutation,
} from './poseidon2.js';
export { functionSelector } from './selector.js';
export { sha256, sha256ToField } from './sha256.js';
