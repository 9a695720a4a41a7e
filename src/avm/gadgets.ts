// The AVM's cryptographic gadgets on plain values: the SHA-256 compression function, the
// Keccak-f[1600] permutation, Grumpkin point addition with the AVM's infinity conventions, radix
// decomposition (field inversion for FDIV is invertFr in core/field.ts). Poseidon2 is cairn's own permutation. The
// interpreter does the memory and tag work; these functions only compute.
import { keccakP } from '@noble/hashes/sha3.js';
import { addPoints, isOnCurve, type Point } from '../core/grumpkin.js';

const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/**
 * One SHA-256 compression: the 8-word chaining state after absorbing one 16-word block. No
 * padding, no length: that is the caller's (the contract's) business.
 */
export function sha256Compression(state: ArrayLike<number>, block: ArrayLike<number>): Uint32Array {
  const w = new Uint32Array(64);
  for (let i = 0; i < 16; i++) w[i] = block[i]!;
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
    const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
    w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
  }
  let [a, b, c, d, e, f, g, h] = Array.from({ length: 8 }, (_, i) => state[i]! >>> 0) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let i = 0; i < 64; i++) {
    const t1 =
      (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  const out = new Uint32Array(8);
  [a, b, c, d, e, f, g, h].forEach((v, i) => {
    out[i] = state[i]! + v;
  });
  return out;
}

/** Keccak-f[1600] (24 rounds) on 25 64-bit lanes, lane i = x + 5y. Returns new lanes. */
export function keccakF1600(lanes: readonly bigint[]): bigint[] {
  // @noble/hashes permutes a state of 50 little-endian 32-bit halves: lane i is (s[2i], s[2i+1]).
  const s = new Uint32Array(50);
  for (let i = 0; i < 25; i++) {
    s[2 * i] = Number(lanes[i]! & 0xffffffffn);
    s[2 * i + 1] = Number(lanes[i]! >> 32n);
  }
  keccakP(s, 24);
  const out = new Array<bigint>(25);
  for (let i = 0; i < 25; i++) out[i] = (BigInt(s[2 * i + 1]!) << 32n) | BigInt(s[2 * i]!);
  return out;
}

/**
 * Grumpkin addition as the AVM does it: a point flagged infinite counts as the identity whatever
 * its coordinates (and so is always "on the curve"); the sum of the identity and p is p as given;
 * the identity is returned as (0, 0) flagged infinite. An operand that is not flagged infinite
 * must lie on the curve; otherwise `offCurve` names it (1 or 2).
 */
export function ecAdd(p1: Point, p2: Point): { sum: Point } | { offCurve: 1 | 2 } {
  if (!isOnCurve(p1)) return { offCurve: 1 };
  if (!isOnCurve(p2)) return { offCurve: 2 };
  let sum: Point;
  if (p1.isInfinite && p2.isInfinite) sum = { x: 0n, y: 0n, isInfinite: true };
  else if (p1.isInfinite) sum = p2;
  else if (p2.isInfinite) sum = p1;
  else sum = addPoints(p1, p2);
  // The output flag says whether the result is (0, 0), the AVM's encoding of the identity.
  return { sum: { x: sum.x, y: sum.y, isInfinite: sum.x === 0n && sum.y === 0n } };
}

/** Big-endian digits of `value` in `radix`, exactly `numLimbs` of them; undefined if it does not fit. */
export function toRadixBE(value: bigint, radix: bigint, numLimbs: number): bigint[] | undefined {
  const limbs = new Array<bigint>(numLimbs);
  let rest = value;
  for (let i = numLimbs - 1; i >= 0; i--) {
    limbs[i] = rest % radix;
    rest /= radix;
  }
  return rest === 0n ? limbs : undefined;
}
