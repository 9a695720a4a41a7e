// Grumpkin: the curve y² = x³ − 17 over the BN254 scalar field (so its points' coordinates are
// field elements). Contract addresses are the x-coordinate of a point on it (contracts.ts).
// Affine coordinates with one modular inversion per addition (invertFr): an address takes one
// scalar multiplication, and the AVM's ECADD is one addition.
import { FR_MODULUS, type Fr, invertFr } from './field.js';

const P = FR_MODULUS;
const B = P - 17n;

export interface Point {
  x: Fr;
  y: Fr;
  /** The point at infinity (the group's identity); x and y are then 0. */
  isInfinite: boolean;
}

export const INFINITY: Point = { x: 0n, y: 0n, isInfinite: true };

/** The generator (1, sqrt(−16)). */
export const GRUMPKIN_GENERATOR: Point = {
  x: 1n,
  y: 0x0000000000000002cf135e7506a45d632d270d45f1181294833fc48d823f272cn,
  isInfinite: false,
};

const mod = (a: bigint) => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

export function isOnCurve(p: Point): boolean {
  if (p.isInfinite) return true;
  if (p.x >= P || p.y >= P || p.x < 0n || p.y < 0n) return false;
  return mod(p.y * p.y) === mod(p.x * p.x * p.x + B);
}

export function addPoints(a: Point, b: Point): Point {
  if (a.isInfinite) return b;
  if (b.isInfinite) return a;
  let lambda: bigint;
  if (a.x === b.x) {
    if (mod(a.y + b.y) === 0n) return INFINITY;
    lambda = mod(3n * a.x * a.x * invertFr(mod(2n * a.y)));
  } else {
    lambda = mod((b.y - a.y) * invertFr(mod(b.x - a.x)));
  }
  const x = mod(lambda * lambda - a.x - b.x);
  const y = mod(lambda * (a.x - x) - a.y);
  return { x, y, isInfinite: false };
}

/** k·p by double-and-add (k ≥ 0). */
export function multiplyPoint(p: Point, k: bigint): Point {
  if (k < 0n) throw new RangeError('scalar must not be negative');
  let result = INFINITY;
  let addend = p;
  for (let n = k; n > 0n; n >>= 1n) {
    if (n & 1n) result = addPoints(result, addend);
    addend = addPoints(addend, addend);
  }
  return result;
}
