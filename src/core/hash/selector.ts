// Function selectors: the low 4 bytes of the Poseidon2 byte-hash of the UTF-8 signature.
import { poseidon2HashBytes } from './poseidon2.js';

const encoder = new TextEncoder();

/**
 * Selector of a function signature such as `transfer(Field,Field)`: the last 4 bytes (big-endian)
 * of poseidon2HashBytes(utf8(signature)), as an unsigned 32-bit number. Signatures containing
 * whitespace are rejected (they would silently give a different selector).
 */
export function functionSelector(signature: string): number {
  if (typeof signature !== 'string') throw new TypeError('signature must be a string');
  if (/\s/u.test(signature)) {
    throw new RangeError(`function signature must not contain whitespace: ${JSON.stringify(signature)}`);
  }
  return Number(poseidon2HashBytes(encoder.encode(signature)) & 0xffffffffn);
}
