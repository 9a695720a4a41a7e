// Argument checks shared by the hash functions.
import { isFr } from '../field.js';

/** Throws unless `value` is a bigint in [0, FR_MODULUS): TypeError for non-bigints, RangeError otherwise. */
export function assertFr(value: unknown, what: string): asserts value is bigint {
  if (typeof value !== 'bigint') throw new TypeError(`${what} must be a bigint, got ${typeof value}`);
  if (!isFr(value)) {
    throw new RangeError(
      `${what} is not a field element (must be >= 0 and < the BN254 scalar field modulus), got ${value}`,
    );
  }
}

export function assertFrArray(values: readonly unknown[], what: string): asserts values is readonly bigint[] {
  if (!Array.isArray(values)) throw new TypeError(`${what} must be an array of bigints`);
  for (let i = 0; i < values.length; i++) assertFr(values[i], `${what}[${i}]`);
}

export function assertBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array`);
}

/** Checks a batch width (number of field elements hashed together): an integer in [1, 2^20]. */
export function assertWidth(width: unknown): asserts width is number {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < 1 || width > 2 ** 20) {
    throw new RangeError(`width must be an integer between 1 and 2^20, got ${String(width)}`);
  }
}
