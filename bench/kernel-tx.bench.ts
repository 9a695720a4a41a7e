// The reference's tx model (src/core/kernel/): decoding, hashing and encoding one tx, per variant.
// The txs are the recorded reference txs (test/core/kernel/vectors/reference-txs.json) made as
// large as a wallet's: the rollup one gets a random proof and a class log of random fields, as
// the reference's Tx.random() has (~197 KB); the public one is as recorded (~242 KB). Prints
// `BENCH kernel.<name> us_per_tx=<n> …` per figure (median of rounds):
//   decode_hash_<variant>: the binary form decoded and its hash computed, what admitting a tx costs
//   decode_<variant>, decode_json_<variant>, hash_<variant>, encode_<variant>, encode_json_<variant>
//   node --import tsx bench/kernel-tx.bench.ts
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FR_MODULUS } from '../src/core/field.js';
import { poseidon2Backend } from '../src/core/hash/poseidon2.js';
import { CHONK_PROOF_LENGTH, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from '../src/core/kernel/constants.js';
import type { Tx } from '../src/core/kernel/tx.js';
import { decodeTx, encodeTx } from '../src/core/kernel/tx-codec.js';
import { computeTxHash } from '../src/core/kernel/tx-hash.js';
import { decodeTxJson, encodeTxJson } from '../src/core/kernel/tx-json.js';

const vectors = JSON.parse(
  readFileSync(new URL('../test/core/kernel/vectors/reference-txs.json', import.meta.url), 'utf8'),
) as { txs: { variant: string; bytes: string }[] };

const randomField = (): bigint => BigInt(`0x${randomBytes(32).toString('hex')}`) % FR_MODULUS;

/** As Tx.random({ randomProof: true }): three quarters of the proof random 31-byte fields. */
function randomProof(): Uint8Array {
  const proof = new Uint8Array(CHONK_PROOF_LENGTH * 32);
  const random = Math.floor((3 * CHONK_PROOF_LENGTH) / 4);
  for (let i = 0; i < random; i++) proof.set(randomBytes(31), i * 32 + 1);
  return proof;
}

function benchTxs(): [string, Tx][] {
  const [rollup, pub] = vectors.txs.map((v) => decodeTx(Buffer.from(v.bytes, 'base64')));
  const big: Tx = {
    ...rollup!,
    chonkProof: randomProof(),
    contractClassLogFields: [
      { fields: Array.from({ length: CONTRACT_CLASS_LOG_SIZE_IN_FIELDS }, randomField) },
    ],
  };
  return [
    ['rollup', big],
    ['public', pub!],
  ];
}

/** Median microseconds per call of `fn` over rounds of `perRound` calls, after a warm-up. */
function measure(perRound: number, rounds: number, fn: () => unknown): number {
  for (let i = 0; i < perRound * 2; i++) fn();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < perRound; i++) fn();
    times.push(((performance.now() - start) * 1000) / perRound);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const report = (name: string, us: number, extra = ''): void =>
  console.log(`BENCH kernel.${name} us_per_tx=${us.toFixed(0)}${extra}`);

console.error(`# Poseidon2 backend: ${poseidon2Backend().kind}`);
for (const [variant, tx] of benchTxs()) {
  const bytes = encodeTx(tx);
  const json = encodeTxJson(tx);
  const jsonText = JSON.stringify(json);
  const size = ` bytes=${bytes.length} json_chars=${jsonText.length}`;
  report(
    `decode_hash_${variant}`,
    measure(5, 11, () => computeTxHash(decodeTx(bytes).data)),
    `${size} target_us=2000`,
  );
  report(
    `decode_${variant}`,
    measure(20, 11, () => decodeTx(bytes)),
    size,
  );
  report(
    `decode_json_${variant}`,
    measure(10, 11, () => decodeTxJson(JSON.parse(jsonText))),
    size,
  );
  report(
    `hash_${variant}`,
    measure(5, 11, () => computeTxHash(tx.data)),
  );
  report(
    `encode_${variant}`,
    measure(20, 11, () => encodeTx(tx)),
    size,
  );
  report(
    `encode_json_${variant}`,
    measure(10, 11, () => JSON.stringify(encodeTxJson(tx))),
    size,
  );
}
