// Keccak-256 (the Ethereum variant, not NIST SHA3-256).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { assertBytes } from './validate.js';

/** Keccak-256 digest (32 bytes) of `bytes`. */
export function keccak256(bytes: Uint8Array): Uint8Array {
  assertBytes(bytes, 'bytes');
  return keccak_256(bytes);
}
