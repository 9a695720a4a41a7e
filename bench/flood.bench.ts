// A flood of txs on a real `cairn start` process with the realtime clock (4-second slots, an L1
// block a second, up to 1,000 txs per block), as a user who can send txs could cause it:
//   flood:     N txs (2 note hashes, 2 nullifiers and the fee payment, from the 10 dev accounts)
//              sent with svc_sendTx, FLOOD_IN_FLIGHT requests in flight, as fast as the node
//              takes them; then the chain is watched until the pool has drained: every slot
//              while txs wait must produce a full block (the figures say how full), and the
//              pool must drain at the chain's capacity;
//   sustained: txs sent at the chain's measured capacity (txs per slot / slot seconds) for
//              SUSTAINED_S seconds, each timed: the p99 send latency is the figure.
// The node's resident memory is read (from /proc) before the flood, at its peak of pending txs
// (all of it and its anonymous part, without LMDB's file pages) and once the pool has drained;
// what a pending tx retains after a GC is bench/mempool-memory.bench.ts's figure. Prints:
//   BENCH flood-send txs_per_s=<n> p50_ms=<n> p99_ms=<n> n=<n>
//   BENCH flood-drain txs_per_s=<n> slots=<n> min_block=<n> max_block=<n> empty_slots=<n> n=<n>
//   BENCH flood-memory rss_mb_before=<n> rss_mb_at_peak=<n> rss_kb_per_pending_tx=<n> anon_kb_per_pending_tx=<n> rss_mb_drained=<n> peak_pending=<n>
//   BENCH flood-sustained txs_per_s=<n> p50_ms=<n> p99_ms=<n> max_pending=<n> seconds=<n>
// and then the sustained phase's sends of 100 ms or more, grouped into bursts with their UTC times.
//   npm run build && node --import tsx bench/flood.bench.ts
// BENCH_FLOOD_TXS (20000), BENCH_FLOOD_IN_FLIGHT (32), BENCH_SUSTAINED_S (300) change the shape;
// BENCH_CPU_PROF_DIR=<dir> runs the node with --cpu-prof.
import { readFileSync } from 'node:fs';
import { devAccounts, NodeClient, randomFr, toWire } from '../src/client/index.js';
import {
  benchOnNode,
  fmt,
  log,
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

const node = await startRealtimeNode(SLOT_S, 2 * N);

/**
 * The node's resident set in MB: all of it, and its anonymous part (heap, buffers) without the
 * file-backed pages (LMDB's memory map, code), which the kernel may drop at any time.
 */
function rssMb(field: 'VmRSS' | 'RssAnon' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${node.child.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await benchOnNode('flood', node, async () => {
  const { pub } = nodeRpc(node);
  const client = new NodeClient(node.publicUrl);
  while ((await pub('svc_getBlockNumber')) < 1) await sleep(200); // a block to anchor on

  // ---- build the txs (not timed) ----------------------------------------------------------------
  const accounts = devAccounts(10);
  const spec = (i: number) => ({
    feePayer: accounts[i % accounts.length]!.address,
    noteHashes: [randomFr(), randomFr()],
    nullifiers: [randomFr()],
  });
  const { first, build } = await txFactory(client, { ...spec(0), feeHeadroom: FEE_HEADROOM });
  const bodyOf = (i: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: i,
      method: 'svc_sendTx',
      params: [i === 0 ? first.wire : toWire(build(spec(i)))],
    });
  const t0 = performance.now();
  // Each tx is hashed here (~10-30 ms in the reference's model): yield now and then, or the
  // kept-alive connections the node closes meanwhile are found dead at the first send.
  const flood: string[] = [];
  for (let i = 0; i < N; i++) {
    if (i % 50 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    flood.push(bodyOf(i));
  }
  log(`built ${N} txs in ${fmt(performance.now() - t0, 0)} ms`);

  /** Sends one body; its latency, or throws on a JSON-RPC error. */
  // Kept-alive connections the node closed as a request went out are retried once and counted.
  const resets = { count: 0 };
  const postOnce = (body: string) => postRetrying(node.publicUrl, body, resets);
  const send = async (body: string): Promise<number> => {
    const started = performance.now();
    const reply = JSON.parse(await postOnce(body)) as RpcReply;
    if (reply.error) throw new Error(`sendTx: ${reply.error.code} ${reply.error.message}`);
    return performance.now() - started;
  };

  // ---- watch the chain: txs per block, and the peak of pending txs ------------------------------
  const blocks = new Map<number, number>();
  let peakPending = 0;
  let peakRss = 0;
  let peakAnon = 0;
  let watching = true;
  const watcher = (async () => {
    let seen = await pub('svc_getBlockNumber');
    while (watching) {
      const latest = await pub('svc_getBlockNumber');
      for (let b = seen + 1; b <= latest; b++) {
        const block = await pub('svc_getBlock', [b, { includeTransactions: true }]);
        blocks.set(b, block?.body?.txEffects.length ?? 0);
      }
      seen = latest;
      const pending = await pub('svc_getPendingTxCount');
      if (pending > peakPending) {
        peakPending = pending;
        peakRss = rssMb();
        peakAnon = rssMb('RssAnon');
      }
      await sleep(250);
    }
  })();

  // ---- flood ---------------------------------------------------------------------------------
  const rssBefore = rssMb();
  const anonBefore = rssMb('RssAnon');
  const startBlock = await pub('svc_getBlockNumber');
  const latencies: number[] = [];
  let next = 0;
  const floodStarted = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < flood.length) latencies.push(await send(flood[next++]!));
    }),
  );
  const floodMs = performance.now() - floodStarted;
  console.log(
    `BENCH flood-send txs_per_s=${Math.round(N / (floodMs / 1000))} p50_ms=${fmt(percentile(latencies, 0.5), 1)} p99_ms=${fmt(percentile(latencies, 0.99), 1)} n=${N} in_flight=${IN_FLIGHT}`,
  );

  // ---- drain -----------------------------------------------------------------------------------
  const drainDeadline = Date.now() + (N / 50) * 1000 + 120_000;
  while ((await pub('svc_getPendingTxCount')) > 0) {
    if (Date.now() > drainDeadline) throw new Error('the pool did not drain: block production stalled');
    await sleep(500);
  }
  const drainedMs = performance.now() - floodStarted;
  const rssDrained = rssMb();
  await sleep(1500); // the watcher reads the last blocks
  const endBlock = await pub('svc_getBlockNumber');
  const sizes = [...blocks.entries()].filter(([b]) => b > startBlock && b <= endBlock).map(([, n]) => n);
  const mined = sizes.reduce((s, n) => s + n, 0);
  if (mined < N) throw new Error(`${mined} of ${N} txs found in blocks ${startBlock + 1}..${endBlock}`);
  const full = sizes.slice(0, -1); // the last block takes what is left
  const slots = Math.round(drainedMs / 1000 / SLOT_S);
  log(`txs per block while draining: ${sizes.join(', ')}`);
  console.log(
    `BENCH flood-drain txs_per_s=${Math.round(N / (drainedMs / 1000))} blocks=${sizes.length} slots=${slots} min_block=${Math.min(...full)} max_block=${Math.max(...sizes)} empty_slots=${Math.max(0, slots - sizes.length)} n=${N}`,
  );
  console.log(
    `BENCH flood-memory rss_mb_before=${fmt(rssBefore, 0)} rss_mb_at_peak=${fmt(peakRss, 0)} rss_kb_per_pending_tx=${fmt(((peakRss - rssBefore) * 1024) / Math.max(1, peakPending), 1)} anon_kb_per_pending_tx=${fmt(((peakAnon - anonBefore) * 1024) / Math.max(1, peakPending), 1)} rss_mb_drained=${fmt(rssDrained, 0)} peak_pending=${peakPending}`,
  );

  // ---- sustained at capacity ---------------------------------------------------------------------
  const capacityPerSlot = Math.max(...sizes);
  const rate = capacityPerSlot / SLOT_S;
  const total = Math.floor(rate * SUSTAINED_S);
  const sustained = Array.from({ length: total }, (_, i) => bodyOf(N + i));
  log(`sustained: ${total} txs at ${fmt(rate, 1)} txs/s (${capacityPerSlot} per ${SLOT_S}-second slot)`);
  const sustainedLatencies: number[] = [];
  const slowSends: { at: number; ms: number }[] = [];
  let maxPending = 0;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = Date.now();
    inFlight.push(
      send(sustained[i]!).then((ms) => {
        sustainedLatencies.push(ms);
        if (ms >= SLOW_MS) slowSends.push({ at: sentAt, ms });
      }),
    );
    if (i % Math.max(1, Math.round(rate)) === 0)
      maxPending = Math.max(maxPending, await pub('svc_getPendingTxCount'));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `BENCH flood-sustained txs_per_s=${fmt(total / seconds, 1)} p50_ms=${fmt(percentile(sustainedLatencies, 0.5), 1)} p99_ms=${fmt(percentile(sustainedLatencies, 0.99), 1)} max_pending=${maxPending} seconds=${fmt(seconds, 0)} connection_resets=${resets.count}`,
  );
  for (const line of slowBursts(slowSends)) log(line);
  watching = false;
  await watcher;
  // BENCH_LOG_LEVEL=info shows what the node did meanwhile (its JSON log lines carry `time`, to
  // set beside the slow bursts' times).
  if (process.env.BENCH_LOG_LEVEL !== undefined) log(node.output());
});
