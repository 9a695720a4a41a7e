// A flood of txs on a real `cairn start` process with the realtime clock (4-second slots, an L1
// block a second, up to 1,000 txs per block), as a user who can send txs could cause it:
//   flood:     N txs sent with svc_sendTx, FLOOD_IN_FLIGHT requests in flight, as fast as the node
//              takes them; then the chain is watched until the pool has drained: every slot
//              while txs wait must produce a full block (the figures say how full), and the
//              pool must drain at the chain's capacity;
//   sustained: txs sent at the chain's capacity (txs per slot / slot seconds) for SUSTAINED_S
//              seconds, each timed: the p99 send latency is the figure.
// The txs are the node's tx model (docs/transactions.md): the private kernel tail's output of a
// private-only tx with 2 note hashes and 2 nullifiers (the protocol one and one more), paid by
// the 10 dev accounts in turn, with a full-length proof of CHONK_PROOF_LENGTH random words
// (svc_sendTx's JSON ~126 KB per tx); the node hashes each (a Poseidon2 sponge of ~430
// permutations) and decodes its proof. The chain's capacity follows from their mana: the rollup's
// mana limit per checkpoint (svc_getL1Constants) over the mana one tx is billed, read from the
// block that mines a first probe tx before the flood.
// So that the bench can send faster than the node admits, it does not build txs as a wallet does:
//   - one random proof for all txs: the node does not verify proofs (its dev verifier accepts any
//     proof that is not all zeros), so a proof per tx would only cost this process time;
//   - no tx hash on this side: svc_sendTx's txHash is optional and the node computes the hash of
//     every tx it admits whether or not one is given (a claimed one is only compared with it), so
//     the bodies leave it out instead of spending a ~10 ms hash per tx here;
//   - each request body is the JSON of one tx template (buildTx, then encodeWireTx) with the fee
//     payer, note hashes and nullifiers of the tx written in: fields of fixed width, so a body
//     costs a string join (tens of µs) rather than a build and an encoding (~1 ms, plus two hashes
//     of ~10 ms each in the old bench). The first bodies are checked equal to what buildTx and
//     encodeWireTx give for the same values, and every tx has its own random note hashes and
//     nullifiers, so every tx is a distinct valid tx the node must accept and mine.
// Bodies are made as they are sent (20,000 of them would be ~2.5 GB). The bench's own CPU and the
// node's are printed per tx, to say which side limits the send rate.
// A tx the node refuses with "Unexpected error during validation" is sent again (at most 3 times)
// and counted (resent_unexpected): the node validated it against a block it then rolled back (a
// checkpoint that cannot land in its slot is not sent, and its blocks are unwound; unwound_blocks
// counts them). Any other refusal fails the bench.
// The node's resident memory is read (from /proc) before the flood, at its peak of pending txs
// (all of it and its anonymous part, without LMDB's file pages) and once the pool has drained;
// what a pending tx retains after a GC is bench/mempool-memory.bench.ts's figure. Prints:
//   BENCH flood-send txs_per_s=<n> p50_ms=<n> p99_ms=<n> n=<n> in_flight=<n> node_cpu_ms_per_tx=<n> bench_cpu_ms_per_tx=<n> ...
//   BENCH flood-drain txs_per_s=<n> blocks=<n> slots=<n> min_block=<n> max_block=<n> empty_slots=<n> capacity_per_slot=<n> capacity_txs_per_s=<n> unwound_blocks=<n> n=<n>
//   BENCH flood-memory rss_mb_before=<n> rss_mb_at_peak=<n> rss_kb_per_pending_tx=<n> anon_kb_per_pending_tx=<n> rss_mb_drained=<n> peak_pending=<n>
//   BENCH flood-sustained txs_per_s=<n> p50_ms=<n> p99_ms=<n> max_pending=<n> seconds=<n> ... node_cpu_pct=<n> bench_cpu_pct=<n>
// and then the sustained phase's sends of 100 ms or more, grouped into bursts with their UTC times;
// the load average (os.loadavg) at the start and the end, as the machine is shared.
//   npm run build && node --import tsx bench/flood.bench.ts
// BENCH_FLOOD_TXS (20000), BENCH_FLOOD_IN_FLIGHT (32), BENCH_SUSTAINED_S (300) change the shape;
// BENCH_CPU_PROF_DIR=<dir> runs the node with --cpu-prof; BENCH_NODE_LOG=<file> keeps its output.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { devAccounts, NodeClient, randomFr } from '../src/client/index.js';
import { type Fr, toHex32 } from '../src/core/field.js';
import { CHONK_PROOF_LENGTH } from '../src/core/kernel/constants.js';
import { encodeWireTx } from '../src/core/tx-codecs.js';
import {
  benchOnNode,
  check,
  fmt,
  log,
  nodeCpuMs,
  nodeRpc,
  percentile,
  postRetrying,
  type RpcReply,
  startRealtimeNode,
  txFactory,
} from './chain-node.js';

/** Sends at least this slow count towards a burst in the sustained phase's report. */
const SLOW_MS = 100;

/**
 * The sustained phase's slow sends grouped into bursts (sends started within a second of the
 * previous slow one), with wall-clock times to set beside the node's log: what each p99 excursion
 * coincided with.
 */
function slowBursts(slow: { at: number; ms: number }[]): string[] {
  const sorted = [...slow].sort((a, b) => a.at - b.at);
  const bursts: { from: number; to: number; count: number; worst: number }[] = [];
  for (const s of sorted) {
    const last = bursts.at(-1);
    if (last !== undefined && s.at - last.to <= 1000) {
      last.to = s.at;
      last.count++;
      last.worst = Math.max(last.worst, s.ms);
    } else bursts.push({ from: s.at, to: s.at, count: 1, worst: s.ms });
  }
  const time = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  return [
    `sustained: ${slow.length} sends took ${SLOW_MS} ms or more, in ${bursts.length} bursts`,
    ...bursts.map(
      (b) =>
        `  ${time(b.from)}–${time(b.to)} UTC: ${b.count} sends, worst ${fmt(b.worst, 0)} ms (epoch ms ${b.from})`,
    ),
  ];
}

const N = Number(process.env.BENCH_FLOOD_TXS ?? 20_000);
const IN_FLIGHT = Number(process.env.BENCH_FLOOD_IN_FLIGHT ?? 32);
const SUSTAINED_S = Number(process.env.BENCH_SUSTAINED_S ?? 300);
const SLOT_S = 4;
/** Max fees per gas as a multiple of the min fees: room for the congestion the flood causes. */
const FEE_HEADROOM = 20n;
/** The node's reason for a tx whose validation threw (validator.ts, TX_ERROR.UNEXPECTED). */
const UNEXPECTED_VALIDATION_ERROR = 'Unexpected error during validation';
const UNEXPECTED_RETRIES = 3;
/** Bodies checked equal to buildTx + encodeWireTx of the same values before the flood. */
const CHECKED_BODIES = 3;

const loadavg = () =>
  os
    .loadavg()
    .map((x) => fmt(x, 2))
    .join(' ');
log(`load average at start: ${loadavg()}`);

// The flood's pending txs alone are ~100 KB each by the pool's count (txSize: the fixed-width tail
// and the full proof): room for all of them beyond the 2 GB default.
const node = await startRealtimeNode(SLOT_S, 2 * N, [
  '--mempool-max-bytes',
  String(Math.max(2 ** 31, 2 * N * 128 * 1024)),
]);

/**
 * The node's resident set in MB: all of it, and its anonymous part (heap, buffers) without the
 * file-backed pages (LMDB's memory map, code), which the kernel may drop at any time.
 */
function rssMb(field: 'VmRSS' | 'RssAnon' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${node.child.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** This process's CPU time (user + system) in ms. */
const benchCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CHONK_PROOF_LENGTH random 32-byte words, each below the field modulus (top byte below 0x30). */
function randomProof(): Uint8Array {
  const proof = randomBytes(CHONK_PROOF_LENGTH * 32);
  for (let i = 0; i < CHONK_PROOF_LENGTH; i++) proof[i * 32] = proof[i * 32]! % 0x30;
  proof[proof.length - 1] = proof[proof.length - 1]! | 1; // a last word of zeros would be left off the wire
  return proof;
}

/** What makes one flood tx distinct: its fee payer, note hashes and nullifiers. */
interface TxValues {
  feePayer: Fr;
  noteHashes: [Fr, Fr];
  /** The tx's first nullifier (the builder's protocol nullifier) and its one other. */
  nullifiers: [Fr, Fr];
}

// The load average at the end, whether the run succeeded or not.
process.on('exit', () => log(`load average at end: ${loadavg()}`));

await benchOnNode('flood', node, async () => {
  const { pub } = nodeRpc(node);
  const client = new NodeClient(node.publicUrl);
  while ((await pub('svc_getBlockNumber')) < 1) await sleep(200); // a block to anchor on

  // ---- the txs: one template, values written in per tx --------------------------------------------
  const accounts = devAccounts(10);
  const proof = randomProof();
  // The chain's parameters (anchor block, chain id, version, fees with headroom, expiration).
  const { build } = await txFactory(client, {
    feePayer: accounts[0]!.address,
    noteHashes: [randomFr()],
    feeHeadroom: FEE_HEADROOM,
  });
  const valuesOf = (i: number): TxValues => ({
    feePayer: accounts[i % accounts.length]!.address,
    noteHashes: [randomFr(), randomFr()],
    nullifiers: [randomFr(), randomFr()],
  });
  /** The tx of `v` as a wallet would build it (hashed by buildTx), and its svc_sendTx body without txHash. */
  const builtBody = (id: number, v: TxValues): string => {
    const tx = build({
      feePayer: v.feePayer,
      noteHashes: v.noteHashes,
      protocolNullifier: v.nullifiers[0],
      nullifiers: [v.nullifiers[1]],
      proof,
    });
    const { txHash: _claimed, ...wire } = encodeWireTx(tx, 0n);
    return JSON.stringify({ jsonrpc: '2.0', method: 'svc_sendTx', params: [wire], id });
  };
  // The template: a built body split where its values are (each 0x + 64 hex digits, found once).
  const marker = valuesOf(0);
  const markers = [marker.feePayer, ...marker.noteHashes, ...marker.nullifiers].map(toHex32);
  const templateBody = builtBody(0, marker);
  const idAt = templateBody.lastIndexOf('"id":0}');
  check(idAt > 0 && idAt + 7 === templateBody.length, 'the body ends with its id');
  const parts: string[] = [];
  let rest = templateBody.slice(0, idAt + 5);
  for (const m of markers) {
    const at = rest.indexOf(m);
    check(
      at >= 0 && templateBody.indexOf(m) === templateBody.lastIndexOf(m),
      `a tx value occurs once in the template, in the order written (${m})`,
    );
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + m.length);
  }
  parts.push(rest);
  /** The svc_sendTx body of tx `id` with values `v`. */
  const bodyWith = (id: number, v: TxValues): string =>
    parts[0] +
    toHex32(v.feePayer) +
    parts[1] +
    toHex32(v.noteHashes[0]) +
    parts[2] +
    toHex32(v.noteHashes[1]) +
    parts[3] +
    toHex32(v.nullifiers[0]) +
    parts[4] +
    toHex32(v.nullifiers[1]) +
    parts[5] +
    String(id) +
    '}';
  for (let i = 1; i <= CHECKED_BODIES; i++) {
    const v = valuesOf(i);
    check(bodyWith(i, v) === builtBody(i, v), `body ${i} equals buildTx + encodeWireTx of its values`);
  }
  /** The body of tx `i` (random values). */
  const bodyOf = (i: number) => bodyWith(i, valuesOf(i));
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) bodyOf(i);
  log(
    `txs: ${templateBody.length} characters of svc_sendTx JSON each (${parts.length - 1} values written in per tx, ${fmt((performance.now() - t0) / 1000, 3)} ms per body); load average ${loadavg()}`,
  );

  /** Sends one body; its latency, or throws on a JSON-RPC error. */
  // Kept-alive connections the node closed as a request went out are retried once and counted.
  const resets = { count: 0 };
  // A tx validated against a block the node then rolls back (a checkpoint that could not land in
  // its slot is not sent, and its blocks are unwound) is refused with "Unexpected error during
  // validation": the validator reads a block the world state no longer has. The tx is valid, so
  // it is sent again, as a wallet would, at most UNEXPECTED_RETRIES times; each is counted.
  const unexpected = { count: 0 };
  const postOnce = (body: string) => postRetrying(node.publicUrl, body, resets);
  const send = async (body: string): Promise<number> => {
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      const reply = JSON.parse(await postOnce(body)) as RpcReply;
      if (!reply.error) return performance.now() - started;
      const retry =
        reply.error.code === -32003 &&
        reply.error.message.includes(UNEXPECTED_VALIDATION_ERROR) &&
        attempt < UNEXPECTED_RETRIES;
      if (!retry) throw new Error(`sendTx: ${reply.error.code} ${reply.error.message}`);
      unexpected.count++;
    }
  };

  // ---- the chain's capacity for these txs: mana limit / mana of one mined tx ----------------------
  let nextId = 1;
  const probeFrom = await pub('svc_getBlockNumber');
  await send(bodyOf(nextId++));
  let manaPerTx: bigint | undefined;
  const probeDeadline = Date.now() + 60_000;
  for (let b = probeFrom + 1; manaPerTx === undefined; ) {
    check(Date.now() < probeDeadline, 'the probe tx was not mined within 60 s');
    if ((await pub('svc_getBlockNumber')) < b) {
      await sleep(250);
      continue;
    }
    const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
    const txs = block?.body?.txEffects.length ?? 0;
    if (txs > 0) {
      check(txs === 1, `the probe tx's block ${b} holds only it`);
      manaPerTx = BigInt(block!.header.totalManaUsed);
    }
    b++;
  }
  const { rollupManaLimit } = await pub('svc_getL1Constants');
  const capacityPerSlot = Math.min(1000, Number(BigInt(rollupManaLimit) / manaPerTx));
  const rate = capacityPerSlot / SLOT_S;
  log(
    `capacity: ${capacityPerSlot} txs per ${SLOT_S}-second slot (mana limit ${rollupManaLimit} / ${manaPerTx} mana per tx), ${fmt(rate, 2)} txs/s`,
  );

  // ---- watch the chain: new blocks, blocks rolled back, and the peak of pending txs ------------------------------
  let peakPending = 0;
  let peakRss = 0;
  let peakAnon = 0;
  let watching = true;
  let unwound = 0;
  /** The most pending txs the watcher saw since it was last reset (the sustained phase's figure). */
  let maxPendingSince = 0;
  const watcher = (async () => {
    let seen = await pub('svc_getBlockNumber');
    while (watching) {
      const latest = await pub('svc_getBlockNumber');
      if (latest < seen) {
        unwound += seen - latest; // blocks rolled back: read again once rebuilt
        seen = latest;
      }
      for (let b = seen + 1; b <= latest; b++) {
        // Read as a client following the chain would (the sizes are read again once drained).
        await pub('svc_getBlock', [b, { includeTransactions: true }]);
      }
      seen = latest;
      const pending = await pub('svc_getPendingTxCount');
      maxPendingSince = Math.max(maxPendingSince, pending);
      if (pending > peakPending) {
        peakPending = pending;
        peakRss = rssMb();
        peakAnon = rssMb('RssAnon');
      }
      await sleep(250);
    }
  })();
  // Awaited at the end; if the flood fails first, the node stops under it.
  watcher.catch(() => undefined);

  // ---- flood ---------------------------------------------------------------------------------
  const rssBefore = rssMb();
  const anonBefore = rssMb('RssAnon');
  const startBlock = await pub('svc_getBlockNumber');
  const latencies: number[] = [];
  let sent = 0;
  const floodStarted = performance.now();
  const [nodeCpu0, benchCpu0] = [nodeCpuMs(node), benchCpuMs()];
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent < N) {
        sent++;
        latencies.push(await send(bodyOf(nextId++)));
      }
    }),
  );
  const floodMs = performance.now() - floodStarted;
  const nodeCpu1 = nodeCpuMs(node);
  const nodeCpuPerTx =
    nodeCpu0 === undefined || nodeCpu1 === undefined ? Number.NaN : (nodeCpu1 - nodeCpu0) / N;
  console.log(
    `BENCH flood-send txs_per_s=${Math.round(N / (floodMs / 1000))} p50_ms=${fmt(percentile(latencies, 0.5), 1)} p99_ms=${fmt(percentile(latencies, 0.99), 1)} n=${N} in_flight=${IN_FLIGHT} node_cpu_ms_per_tx=${fmt(nodeCpuPerTx, 1)} bench_cpu_ms_per_tx=${fmt((benchCpuMs() - benchCpu0) / N, 2)} connection_resets=${resets.count} resent_unexpected=${unexpected.count}`,
  );

  // ---- drain -----------------------------------------------------------------------------------
  const drainDeadline = Date.now() + (N / 50) * 1000 + 120_000;
  for (let pending = await pub('svc_getPendingTxCount'); pending > 0; ) {
    if (Date.now() > drainDeadline) {
      // What the chain did: the sizes of the blocks since the flood began, newest last.
      const latest = await pub('svc_getBlockNumber');
      const recent: number[] = [];
      for (let b = Math.max(startBlock + 1, latest - 19); b <= latest; b++) {
        const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
        recent.push(block?.body?.txEffects.length ?? 0);
      }
      throw new Error(
        `the pool did not drain: ${pending} txs pending ${fmt((performance.now() - floodStarted) / 1000, 0)} s after the flood began; blocks ${startBlock + 1}..${latest}, the last ${recent.length} of ${recent.join(', ')} txs`,
      );
    }
    await sleep(500);
    pending = await pub('svc_getPendingTxCount');
  }
  const drainedMs = performance.now() - floodStarted;
  const rssDrained = rssMb();
  await sleep(1500); // the watcher reads the last blocks
  const endBlock = await pub('svc_getBlockNumber');
  // The chain as it stands (the watcher may have read blocks that were then rolled back).
  const sizes: number[] = [];
  for (let b = startBlock + 1; b <= endBlock; b++) {
    const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
    sizes.push(block?.body?.txEffects.length ?? 0);
  }
  const mined = sizes.reduce((s, n) => s + n, 0);
  if (mined < N) throw new Error(`${mined} of ${N} txs found in blocks ${startBlock + 1}..${endBlock}`);
  const full = sizes.slice(0, -1); // the last block takes what is left
  const slots = Math.round(drainedMs / 1000 / SLOT_S);
  log(`txs per block while draining: ${sizes.join(', ')}`);
  console.log(
    `BENCH flood-drain txs_per_s=${Math.round(N / (drainedMs / 1000))} blocks=${sizes.length} slots=${slots} min_block=${Math.min(...full)} max_block=${Math.max(...sizes)} empty_slots=${Math.max(0, slots - sizes.length)} capacity_per_slot=${capacityPerSlot} capacity_txs_per_s=${fmt(rate, 2)} unwound_blocks=${unwound} n=${N}`,
  );
  console.log(
    `BENCH flood-memory rss_mb_before=${fmt(rssBefore, 0)} rss_mb_at_peak=${fmt(peakRss, 0)} rss_kb_per_pending_tx=${fmt(((peakRss - rssBefore) * 1024) / Math.max(1, peakPending), 1)} anon_kb_per_pending_tx=${fmt(((peakAnon - anonBefore) * 1024) / Math.max(1, peakPending), 1)} rss_mb_drained=${fmt(rssDrained, 0)} peak_pending=${peakPending}`,
  );

  // ---- sustained at capacity ---------------------------------------------------------------------
  const total = Math.floor(rate * SUSTAINED_S);
  log(`sustained: ${total} txs at ${fmt(rate, 2)} txs/s (${capacityPerSlot} per ${SLOT_S}-second slot)`);
  const sustainedLatencies: number[] = [];
  const slowSends: { at: number; ms: number }[] = [];
  maxPendingSince = 0;
  resets.count = 0;
  unexpected.count = 0;
  const started = performance.now();
  const [nodeCpu2, benchCpu2] = [nodeCpuMs(node), benchCpuMs()];
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = Date.now();
    inFlight.push(
      send(bodyOf(nextId++)).then((ms) => {
        sustainedLatencies.push(ms);
        if (ms >= SLOW_MS) slowSends.push({ at: sentAt, ms });
      }),
    );
  }
  await Promise.all(inFlight);
  // Read by the watcher (a query here would hold the sends up whenever the node is slow to answer).
  const maxPending = maxPendingSince;
  const seconds = (performance.now() - started) / 1000;
  const nodeCpu3 = nodeCpuMs(node);
  const sustainedNodeCpu =
    nodeCpu2 === undefined || nodeCpu3 === undefined ? Number.NaN : (nodeCpu3 - nodeCpu2) / (seconds * 10);
  console.log(
    `BENCH flood-sustained txs_per_s=${fmt(total / seconds, 1)} p50_ms=${fmt(percentile(sustainedLatencies, 0.5), 1)} p99_ms=${fmt(percentile(sustainedLatencies, 0.99), 1)} max_pending=${maxPending} seconds=${fmt(seconds, 0)} connection_resets=${resets.count} resent_unexpected=${unexpected.count} node_cpu_pct=${fmt(sustainedNodeCpu, 0)} bench_cpu_pct=${fmt((benchCpuMs() - benchCpu2) / (seconds * 10), 0)}`,
  );
  for (const line of slowBursts(slowSends)) log(line);
  watching = false;
  await watcher;
  // BENCH_LOG_LEVEL=info shows what the node did meanwhile (its JSON log lines carry `time`, to
  // set beside the slow bursts' times).
  if (process.env.BENCH_LOG_LEVEL !== undefined) log(node.output());
});
