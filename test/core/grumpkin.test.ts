// Grumpkin (y² = x³ − 17 over the BN254 scalar field): the generator, curve membership, and point
// addition / scalar multiplication checked against an independent model — Jacobian coordinates
// with Fermat inversion and left-to-right double-and-add (the code under test is affine, with
// Euclidean inversion and right-to-left double-and-add) — and against the group laws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FR_MODULUS } from '../../src/core/field.js';
import {
  addPoints,
  GRUMPKIN_GENERATOR,
  INFINITY,
  isOnCurve,
  multiplyPoint,
  type Point,
} from '../../src/core/grumpkin.js';

const P = FR_MODULUS;
/** The order of the Grumpkin group (the BN254 base field modulus). */
const Q = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
const G = GRUMPKIN_GENERATOR;
const SEED = 0x6e0b;

// ---- the independent model ---------------------------------------------------------------------

const m = (a: bigint) => ((a % P) + P) % P;
function pow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = m(base);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

/** Jacobian (X, Y, Z): x = X/Z², y = Y/Z³; Z = 0 is the point at infinity. */
type Jac = [bigint, bigint, bigint];
const J_INF: Jac = [1n, 1n, 0n];
const toJac = (p: Point): Jac => (p.isInfinite ? J_INF : [p.x, p.y, 1n]);
function toAffine([X, Y, Z]: Jac): Point {
  if (Z === 0n) return { x: 0n, y: 0n, isInfinite: true };
  const zi = pow(Z, P - 2n);
  const zi2 = m(zi * zi);
  return { x: m(X * zi2), y: m(Y * zi2 * zi), isInfinite: false };
}
function jDouble([X, Y, Z]: Jac): Jac {
  if (Z === 0n || Y === 0n) return J_INF;
  const A = m(X * X);
  const B = m(Y * Y);
  const C = m(B * B);
  const D = m(2n * (m((X + B) * (X + B)) - A - C));
  const E = m(3n * A);
  const X3 = m(E * E - 2n * D);
  return [X3, m(E * (D - X3) - 8n * C), m(2n * Y * Z)];
}
function jAdd(p: Jac, q: Jac): Jac {
  const [X1, Y1, Z1] = p;
  const [X2, Y2, Z2] = q;
  if (Z1 === 0n) return q;
  if (Z2 === 0n) return p;
  const Z1Z1 = m(Z1 * Z1);
  const Z2Z2 = m(Z2 * Z2);
  const U1 = m(X1 * Z2Z2);
  const U2 = m(X2 * Z1Z1);
  const S1 = m(Y1 * Z2 * Z2Z2);
  const S2 = m(Y2 * Z1 * Z1Z1);
  if (U1 === U2) return S1 === S2 ? jDouble(p) : J_INF;
  const H = m(U2 - U1);
  const I = m(4n * H * H);
  const J = m(H * I);
  const r = m(2n * (S2 - S1));
  const V = m(U1 * I);
  const X3 = m(r * r - J - 2n * V);
  return [X3, m(r * (V - X3) - 2n * S1 * J), m((m((Z1 + Z2) * (Z1 + Z2)) - Z1Z1 - Z2Z2) * H)];
}
function modelMul(p: Point, k: bigint): Point {
  let acc = J_INF;
  const base = toJac(p);
  for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
    acc = jDouble(acc);
    if ((k >> i) & 1n) acc = jAdd(acc, base);
  }
  return toAffine(acc);
}
const modelAdd = (a: Point, b: Point): Point => toAffine(jAdd(toJac(a), toJac(b)));
const modelOnCurve = (p: Point) => p.isInfinite || m(p.y * p.y) === m(p.x * p.x * p.x - 17n);
const neg = (p: Point): Point => (p.isInfinite ? p : { x: p.x, y: m(-p.y), isInfinite: false });

// ---- arbitraries ---------------------------------------------------------------------------------

const small = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const full = fc.bigInt({ min: 0n, max: Q - 1n });
/** Mostly small scalars (fast), sometimes full-size ones. */
const scalar = fc.oneof({ arbitrary: small, weight: 9 }, { arbitrary: full, weight: 1 });
const opts = (numRuns = 50) => ({ numRuns, seed: SEED });

describe('grumpkin: the generator and curve membership', () => {
  test('the generator (1, sqrt(−16)) is on the curve, by both checks', () => {
    assert.equal(G.x, 1n);
    assert.equal(G.isInfinite, false);
    assert.equal(m(G.y * G.y), m(-16n));
    assert.ok(modelOnCurve(G));
    assert.ok(isOnCurve(G));
  });

  test('isOnCurve rejects points off the curve and coordinates outside the field', () => {
    assert.equal(isOnCurve({ x: 1n, y: 2n, isInfinite: false }), false);
    assert.equal(isOnCurve({ x: G.x, y: G.y + 1n, isInfinite: false }), false);
    assert.equal(isOnCurve({ x: 0n, y: 0n, isInfinite: false }), false);
    // The same point with a coordinate shifted by the modulus is not a canonical point.
    assert.equal(isOnCurve({ x: G.x + P, y: G.y, isInfinite: false }), false);
    assert.equal(isOnCurve({ x: G.x, y: G.y - P, isInfinite: false }), false);
    assert.equal(isOnCurve(neg(G)), true);
    assert.equal(isOnCurve(INFINITY), true);
  });
});

describe('grumpkin: arithmetic against the model (property)', () => {
  test('k·G equals the model and is on the curve', () => {
    fc.assert(
      fc.property(scalar, (k) => {
        const p = multiplyPoint(G, k);
        assert.deepEqual(p, modelMul(G, k));
        assert.ok(isOnCurve(p));
        assert.ok(modelOnCurve(p));
      }),
      opts(),
    );
  });

  test('(a + b)·G = a·G + b·G', () => {
    fc.assert(
      fc.property(scalar, scalar, (a, b) => {
        const sum = addPoints(multiplyPoint(G, a), multiplyPoint(G, b));
        assert.deepEqual(multiplyPoint(G, a + b), sum);
        assert.deepEqual(sum, modelAdd(modelMul(G, a), modelMul(G, b)));
      }),
      opts(),
    );
  });

  test('doubling is adding a point to itself, and equals 2·P', () => {
    fc.assert(
      fc.property(scalar, (k) => {
        const p = multiplyPoint(G, k);
        const doubled = addPoints(p, p);
        assert.deepEqual(doubled, toAffine(jDouble(toJac(p))));
        assert.deepEqual(doubled, multiplyPoint(p, 2n));
        assert.deepEqual(doubled, multiplyPoint(G, 2n * k));
      }),
      opts(),
    );
  });

  test('P + (−P) is the point at infinity, and addition commutes', () => {
    fc.assert(
      fc.property(scalar, scalar, (a, b) => {
        const p = multiplyPoint(G, a);
        const q = multiplyPoint(G, b);
        assert.deepEqual(addPoints(p, neg(p)), INFINITY);
        assert.deepEqual(addPoints(neg(p), p), INFINITY);
        assert.deepEqual(addPoints(p, q), addPoints(q, p));
      }),
      opts(),
    );
  });

  test('scalar multiplication of another base point: k·(c·G) = (k·c)·G', () => {
    fc.assert(
      fc.property(small, small, (c, k) => {
        const base = multiplyPoint(G, c);
        assert.deepEqual(multiplyPoint(base, k), multiplyPoint(G, k * c));
        assert.deepEqual(multiplyPoint(base, k), modelMul(base, k));
      }),
      opts(30),
    );
  });
});

describe('grumpkin: identity and group order', () => {
  test('infinity is the identity; 0·P and k·infinity are infinity; 1·P is P', () => {
    const p = multiplyPoint(G, 12345n);
    assert.deepEqual(addPoints(INFINITY, p), p);
    assert.deepEqual(addPoints(p, INFINITY), p);
    assert.deepEqual(addPoints(INFINITY, INFINITY), INFINITY);
    assert.deepEqual(multiplyPoint(p, 0n), INFINITY);
    assert.deepEqual(multiplyPoint(INFINITY, 77n), INFINITY);
    assert.deepEqual(multiplyPoint(p, 1n), p);
    assert.deepEqual(multiplyPoint(G, 1n), G);
    assert.deepEqual(INFINITY, { x: 0n, y: 0n, isInfinite: true });
  });

  test('a negative scalar is rejected', () => {
    assert.throws(() => multiplyPoint(G, -1n), RangeError);
  });

  test('the group order q: q·G = infinity, (q − 1)·G = −G, (q + 5)·G = 5·G', () => {
    assert.deepEqual(multiplyPoint(G, Q), INFINITY);
    assert.deepEqual(modelMul(G, Q), INFINITY);
    assert.deepEqual(multiplyPoint(G, Q - 1n), neg(G));
    assert.deepEqual(multiplyPoint(G, Q + 5n), multiplyPoint(G, 5n));
  });
});
