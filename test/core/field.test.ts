// Field inversion (invertFr, Lehmer's extended Euclid) against an independent model: Fermat's
// little theorem, a^(p−2) by square-and-multiply; plus the defining property a·a⁻¹ = 1 and
// known answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FR_MODULUS, invertFr } from '../../src/core/field.js';

const P = FR_MODULUS;
const SEED = 0x1e4e;

function fermatInverse(a: bigint): bigint {
  let result = 1n;
  let base = a % P;
  for (let e = P - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % P;
    base = (base * base) % P;
  }
  return result;
}

const nonZero = fc.bigInt({ min: 1n, max: P - 1n });
/** Values with few significant bits, or just below the modulus: where the leading-bits steps stop early. */
const edgy = fc.oneof(
  fc.bigInt({ min: 1n, max: (1n << 60n) - 1n }),
  fc.integer({ min: 0, max: 253 }).map((k) => 1n << BigInt(k)),
  fc.bigInt({ min: 1n, max: 1n << 64n }).map((d) => P - d),
  fc
    .integer({ min: 1, max: 252 })
    .chain((k) => fc.bigInt({ min: 1n, max: 1000n }).map((d) => (1n << BigInt(k)) + d)),
);

describe('invertFr', () => {
  test('known answers', () => {
    assert.equal(invertFr(1n), 1n);
    assert.equal(invertFr(P - 1n), P - 1n);
    assert.equal(invertFr(2n), (P + 1n) / 2n);
    assert.equal(invertFr(3n), fermatInverse(3n));
  });

  test('equals the Fermat inverse and multiplies back to 1, for random field elements', () => {
    fc.assert(
      fc.property(nonZero, (a) => {
        const inv = invertFr(a);
        assert.equal(inv, fermatInverse(a));
        assert.equal((a * inv) % P, 1n);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('equals the Fermat inverse for small, power-of-two and near-modulus values', () => {
    fc.assert(
      fc.property(edgy, (a) => {
        assert.equal(invertFr(a), fermatInverse(a));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('refuses 0 and values outside the field', () => {
    for (const bad of [0n, -1n, P, P + 1n]) assert.throws(() => invertFr(bad), RangeError);
  });
});
