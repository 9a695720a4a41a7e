// Admission of reference-format txs, against its targets: 200 KB reference txs admitted at 100 txs/s
// or more with a send p99 under 200 ms, the tx hash off the event loop, decoding plus hashing in
// 2 ms or less per tx. A real `cairn start` with the manual clock (no block is built while the txs
// arrive: admission alone is measured) gets block 1 to anchor on. N txs with public calls are built
// with buildTx (on one worker thread per core: each build hashes its tx): the anchor header, chain id
// and version from /aztec's node_getBlockHeader and node_getNodeInfo, fees at FEE_HEADROOM times
// node_getCurrentMinFees, the FEE_PAYERS dev accounts paying in turn, a proof of CHONK_PROOF_LENGTH
// random words below the field modulus, and calldata that pads the reference JSON (encodeTxJson) to
// TARGET_JSON_CHARS. They are sent to POST /aztec as the reference's client sends them, a JSON-RPC
// batch array of one node_sendTx, once per in-flight count. Every answer must be a success and
// node_getPendingTxCount must be N afterwards; the txs are then dropped with svcDev_dropTx, so the
// next run sends the same txs to an empty pool. While the txs are sent, a probe asks /aztec for
// node_getBlockNumber every PROBE_MS: its latency is how long the node's event loop is held. Then,
// in this process on one core, with the node idle: JSON.parse of a request, decodeTxJson,
// computeTxHash (and its Poseidon2 sponge alone: permutations and µs per permutation), decodeTxJson
// + computeTxHash, and computeTxHashOffThread's throughput. Prints
//   BENCH admission.send in_flight=<n> txs_per_s=<n> p50_ms=<n> p99_ms=<n> max_ms=<n> n=<n> ...
//   BENCH admission.<figure> ms_per_tx=<n> ...  (in process)
//   BENCH admission.hash_off_thread txs_per_s=<n> ...
// and a table of it all (with the targets, met or not) on stderr.
//   npm run build && node --import tsx bench/admission.bench.ts
// BENCH_ADMISSION_TXS (600) and BENCH_ADMISSION_IN_FLIGHT (8,32) change the shape;
// BENCH_CPU_PROF_DIR=<dir> runs the node with --cpu-prof and writes its profile there.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { blockHeader, gasFees } from '../src/core/block-codecs.js';
import type { BlockHeader, GasFees } from '../src/core/block-header.js';
import { type Fr, toHex32 } from '../src/core/field.js';
import { poseidon2Backend, poseidon2Hash } from '../src/core/hash/poseidon2.js';
import { CHONK_PROOF_LENGTH } from '../src/core/kernel/constants.js';
import { publicKernelInputsToFields } from '../src/core/kernel/fields.js';
import { type TailForPublic, toPublicKernelInputs } from '../src/core/kernel/public-inputs.js';
import type { TxBody } from '../src/core/kernel/tx.js';
import { computeTxHash, computeTxHashOffThread } from '../src/core/kernel/tx-hash.js';
import { decodeTxJson, encodeTxJson } from '../src/core/kernel/tx-json.js';
import { MAX_TX_LIFETIME, PUBLIC_TX_HASH_SEPARATOR } from '../src/core/tx.js';
import { buildTx, randomFr } from '../src/core/tx-builder.js';
import { devAccounts } from '../src/execution/dev-accounts.js';
import {
  benchOnNode,
  check,
  fmt,
  log,
  nodeCpuMs,
  nodeRpc,
  percentile,
  post,
  type RpcReply,
  runLimited,
  startChainNode,
} from './chain-node.js';

const N = Number(process.env.BENCH_ADMISSION_TXS ?? 600);
const IN_FLIGHT = (process.env.BENCH_ADMISSION_IN_FLIGHT ?? '8,32').split(',').map(Number);
/** Characters of a tx's reference JSON (its wire size at /aztec). */
const TARGET_JSON_CHARS = 200_000;
const FEE_PAYERS = 10;
/** Max fees per gas as a multiple of the current min fees. */
const FEE_HEADROOM = 2n;
const PROBE_MS = 25;
/** Txs the in-process figures cycle through. */
const SAMPLE = 24;
const TARGETS = { txsPerS: 100, p99Ms: 200, decodeHashMs: 2 };

/** What a tx is built from besides its index: the chain's parameters and the calldata padding. */
interface BuildParams {
  header: BlockHeader;
  chainId: number;
  version: number;
  expirationTimestamp: bigint;
  maxFeesPerGas: GasFees;
  feePayers: Fr[];
  contract: Fr;
  padding: number;
}

interface BuiltTx {
  hash: Fr;
  /** The tx's reference JSON. */
  json: string;
  /** The request: a JSON-RPC batch array of one node_sendTx. */
  body: string;
}

/** CHONK_PROOF_LENGTH random 32-byte words, each below the field modulus (top byte below 0x30). */
function randomProof(): Uint8Array {
  const proof = randomBytes(CHONK_PROOF_LENGTH * 32);
  for (let i = 0; i < CHONK_PROOF_LENGTH; i++) proof[i * 32] = proof[i * 32]! % 0x30;
  return proof;
}

/** Tx `i`: 2 note hashes, a nullifier and two public calls with `padding` calldata fields in all. */
function build(i: number, p: BuildParams): BuiltTx {
  const half = Math.floor(p.padding / 2);
  const args = (n: number) => Array.from({ length: n }, randomFr);
  const { tx, hash } = buildTx({
    feePayer: p.feePayers[i % p.feePayers.length]!,
    anchorBlockHeader: p.header,
    chainId: p.chainId,
    version: p.version,
    expirationTimestamp: p.expirationTimestamp,
    maxFeesPerGas: p.maxFeesPerGas,
    noteHashes: [randomFr(), randomFr()],
    nullifiers: [randomFr()],
    publicCalls: [
      {
        contractAddress: p.contract,
        signature: 'transfer_in_public((Field),(Field),u128,Field)',
        args: args(half),
      },
      {
        contractAddress: p.contract,
        signature: 'mint_to_public((Field),u128)',
        args: args(p.padding - half),
      },
    ],
    proof: randomProof(),
  });
  const json = JSON.stringify(encodeTxJson({ ...tx, txHash: hash }));
  return { hash, json, body: `[{"jsonrpc":"2.0","id":${i},"method":"node_sendTx","params":[${json}]}]` };
}

/** A worker thread running this file, with tsx's loader (workers do not inherit `--import tsx`). */
const BUILD_WORKER = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;

/** Builds txs `from`..`to` - 1 on one worker thread per core (buildTx hashes each tx: milliseconds). */
async function buildAll(from: number, to: number, params: BuildParams): Promise<BuiltTx[]> {
  const workers = Math.min(availableParallelism(), to - from);
  const per = Math.ceil((to - from) / workers);
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const range = [from + w * per, Math.min(to, from + (w + 1) * per)];
      return new Promise<BuiltTx[]>((resolve, reject) => {
        const worker = new Worker(BUILD_WORKER, { eval: true, workerData: { params, range } });
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`a build worker exited with ${code}`)));
      });
    }),
  );
  return parts.flat();
}

if (!isMainThread) {
  const { params, range } = workerData as { params: BuildParams; range: [number, number] };
  const out: BuiltTx[] = [];
  for (let i = range[0]; i < range[1]; i++) out.push(build(i, params));
  parentPort!.postMessage(out);
} else {
  await main();
}

/** Median ms per call of `fn(i)` over rounds of `perRound` calls (i counts on), after a warm-up. */
function measure(perRound: number, rounds: number, fn: (i: number) => unknown): number {
  let i = 0;
  for (let k = 0; k < perRound; k++) fn(i++);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let k = 0; k < perRound; k++) fn(i++);
    times.push((performance.now() - start) / perRound);
  }
  return percentile(times, 0.5);
}

async function main(): Promise<void> {
  const node = await startChainNode(process.env.BENCH_CPU_PROF_DIR);
  const aztecUrl = `${node.publicUrl}/aztec`;

  /** One call at /aztec, as the reference's client makes it: a batch array of one request. */
  const aztec = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const text = await post(aztecUrl, JSON.stringify([{ jsonrpc: '2.0', id: 1, method, params }]));
    const [reply] = JSON.parse(text) as RpcReply[];
    if (reply?.error) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply!.result as T;
  };

  const rows: [string, string, string][] = [];
  const row = (figure: string, value: string, target = '') => rows.push([figure, value, target]);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

  await benchOnNode('admission', node, async () => {
    const { dev, pub } = nodeRpc(node);
    await dev('svcDev_advanceToSlot', [1]); // block 1: a chain the txs anchor on

    // ---- the txs, on the chain's parameters from /aztec ---------------------------------------
    const info = await aztec<{ l1ChainId: number; rollupVersion: number }>('node_getNodeInfo');
    const minFees: GasFees = z.decode(gasFees, await aztec('node_getCurrentMinFees'));
    const l1Time = await pub('svc_getSyncedL1Timestamp');
    const params: BuildParams = {
      header: z.decode(blockHeader, await aztec('node_getBlockHeader')),
      chainId: info.l1ChainId,
      version: info.rollupVersion,
      expirationTimestamp: BigInt(l1Time ?? Math.floor(Date.now() / 1000)) + MAX_TX_LIFETIME,
      maxFeesPerGas: {
        feePerDaGas: minFees.feePerDaGas * FEE_HEADROOM,
        feePerL2Gas: minFees.feePerL2Gas * FEE_HEADROOM,
      },
      feePayers: devAccounts(FEE_PAYERS).map((a) => a.address),
      contract: randomFr(),
      padding: 0,
    };
    // Calldata fields that bring the JSON to TARGET_JSON_CHARS: each is `"0x` + 64 hex digits + `",`.
    params.padding = Math.max(0, Math.ceil((TARGET_JSON_CHARS - build(0, params).json.length) / 69));
    const t0 = performance.now();
    const txs = await buildAll(0, N, params);
    const jsonChars = txs.reduce((s, t) => s + t.json.length, 0) / N;
    log(
      `built ${N} txs in ${fmt(performance.now() - t0, 0)} ms (${Math.round(jsonChars)} JSON chars each on average)`,
    );

    // ---- admission over HTTP, per in-flight count ----------------------------------------------
    for (const inFlight of IN_FLIGHT) {
      const latencies: number[] = [];
      const errors: string[] = [];
      const probes: number[] = [];
      let sending = true;
      const probe = (async () => {
        while (sending) {
          const p0 = performance.now();
          await aztec('node_getBlockNumber');
          probes.push(performance.now() - p0);
          await new Promise((r) => setTimeout(r, PROBE_MS));
        }
      })();
      const cpu0 = nodeCpuMs(node);
      const started = performance.now();
      await runLimited(
        txs.map((t) => async () => {
          const s0 = performance.now();
          const text = await post(aztecUrl, t.body);
          latencies.push(performance.now() - s0);
          const replies = JSON.parse(text) as RpcReply[];
          if (!Array.isArray(replies) || replies.length !== 1) {
            errors.push(`not a batch of one: ${text.slice(0, 200)}`);
          }
          for (const r of replies) {
            if (r.error)
              errors.push(`${r.error.code} ${r.error.message} ${JSON.stringify(r.error.data ?? '')}`);
          }
        }),
        inFlight,
      );
      const ms = performance.now() - started;
      const cpu1 = nodeCpuMs(node);
      sending = false;
      await probe;
      check(errors.length === 0, `${errors.length} of ${N} sends failed, the first: ${errors[0]}`);
      const pending = await aztec<number>('node_getPendingTxCount');
      check(pending === N, `${pending} pending txs after ${N} accepted sends`);

      const txsPerS = N / (ms / 1000);
      const [p50, p99, max] = [
        percentile(latencies, 0.5),
        percentile(latencies, 0.99),
        Math.max(...latencies),
      ];
      const cpuPerTx = cpu0 === undefined || cpu1 === undefined ? undefined : (cpu1 - cpu0) / N;
      const probeFigures = [percentile(probes, 0.5), percentile(probes, 0.99), Math.max(...probes)];
      console.log(
        `BENCH admission.send in_flight=${inFlight} txs_per_s=${fmt(txsPerS, 1)} p50_ms=${fmt(p50, 1)} p99_ms=${fmt(p99, 1)} max_ms=${fmt(max, 1)} n=${N} json_chars=${Math.round(jsonChars)} node_cpu_ms_per_tx=${cpuPerTx === undefined ? 'n/a' : fmt(cpuPerTx, 1)} probe_p50_ms=${fmt(probeFigures[0]!, 1)} probe_p99_ms=${fmt(probeFigures[1]!, 1)} probe_max_ms=${fmt(probeFigures[2]!, 1)}`,
      );
      row(
        `send, ${inFlight} in flight: txs/s`,
        fmt(txsPerS, 1),
        `≥ ${TARGETS.txsPerS}: ${met(txsPerS >= TARGETS.txsPerS)}`,
      );
      row(
        `send, ${inFlight} in flight: latency p50 / p99 / max`,
        `${fmt(p50, 0)} / ${fmt(p99, 0)} / ${fmt(max, 0)} ms`,
        `p99 < ${TARGETS.p99Ms} ms: ${met(p99 < TARGETS.p99Ms)}`,
      );
      row(
        `send, ${inFlight} in flight: node CPU per tx`,
        cpuPerTx === undefined ? 'n/a' : `${fmt(cpuPerTx, 1)} ms`,
      );
      row(
        `send, ${inFlight} in flight: probe node_getBlockNumber p50 / p99 / max`,
        `${probeFigures.map((x) => fmt(x, 0)).join(' / ')} ms`,
        'the event loop held',
      );

      // An empty pool for the next run, which sends the same txs.
      await runLimited(
        txs.map((t) => () => dev('svcDev_dropTx', [toHex32(t.hash)])),
        8,
      );
      check((await aztec<number>('node_getPendingTxCount')) === 0, 'txs left in the pool after dropping');
    }

    // ---- in this process, one core (the node idles: manual clock) --------------------------------
    const sample = txs.slice(0, SAMPLE);
    const bodies = sample.map((t) => t.body);
    const parsed = sample.map((t) => JSON.parse(t.json) as unknown);
    const decoded: TxBody[] = parsed.map((p) => decodeTxJson(p).body);
    for (const [k, d] of decoded.entries()) check(computeTxHash(d.data) === sample[k]!.hash, 'hash mismatch');
    const at = <T>(xs: T[], i: number) => xs[i % xs.length]!;
    const fieldsOf = (d: TxBody): Fr[] => [
      BigInt(PUBLIC_TX_HASH_SEPARATOR),
      ...publicKernelInputsToFields(toPublicKernelInputs(d.data as TailForPublic)),
    ];
    const fieldLists = decoded.map(fieldsOf);
    const permutations = Math.ceil(fieldLists[0]!.length / 3);

    const parseMs = measure(8, 9, (i) => JSON.parse(at(bodies, i)));
    const decodeMs = measure(8, 9, (i) => decodeTxJson(at(parsed, i)));
    const hashMs = measure(4, 9, (i) => computeTxHash(at(decoded, i).data));
    const fieldsMs = measure(8, 9, (i) => fieldsOf(at(decoded, i)));
    const spongeMs = measure(4, 9, (i) => poseidon2Hash(at(fieldLists, i)));
    const decodeHashMs = measure(4, 9, (i) => computeTxHash(decodeTxJson(at(parsed, i)).body.data));
    const usPerPermutation = (spongeMs * 1000) / permutations;

    // computeTxHashOffThread: OFF_THREAD hashes asked at once; the calls return once the fields are
    // laid out on this thread, the hashes come from the hash worker.
    const OFF_THREAD = 4 * SAMPLE;
    await Promise.all(decoded.map((d) => computeTxHashOffThread(d.data))); // the worker started
    const offCaller: number[] = [];
    const offRates: number[] = [];
    for (let r = 0; r < 3; r++) {
      const o0 = performance.now();
      const pending = Array.from({ length: OFF_THREAD }, (_, i) =>
        computeTxHashOffThread(at(decoded, i).data),
      );
      offCaller.push((performance.now() - o0) / OFF_THREAD);
      const hashes = await Promise.all(pending);
      offRates.push(OFF_THREAD / ((performance.now() - o0) / 1000));
      hashes.forEach((h, i) => {
        check(h === at(sample, i).hash, 'off-thread hash mismatch');
      });
    }
    const offRate = percentile(offRates, 0.5);
    const offCallerMs = percentile(offCaller, 0.5);

    const inProcess: [string, number, string][] = [
      ['parse', parseMs, 'JSON.parse of the request body'],
      ['decode', decodeMs, 'decodeTxJson of the parsed tx'],
      ['hash', hashMs, 'computeTxHash'],
      ['hash_fields', fieldsMs, '  of which the kernel output as fields'],
      [
        'hash_sponge',
        spongeMs,
        `  of which Poseidon2 of ${fieldLists[0]!.length} fields (${permutations} perms)`,
      ],
      ['decode_hash', decodeHashMs, 'decodeTxJson + computeTxHash'],
    ];
    for (const [name, ms, what] of inProcess) {
      const extra =
        name === 'hash_sponge'
          ? ` permutations=${permutations} us_per_permutation=${fmt(usPerPermutation, 1)}`
          : name === 'decode_hash'
            ? ` target_ms=${TARGETS.decodeHashMs}`
            : '';
      console.log(`BENCH admission.${name} ms_per_tx=${fmt(ms, 3)}${extra}`);
      row(
        what,
        `${fmt(ms, 2)} ms`,
        name === 'decode_hash' ? `≤ ${TARGETS.decodeHashMs} ms: ${met(ms <= TARGETS.decodeHashMs)}` : '',
      );
    }
    row('Poseidon2: µs per permutation', fmt(usPerPermutation, 1));
    console.log(
      `BENCH admission.hash_off_thread txs_per_s=${fmt(offRate, 1)} at_once=${OFF_THREAD} caller_ms_per_tx=${fmt(offCallerMs, 3)}`,
    );
    row(
      `computeTxHashOffThread, ${OFF_THREAD} at once: txs/s (caller's ms per tx)`,
      `${fmt(offRate, 1)} (${fmt(offCallerMs, 2)} ms)`,
    );

    // ---- the table -------------------------------------------------------------------------------
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length), 6));
    const line = (r: readonly string[]) => `| ${r.map((x, c) => x.padEnd(widths[c]!)).join(' | ')} |`;
    log('');
    log(
      `admission of ${N} reference txs (${Math.round(jsonChars)} chars of JSON each: 2 public calls with ${params.padding} calldata fields, a proof of ${CHONK_PROOF_LENGTH} random words) through POST /aztec node_sendTx; Poseidon2 ${poseidon2Backend().kind}`,
    );
    log('command: npm run build && node --import tsx bench/admission.bench.ts');
    log(line(['figure', 'value', 'target']));
    log(line(widths.map((w) => '-'.repeat(w))));
    for (const r of rows) log(line(r));
  });
}
