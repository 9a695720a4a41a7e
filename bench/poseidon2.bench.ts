// Poseidon2 throughput: native addon (one call per hash, and batches of pairs) and the TypeScript
// fallback. Prints one line per figure: `BENCH poseidon2.<name> hashes_per_s=<n>`.
//   node --import tsx bench/poseidon2.bench.ts
import { FR_MODULUS, toBytes32 } from '../src/core/field.js';
import {
  poseidon2Backend,
  poseidon2Hash,
  poseidon2HashBatchFields,
  poseidon2HashPairs,
} from '../src/core/hash/poseidon2.js';
import { poseidon2HashTs } from '../src/core/hash/poseidon2-ts.js';

const BATCH_PAIRS = 65_536;

/** Runs `round` (which performs `hashesPerRound` hashes) for at least `seconds`, after a warm-up. */
function measure(hashesPerRound: number, seconds: number, round: () => void): number {
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) round();
  let hashes = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    round();
    hashes += hashesPerRound;
    elapsed = performance.now() - start;
  } while (elapsed < seconds * 1000);
  return hashes / (elapsed / 1000);
}

function report(name: string, hashesPerSecond: number): void {
  console.log(`BENCH poseidon2.${name} hashes_per_s=${Math.round(hashesPerSecond)}`);
}

// Inputs: spread over the field, chained so nothing can be hoisted out of the loop.
let x = FR_MODULUS - 12345n;
const y = 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn;

const backend = poseidon2Backend();
if (backend.kind !== 'native') {
  console.error(`# native addon not in use (${backend.reason}); skipping the native figures`);
} else {
  report(
    'native_single',
    measure(1000, 3, () => {
      for (let i = 0; i < 1000; i++) x = poseidon2Hash([x, y]);
    }),
  );

  const pairs = new Uint8Array(BATCH_PAIRS * 64);
  const fields: bigint[] = [];
  for (let i = 0; i < BATCH_PAIRS; i++) {
    const l = (x * BigInt(i + 1)) % FR_MODULUS;
    const r = (y + BigInt(i)) % FR_MODULUS;
    pairs.set(toBytes32(l), i * 64);
    pairs.set(toBytes32(r), i * 64 + 32);
    fields.push(l, r);
  }
  const out = new Uint8Array(BATCH_PAIRS * 32);
  report(
    'native_batch_pairs',
    measure(BATCH_PAIRS, 3, () => {
      poseidon2HashPairs(pairs, out);
    }),
  );
  report(
    'native_batch_fields',
    measure(BATCH_PAIRS, 3, () => {
      poseidon2HashBatchFields(fields, 2);
    }),
  );
}

report(
  'ts_single',
  measure(100, 3, () => {
    for (let i = 0; i < 100; i++) x = poseidon2HashTs([x, y]);
  }),
);
