// The Poseidon2 round constants are re-derived here from the Grain LFSR of the Poseidon paper
// (appendix F) and compared with the TypeScript table and with the table compiled into the
// native addon (native/poseidon2/constants.h).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FR_MODULUS } from '../../../src/core/field.js';
import {
  FULL_ROUND_CONSTANTS,
  HALF_FULL_ROUNDS,
  INTERNAL_DIAGONAL,
  PARTIAL_ROUND_CONSTANTS,
  PARTIAL_ROUNDS,
  WIDTH,
} from '../../../src/core/hash/poseidon2-constants.js';

/** Field elements from the Grain LFSR seeded with (prime field, x^alpha, n, t, R_F, R_P). */
function grainFieldElements(n: number, t: number, rf: number, rp: number): () => bigint {
  const state: number[] = [];
  const push = (value: number, width: number) => {
    for (let i = width - 1; i >= 0; i--) state.push(Math.floor(value / 2 ** i) % 2);
  };
  push(1, 2); // field type: prime field
  push(0, 4); // S-box: x^alpha
  push(n, 12);
  push(t, 12);
  push(rf, 10);
  push(rp, 10);
  push(2 ** 30 - 1, 30); // 30 bits set to one
  assert.equal(state.length, 80);
  let pos = 0; // state is used as a ring buffer: bit i lives at state[(pos + i) % 80]
  const at = (i: number) => state[(pos + i) % 80]!;
  const step = (): number => {
    const bit = at(62) ^ at(51) ^ at(38) ^ at(23) ^ at(13) ^ at(0);
    state[pos] = bit;
    pos = (pos + 1) % 80;
    return bit;
  };
  for (let i = 0; i < 160; i++) step();
  // Bits are taken in pairs: a leading 1 emits the second bit, a leading 0 discards it.
  const bit = (): number => {
    for (;;) {
      const first = step();
      const second = step();
      if (first === 1) return second;
    }
  };
  return () => {
    for (;;) {
      let v = 0n;
      for (let i = 0; i < n; i++) v = (v << 1n) | BigInt(bit());
      if (v < FR_MODULUS) return v;
    }
  };
}

test('round constants match the Grain LFSR derivation', () => {
  const next = grainFieldElements(254, WIDTH, 2 * HALF_FULL_ROUNDS, PARTIAL_ROUNDS);
  const full: bigint[][] = [];
  const partial: bigint[] = [];
  for (let r = 0; r < 2 * HALF_FULL_ROUNDS + PARTIAL_ROUNDS; r++) {
    const isPartial = r >= HALF_FULL_ROUNDS && r < HALF_FULL_ROUNDS + PARTIAL_ROUNDS;
    if (isPartial) partial.push(next());
    else full.push([next(), next(), next(), next()]);
  }
  assert.deepEqual(
    FULL_ROUND_CONSTANTS.map((r) => [...r]),
    full,
  );
  assert.deepEqual([...PARTIAL_ROUND_CONSTANTS], partial);
});

test('the native constants table equals the TypeScript one', () => {
  const header = readFileSync(new URL('../../../native/poseidon2/constants.h', import.meta.url), 'utf8');
  const values = [...header.matchAll(/"0x([0-9a-f]{64})"/g)].map((m) => BigInt(`0x${m[1]}`));
  const expected = [...FULL_ROUND_CONSTANTS.flat(), ...PARTIAL_ROUND_CONSTANTS, ...INTERNAL_DIAGONAL];
  assert.equal(values.length, 8 * 4 + 56 + 4);
  assert.deepEqual(values, expected);
});

test('all constants are field elements', () => {
  for (const c of [...FULL_ROUND_CONSTANTS.flat(), ...PARTIAL_ROUND_CONSTANTS, ...INTERNAL_DIAGONAL]) {
    assert.ok(c >= 0n && c < FR_MODULUS);
  }
});
