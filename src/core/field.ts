// Field elements of the BN254 scalar field, carried as bigint in the node and as
// `0x` + 64 lowercase hex on the wire (docs/rpc.md, "Values").

/** The BN254 scalar field modulus (the order of the curve's prime subgroup). */
export const FR_MODULUS = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;

/** A field element: a bigint in [0, FR_MODULUS). */
export type Fr = bigint;

export function isFr(value: bigint): boolean {
  return value >= 0n && value < FR_MODULUS;
}

/** `0x` + 64 lowercase hex digits, the output form of every 32-byte value. */
export function toHex32(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}

/** Big-endian 32-byte encoding. */
export function toBytes32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Reads a big-endian 32-byte value starting at `offset`. */
export function fromBytes32(bytes: Uint8Array, offset = 0): bigint {
  let v = 0n;
  for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(bytes[offset + i]!);
  return v;
}

/** A field element as a 32-byte big-endian Buffer (the form stores key and hash by). */
export const frToBuffer = (value: Fr): Buffer => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');

/** Reads 32 (or fewer) big-endian bytes as a field element. */
export const bytesToFr = (bytes: Uint8Array): Fr =>
  BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`);
