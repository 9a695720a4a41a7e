// What N pending txs cost a real `cairn start` process in resident memory, and where it goes. The
// node runs on the manual clock, so no block is built and every tx stays pending. It is measured
// idle (started, answering, no tx), then N txs (2 note hashes, 2 nullifiers and the fee payment, from
// the 10 dev accounts, as bench/flood.bench.ts builds them) are sent with svc_sendTx, 32 requests in
// flight, and it is measured again. Each measurement is taken inside the node by
// bench/memory-probe.mjs (loaded with --import; the node runs with --expose-gc): the process's
// figures as found, then after a full GC. Printed, to stderr, the breakdown of the growth: resident
// memory (VmRSS) split into anonymous (RssAnon: V8's heap, malloc, buffers), file-backed (RssFile:
// LMDB's mapped data files, code) and shared (RssShmem); V8's heap used and total, external and
// array buffers; per LMDB environment the data file's size and its resident pages; then one line:
//   BENCH pending-memory rss_mb_idle=<n> rss_mb_at_n=<n> rss_mb_growth=<n> anon_mb_growth=<n> file_mb_growth=<n> lmdb_rss_mb_growth=<n> heap_used_mb_growth=<n> rss_mb_growth_after_gc=<n> mempool_file_mb=<n> send_txs_per_s=<n> n=<n>
// (the growth figures are "as found", what the node holds without a forced GC, except the one
// named after_gc).
//   npm run build && node --expose-gc --import tsx bench/pending-memory.bench.ts
// BENCH_PENDING_TXS (20000) sets N, BENCH_FLOOD_IN_FLIGHT (32) the requests in flight,
// BENCH_PENDING_HOLD_S (3) how long the node holds the N txs before it is measured;
// BENCH_PENDING_CLOCK=realtime runs the node on the realtime clock instead (4-second slots, an L1
// block a second, a chain pass every 500 ms) with its sequencer off, so that the txs still stay
// pending while the chain's passes settle the pool with it.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { devAccounts, NodeClient, randomFr, toWire } from '../src/client/index.js';
import { startCairn } from '../test/helpers/process.js';
import { benchOnNode, fmt, log, nodeRpc, postRetrying, type RpcReply, txFactory } from './chain-node.js';

const N = Number(process.env.BENCH_PENDING_TXS ?? 20_000);
const IN_FLIGHT = Number(process.env.BENCH_FLOOD_IN_FLIGHT ?? 32);
const HOLD_S = Number(process.env.BENCH_PENDING_HOLD_S ?? 3);
const REALTIME = process.env.BENCH_PENDING_CLOCK === 'realtime';
const MiB = 2 ** 20;

interface Figures {
  memory: NodeJS.MemoryUsage;
  heap: { used: number; total: number; malloced: number };
  spaces: Record<string, number>;
  proc: Record<string, number>;
}
interface Probe {
  seq: number;
  gc: boolean;
  asFound: Figures;
  afterGc: Figures;
}
/** Resident pages of each LMDB data file the node maps, by environment (its directory's name). */
type LmdbPages = Map<string, { rss: number; maps: number; fileBytes: number }>;

const probeDir = mkdtempSync(join(tmpdir(), 'cairn-memory-probe-'));
const probeFile = join(probeDir, 'probe.json');
const node = await startCairn(
  [
    ...(REALTIME
      ? ['--slot-duration', '4', '--l1-block-time', '1', '--sequencer', 'false']
      : ['--clock', 'manual']),
    '--mempool-max-tx-count',
    String(2 * N),
    '--log-level',
    'warn',
  ],
  { CAIRN_MEMORY_PROBE: probeFile },
  ['--expose-gc', '--import', join(import.meta.dirname, 'memory-probe.mjs')],
);
const pid = node.child.pid!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let seq = 0;
/** Asks the node's probe for its figures (as found, and after a full GC). */
async function probe(): Promise<Probe> {
  seq++;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (existsSync(probeFile)) {
      const p = JSON.parse(readFileSync(probeFile, 'utf8')) as Probe;
      if (p.seq === seq) return p;
    }
    if (Date.now() > deadline) throw new Error('the node did not answer the memory probe');
    await sleep(50);
  }
}

/** Per LMDB environment, the resident pages of its mapped data.mdb and the file's size. */
function lmdbPages(): LmdbPages {
  const out: LmdbPages = new Map();
  let current: string | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s+(.*)$/.exec(line);
    if (mapping) {
      const path = mapping[1]!.replace(/ \(deleted\)$/, '');
      current = path.endsWith('/data.mdb') ? path : undefined;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current !== undefined) {
      const name = basename(dirname(current));
      const entry = out.get(name) ?? {
        rss: 0,
        maps: 0,
        fileBytes: existsSync(current) ? statSync(current).size : 0,
      };
      entry.rss += Number(rss[1]) * 1024;
      entry.maps++;
      out.set(name, entry);
    }
  }
  return out;
}

const mb = (bytes: number) => fmt(bytes / MiB, 1);
const sum = (pages: LmdbPages) => [...pages.values()].reduce((s, p) => s + p.rss, 0);

function breakdown(idle: Probe, full: Probe, idlePages: LmdbPages, fullPages: LmdbPages): string[] {
  const rows: [string, (f: Figures) => number][] = [
    ['VmRSS', (f) => f.proc.VmRSS ?? 0],
    ['  RssAnon', (f) => f.proc.RssAnon ?? 0],
    ['  RssFile', (f) => f.proc.RssFile ?? 0],
    ['  RssShmem', (f) => f.proc.RssShmem ?? 0],
    ['V8 heap used', (f) => f.heap.used],
    ['V8 heap total', (f) => f.heap.total],
    ['  old space used', (f) => f.spaces.old_space ?? 0],
    ['  large objects used', (f) => f.spaces.large_object_space ?? 0],
    ['external', (f) => f.memory.external],
    ['  arrayBuffers', (f) => f.memory.arrayBuffers],
    ['V8 malloced', (f) => f.heap.malloced],
  ];
  const lines = [
    `memory of the node (MiB): idle -> ${N} pending (growth), as found | after a full GC`,
    ...rows.map(([name, get]) => {
      const cell = (k: 'asFound' | 'afterGc') =>
        `${mb(get(idle[k]))} -> ${mb(get(full[k]))} (${mb(get(full[k]) - get(idle[k]))})`;
      return `  ${name.padEnd(22)} ${cell('asFound').padEnd(30)} | ${cell('afterGc')}`;
    }),
    'LMDB data files: resident pages idle -> at N (growth) MiB; file size and mappings of it at N',
  ];
  for (const [name, at] of fullPages) {
    const before = idlePages.get(name)?.rss ?? 0;
    lines.push(
      `  ${name.padEnd(22)} ${mb(before)} -> ${mb(at.rss)} (${mb(at.rss - before)}); file ${mb(at.fileBytes)}, ${at.maps} mapping(s)`,
    );
  }
  return lines;
}

await benchOnNode('pending-memory', node, async () => {
  const { pub } = nodeRpc(node);
  const client = new NodeClient(node.publicUrl);
  const accounts = devAccounts(10);
  const spec = (i: number) => ({
    feePayer: accounts[i % accounts.length]!.address,
    noteHashes: [randomFr(), randomFr()],
    nullifiers: [randomFr()],
  });
  const { first, build } = await txFactory(client, { ...spec(0), feeHeadroom: 20n });
  const t0 = performance.now();
  const bodies = Array.from({ length: N }, (_, i) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: i,
      method: 'svc_sendTx',
      params: [i === 0 ? first.wire : toWire(build(spec(i)))],
    }),
  );
  log(`built ${N} txs in ${fmt(performance.now() - t0, 0)} ms`);

  await sleep(3000);
  const idle = await probe();
  const idlePages = lmdbPages();
  if (!idle.gc) throw new Error('the node runs without --expose-gc');

  const resets = { count: 0 };
  let next = 0;
  const sendStarted = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < bodies.length) {
        const reply = JSON.parse(await postRetrying(node.publicUrl, bodies[next++]!, resets)) as RpcReply;
        if (reply.error) throw new Error(`sendTx: ${reply.error.code} ${reply.error.message}`);
      }
    }),
  );
  const sendS = (performance.now() - sendStarted) / 1000;
  const pending = await pub('svc_getPendingTxCount');
  if (pending !== N) throw new Error(`${pending} of ${N} txs are pending`);
  await sleep(HOLD_S * 1000);
  const full = await probe();
  const fullPages = lmdbPages();

  for (const line of breakdown(idle, full, idlePages, fullPages)) log(line);
  const growth = (k: 'asFound' | 'afterGc', field: string) =>
    (full[k].proc[field] ?? 0) - (idle[k].proc[field] ?? 0);
  const perTx = (bytes: number) => fmt(bytes / N / 1024, 1);
  log(
    `per pending tx (KiB, as found): rss ${perTx(growth('asFound', 'VmRSS'))}, anon ${perTx(growth('asFound', 'RssAnon'))}, file ${perTx(growth('asFound', 'RssFile'))}, LMDB pages ${perTx(sum(fullPages) - sum(idlePages))}, V8 heap used ${perTx(full.asFound.heap.used - idle.asFound.heap.used)}; after GC: heap used ${perTx(full.afterGc.heap.used - idle.afterGc.heap.used)}`,
  );
  console.log(
    `BENCH pending-memory rss_mb_idle=${mb(idle.asFound.proc.VmRSS ?? 0)} rss_mb_at_n=${mb(full.asFound.proc.VmRSS ?? 0)} rss_mb_growth=${mb(growth('asFound', 'VmRSS'))} anon_mb_growth=${mb(growth('asFound', 'RssAnon'))} file_mb_growth=${mb(growth('asFound', 'RssFile'))} lmdb_rss_mb_growth=${mb(sum(fullPages) - sum(idlePages))} heap_used_mb_growth=${mb(full.asFound.heap.used - idle.asFound.heap.used)} rss_mb_growth_after_gc=${mb(growth('afterGc', 'VmRSS'))} mempool_file_mb=${mb(fullPages.get('mempool')?.fileBytes ?? 0)} send_txs_per_s=${Math.round(N / sendS)} n=${N}`,
  );
  rmSync(probeDir, { recursive: true, force: true });
});
