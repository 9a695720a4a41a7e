// Pure-TypeScript Poseidon2 (BN254, t = 4) on bigints. It is the fallback when the native addon
// cannot be loaded (roughly 10x slower). Inputs are assumed to be validated field elements.
import { FR_MODULUS } from '../field.js';
import {
  FULL_ROUND_CONSTANTS,
  HALF_FULL_ROUNDS,
  INTERNAL_DIAGONAL,
  PARTIAL_ROUND_CONSTANTS,
  RATE,
} from './poseidon2-constants.js';

const P = FR_MODULUS;
const [D0, D1, D2, D3] = INTERNAL_DIAGONAL;

function pow5(x: bigint): bigint {
  const x2 = (x * x) % P;
  const x4 = (x2 * x2) % P;
  return (x4 * x) % P;
}

/** The Poseidon2 permutation of a 4-element state; returns a new array (the input is not modified). */
export function permuteTs(state: readonly bigint[]): bigint[] {
  if (state.length !== 4) throw new RangeError('the Poseidon2 state has exactly 4 elements');
  let s0 = state[0]!;
  let s1 = state[1]!;
  let s2 = state[2]!;
  let s3 = state[3]!;

  // External matrix [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]] with additions only; the results are
  // reduced once at the end.
  const external = (): void => {
    const a = s0 + s1;
    const b = s2 + s3;
    const c = 2n * s1 + b;
    const d = 2n * s3 + a;
    const e = 4n * b + d;
    const f = 4n * a + c;
    s0 = (d + f) % P;
    s1 = f % P;
    s2 = (c + e) % P;
    s3 = e % P;
  };
  const full = (rc: readonly [bigint, bigint, bigint, bigint]): void => {
    s0 = pow5(s0 + rc[0]);
    s1 = pow5(s1 + rc[1]);
    s2 = pow5(s2 + rc[2]);
    s3 = pow5(s3 + rc[3]);
    external();
  };

  external();
  for (let r = 0; r < HALF_FULL_ROUNDS; r++) full(FULL_ROUND_CONSTANTS[r]!);
  for (const rc of PARTIAL_ROUND_CONSTANTS) {
    s0 = pow5(s0 + rc);
    // Internal matrix diag(D) + all-ones.
    const sum = s0 + s1 + s2 + s3;
    s0 = (s0 * D0 + sum) % P;
    s1 = (s1 * D1 + sum) % P;
    s2 = (s2 * D2 + sum) % P;
    s3 = (s3 * D3 + sum) % P;
  }
  for (let r = HALF_FULL_ROUNDS; r < 2 * HALF_FULL_ROUNDS; r++) full(FULL_ROUND_CONSTANTS[r]!);
  return [s0, s1, s2, s3];
}

/**
 * Sponge hash: capacity element initialised to `inputs.length * 2^64`, inputs absorbed three at a
 * time into state[0..2] (the last chunk zero-padded, at least one permutation), output state[0].
 */
export function poseidon2HashTs(inputs: readonly bigint[]): bigint {
  let state: bigint[] = [0n, 0n, 0n, BigInt(inputs.length) << 64n];
  let i = 0;
  do {
    for (let k = 0; k < RATE && i < inputs.length; k++, i++) state[k] = (state[k]! + inputs[i]!) % P;
    state = permuteTs(state);
  } while (i < inputs.length);
  return state[0]!;
}
