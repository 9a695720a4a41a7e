// cairn's world state side by side with the reference's native one (NativeWorldStateService of
// @aztec/world-state 4.1.2: C++ trees on LMDB), in one process, on the same seeded leaves.
// Outside CI: the reference's add-ons need glibc >= 2.38, so this runs under a Node that loads
// them (docs/performance.md, "World state against the reference's native code", says how to set
// one up); where they do not load it prints one line saying why and exits 0.
//
//   ~/refnative/bin/node --expose-gc --import tsx bench/world-state-native.bench.ts
//   BENCH_QUICK=1 ~/refnative/bin/node --expose-gc --import tsx bench/world-state-native.bench.ts
//
// Every block goes to both sides: cairn forks, applies it and commits; the reference syncs it
// with SYNC_BLOCK, handed the state reference of the four trees it covers, which its C++ side
// refuses when its own roots differ. When cairn goes first, that state reference is read from
// cairn's committed block; when the reference goes first, from a cairn fork of the block that is
// thrown away before either side is timed (its reads warm nothing the page cache does not already
// hold; `cairn_ms_first` / `cairn_ms_second` show cairn's times by turn).
// After every block all five trees' roots and sizes of both sides are compared; a difference
// stops the bench. The two sides take turns (cairn first in even rounds, the reference in odd
// ones); a figure is the median over rounds, `ratio` is the reference's median time over cairn's
// (above 1: cairn is faster) and `paired_ratio` the median of the rounds' own ratios.
//
// Figures (`BENCH world_state_native.<name> ...`, or JSON lines with BENCH_JSON=1):
//   append_note_hashes   a block of 64 txs × 64 note hashes (4,096) and its archive leaf, fresh trees
//   build                the nullifier tree built to TREE_LEAVES in blocks of 16,384 nullifiers:
//                        per-block time of the first and last block on both sides
//   sibling_path         getSiblingPath of a random leaf of the big nullifier tree, latest block
//   insert_nullifiers    a block of 16 txs × 64 nullifiers (1,024) into the big tree
//   whole_block          16 txs × 64 note hashes, 16 × 64 nullifiers, 1,024 L1→L2 messages,
//                        64 public-data writes and the archive leaf (3,137 leaves) into the big trees
//   memory               resident memory of a process holding only cairn's (or only the
//                        reference's) big trees, after path reads and a 1,024-nullifier fork
//   poseidon2            bench/poseidon2.bench.ts run beside it: cairn's addon, bb.js native and WASM
//   roots                blocks whose roots were compared, and that they all agreed
// Measured writes into the big trees are rolled back (cairn rollbackTo, reference UNWIND_BLOCKS).
//
// Environment:
//   CAIRN_REFNATIVE_DIR (~/refnative)  folder where @aztec/world-state@4.1.2 and @aztec/bb.js@4.1.2 are installed
//   BENCH_QUICK=1        a 65,536-leaf tree, 3 rounds: checks the roots fast
//   BENCH_WSN_LEAVES     nullifiers in the big tree (default 1,048,576; quick 65,536), rounded up to 16,384s
//   BENCH_ROUNDS         rounds per figure (default 7; quick 3)
//   BENCH_WSN_CACHE      where both sides' big trees are kept between runs
//                        (default $TMPDIR/cairn-bench-wsn-<leaves>-v1); BENCH_WSN_REBUILD=1 rebuilds them
//   BENCH_WSN_POSEIDON2=0  skips the Poseidon2 figures; BENCH_WSN_MEMORY=0 skips the memory figures
//   BENCH_SEED           seed of the leaves (default cairn-wsn-1)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesToFr } from '../src/core/field.js';
import { openEnvironment } from '../src/store/environment.js';
import { genesisBlockHashOf } from '../src/world-state/genesis.js';
import { TreeId, type TreeSnapshot } from '../src/world-state/types.js';
import { WORLD_STATE_SCHEMA_VERSION, WorldState } from '../src/world-state/world-state.js';
import {
  type Block,
  blockLeafCount,
  cairnCommit,
  cairnForkSnapshots,
  cairnSnapshots,
  differences,
  makeBlock,
  median,
  percentile,
  SeededLeaves,
} from './ws-native/blocks.js';
import {
  loadReference,
  type ReferenceModule,
  ReferenceWorldState,
  referenceDir,
  runtimeGlibc,
  stateRefFrom,
} from './ws-native/reference.js';

const QUICK = process.env.BENCH_QUICK === '1';
const BUILD_TXS = 256;
const BUILD_BLOCK = BUILD_TXS * 64;
const TREE_LEAVES =
  Math.ceil(Number(process.env.BENCH_WSN_LEAVES ?? (QUICK ? 65_536 : 1_048_576)) / BUILD_BLOCK) * BUILD_BLOCK;
const BUILD_BLOCKS = TREE_LEAVES / BUILD_BLOCK;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 7));
const PATHS_PER_ROUND = QUICK ? 1_000 : 3_000;
const SEED = process.env.BENCH_SEED ?? 'cairn-wsn-1';
const JSON_LINES = process.env.BENCH_JSON === '1';
const DOCS = 'docs/performance.md, "World state against the reference\'s native code"';

const log = (line: string) => process.stderr.write(`# ${line}\n`);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const fmt = (x: number, digits = 0) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function report(name: string, metrics: Record<string, number | string>): void {
  if (JSON_LINES) {
    const rounded = Object.entries(metrics).map(([k, v]) => [
      k,
      typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v,
    ]);
    console.log(JSON.stringify({ bench: `world_state_native.${name}`, ...Object.fromEntries(rounded) }));
    return;
  }
  const fields = Object.entries(metrics).map(
    ([k, v]) =>
      `${k}=${typeof v === 'string' ? v : Number.isInteger(v) || Math.abs(v) >= 100 ? Math.round(v) : v.toFixed(3)}`,
  );
  console.log(`BENCH world_state_native.${name} ${fields.join(' ')}`);
}

/** The summary table's rows. */
const rows: { figure: string; cairn: string; reference: string; ratio: string; target: string }[] = [];

// ---- loading the reference ------------------------------------------------------------------

function skip(reason: string): never {
  const glibc = runtimeGlibc();
  const [major = 0, minor = 0] = (glibc ?? '').split('.').map(Number);
  const oldGlibc = glibc !== undefined && (major < 2 || (major === 2 && minor < 38));
  console.error(
    `# world-state-native.bench: skipped: the reference's native world state did not load from ${referenceDir()}: ` +
      `${reason.split('\n')[0]}` +
      (oldGlibc
        ? ` (this Node ${process.version} runs on glibc ${glibc}; the reference's add-ons need >= 2.38)`
        : '') +
      `. To set it up (outside the repository, with a side-loaded glibc) see ${DOCS}.`,
  );
  process.exit(0);
}

let mod: ReferenceModule;
let freshRef: ReferenceWorldState;
const freshRefDir = mkdtempSync(join(tmpdir(), 'cairn-bench-wsn-ref-'));
try {
  mod = await loadReference(referenceDir());
  freshRef = await ReferenceWorldState.open(mod, freshRefDir);
} catch (err) {
  rmSync(freshRefDir, { recursive: true, force: true });
  skip(err instanceof Error ? err.message : String(err));
}
log(
  `reference: @aztec/world-state ${mod.version} from ${mod.dir}; Node ${process.version}, glibc ${runtimeGlibc() ?? '?'}; ` +
    `${QUICK ? 'quick mode, ' : ''}${TREE_LEAVES} nullifiers in the big tree, ${ROUNDS} rounds`,
);

// ---- the two sides ----------------------------------------------------------------------------

interface Sides {
  cairn: WorldState;
  ref: ReferenceWorldState;
}

let blocksChecked = 0;

function mustAgree(
  what: string,
  cairn: Record<TreeId, TreeSnapshot>,
  ref: Record<TreeId, TreeSnapshot>,
): void {
  const diff = differences(cairn, ref);
  if (diff.length > 0) throw new Error(`roots differ ${what}:\n  ${diff.join('\n  ')}`);
}

/**
 * One block on both sides, in the given order; returns each side's time in ms. Throws when the
 * reference refuses the state reference or any of the five trees differs afterwards.
 */
async function blockOnBoth(
  sides: Sides,
  block: Block,
  cairnFirst: boolean,
): Promise<{ cairnMs: number; refMs: number }> {
  let cairnMs = 0;
  const runCairn = async () => {
    gc();
    const started = performance.now();
    await cairnCommit(sides.cairn, block);
    cairnMs = performance.now() - started;
  };
  let stateRef: ReturnType<typeof stateRefFrom>;
  if (cairnFirst) {
    await runCairn();
    stateRef = stateRefFrom(cairnSnapshots(sides.cairn));
  } else {
    // The roots the reference must reach, from a cairn fork of the block that is thrown away
    // (untimed). The reference's own fork operations would do (ReferenceWorldState.stateRefOf),
    // but they answer every batch insert with witnesses: ~20 s per 16,384 nullifiers.
    stateRef = stateRefFrom(cairnForkSnapshots(sides.cairn, block));
  }
  gc();
  const started = performance.now();
  const refSnapshots = await sides.ref.syncBlock(block, stateRef);
  const refMs = performance.now() - started;
  if (!cairnFirst) await runCairn();
  if (sides.cairn.latestBlockNumber !== sides.ref.latestBlockNumber)
    throw new Error(
      `block numbers differ: cairn ${sides.cairn.latestBlockNumber}, reference ${sides.ref.latestBlockNumber}`,
    );
  mustAgree(`after block ${sides.cairn.latestBlockNumber}`, cairnSnapshots(sides.cairn), refSnapshots);
  blocksChecked++;
  return { cairnMs, refMs };
}

async function openCairn(dir: string): Promise<WorldState> {
  return WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisBlockHash: genesisBlockHashOf,
  });
}

/** Per-round times (ms) of both sides, and whether cairn went first in the round. */
interface Paired {
  cairn: number[];
  ref: number[];
  cairnFirst: boolean[];
}

/** Medians and ratios of paired per-round times: the reference's over cairn's. */
function summarize(p: Paired) {
  const cairnMs = median(p.cairn);
  const refMs = median(p.ref);
  const byTurn = (xs: number[], first: boolean) => {
    const picked = xs.filter((_, i) => p.cairnFirst[i] === first);
    return picked.length > 0 ? median(picked) : Number.NaN;
  };
  return {
    cairnMs,
    refMs,
    ratio: refMs / cairnMs,
    paired: median(p.ref.map((r, i) => r / p.cairn[i]!)),
    /** Medians by turn: each side's when it went first and when it went second. */
    turns: {
      cairn_ms_first: byTurn(p.cairn, true),
      cairn_ms_second: byTurn(p.cairn, false),
      ref_ms_first: byTurn(p.ref, false),
      ref_ms_second: byTurn(p.ref, true),
    },
  };
}

const verdict = (ratio: number, target: number) => `≥ ${target}× ${ratio >= target ? 'met' : 'NOT met'}`;

// ---- 1. 4,096 note hashes, fresh trees --------------------------------------------------------

async function appendNoteHashes(): Promise<void> {
  const cairnDir = mkdtempSync(join(tmpdir(), 'cairn-bench-wsn-cairn-'));
  const sides: Sides = { cairn: await openCairn(cairnDir), ref: freshRef };
  try {
    mustAgree('at genesis', cairnSnapshots(sides.cairn), await sides.ref.snapshots());
    await new Promise((r) => setTimeout(r, 200)); // cairn's hashing worker starts
    const leaves = new SeededLeaves(`${SEED}/append`);
    const times: Paired = { cairn: [], ref: [], cairnFirst: [] };
    for (let round = -1; round < ROUNDS; round++) {
      const block = makeBlock(leaves, { noteHashTxs: 64 });
      const { cairnMs, refMs } = await blockOnBoth(sides, block, round % 2 === 0);
      if (round < 0) continue; // warm-up
      times.cairn.push(cairnMs);
      times.ref.push(refMs);
      times.cairnFirst.push(round % 2 === 0);
    }
    const s = summarize(times);
    report('append_note_hashes', {
      cairn_leaves_per_s: 4096 / (s.cairnMs / 1000),
      ref_leaves_per_s: 4096 / (s.refMs / 1000),
      cairn_ms: s.cairnMs,
      ref_ms: s.refMs,
      ratio: s.ratio,
      paired_ratio: s.paired,
      ...s.turns,
      leaves: 4096,
      rounds: ROUNDS,
    });
    rows.push({
      figure: '4,096 note hashes, persisted (fresh trees), leaves/s',
      cairn: fmt(4096 / (s.cairnMs / 1000)),
      reference: fmt(4096 / (s.refMs / 1000)),
      ratio: `${s.ratio.toFixed(2)}× (paired ${s.paired.toFixed(2)}×)`,
      target: verdict(s.ratio, 2),
    });
  } finally {
    await sides.cairn.close();
    await sides.ref.close();
    rmSync(cairnDir, { recursive: true, force: true });
    rmSync(freshRefDir, { recursive: true, force: true });
  }
}

// ---- 2. the big trees, built block by block (kept between runs) -------------------------------

interface BuildRecord {
  version: 1;
  cairnSchema: number;
  refVersion: string;
  seed: string;
  leaves: number;
  blocks: number;
  /** Per-block times in ms, and whether cairn went first. */
  cairnMs: number[];
  refMs: number[];
  cairnFirst: boolean[];
  /** The roots at the last build block, hex per tree id. */
  roots: string[];
  builtAt: string;
}

const cacheDir = process.env.BENCH_WSN_CACHE ?? join(tmpdir(), `cairn-bench-wsn-${TREE_LEAVES}-v1`);
const recordPath = join(cacheDir, 'build.json');

async function openCached(): Promise<{ sides: Sides; record: BuildRecord } | undefined> {
  if (process.env.BENCH_WSN_REBUILD === '1' || !existsSync(recordPath)) return undefined;
  const record = JSON.parse(readFileSync(recordPath, 'utf8')) as BuildRecord;
  if (
    record.version !== 1 ||
    record.cairnSchema !== WORLD_STATE_SCHEMA_VERSION ||
    record.refVersion !== mod.version ||
    record.seed !== SEED ||
    record.leaves !== TREE_LEAVES
  ) {
    log(`the cached trees in ${cacheDir} were built with other settings: rebuilding`);
    return undefined;
  }
  let cairn: WorldState | undefined;
  let ref: ReferenceWorldState | undefined;
  try {
    cairn = await openCairn(join(cacheDir, 'cairn'));
    ref = await ReferenceWorldState.open(mod, join(cacheDir, 'ref'));
    // A run stopped in the middle of a measurement leaves a block beyond the build.
    if (cairn.latestBlockNumber > record.blocks) await cairn.rollbackTo(record.blocks);
    await ref.unwindTo(record.blocks);
    const cairnSnaps = cairnSnapshots(cairn);
    const refSnaps = await ref.snapshots();
    const diff = differences(cairnSnaps, refSnaps);
    const recorded = Object.values(cairnSnaps).map((s) => s.root.toString(16));
    if (
      cairn.latestBlockNumber !== record.blocks ||
      ref.latestBlockNumber !== record.blocks ||
      diff.length > 0 ||
      recorded.join() !== record.roots.join()
    ) {
      throw new Error(`not as built (${diff.join('; ') || 'block numbers or roots moved'})`);
    }
    return { sides: { cairn, ref }, record };
  } catch (err) {
    log(`the cached trees in ${cacheDir} cannot be used (${String(err).split('\n')[0]}): rebuilding`);
    await cairn?.close().catch(() => {});
    await ref?.close().catch(() => {});
    return undefined;
  }
}

async function buildBig(): Promise<{ sides: Sides; record: BuildRecord }> {
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  log(
    `building ${TREE_LEAVES} nullifiers on both sides in ${cacheDir}, ${BUILD_BLOCKS} blocks (kept for later runs)`,
  );
  const sides: Sides = {
    cairn: await openCairn(join(cacheDir, 'cairn')),
    ref: await ReferenceWorldState.open(mod, join(cacheDir, 'ref')),
  };
  mustAgree('at genesis', cairnSnapshots(sides.cairn), await sides.ref.snapshots());
  await new Promise((r) => setTimeout(r, 200));
  const leaves = new SeededLeaves(`${SEED}/build`);
  const record: BuildRecord = {
    version: 1,
    cairnSchema: WORLD_STATE_SCHEMA_VERSION,
    refVersion: mod.version,
    seed: SEED,
    leaves: TREE_LEAVES,
    blocks: BUILD_BLOCKS,
    cairnMs: [],
    refMs: [],
    cairnFirst: [],
    roots: [],
    builtAt: '',
  };
  const started = performance.now();
  for (let b = 0; b < BUILD_BLOCKS; b++) {
    const cairnFirst = b % 2 === 0;
    const { cairnMs, refMs } = await blockOnBoth(
      sides,
      makeBlock(leaves, { nullifierTxs: BUILD_TXS }),
      cairnFirst,
    );
    record.cairnMs.push(cairnMs);
    record.refMs.push(refMs);
    record.cairnFirst.push(cairnFirst);
    log(
      `  block ${b + 1}/${BUILD_BLOCKS}: ${(b + 1) * BUILD_BLOCK} nullifiers; cairn ${fmt(cairnMs)} ms, reference ${fmt(refMs)} ms; roots agree (${fmt((performance.now() - started) / 1000)} s)`,
    );
  }
  record.roots = Object.values(cairnSnapshots(sides.cairn)).map((s) => s.root.toString(16));
  record.builtAt = new Date().toISOString();
  writeFileSync(recordPath, `${JSON.stringify(record, null, 1)}\n`);
  return { sides, record };
}

function reportBuild(record: BuildRecord, cached: boolean): void {
  const n = record.blocks;
  const k = Math.max(1, Math.min(4, Math.floor(n / 4)));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const c = { first: record.cairnMs[0]!, last: record.cairnMs[n - 1]! };
  const r = { first: record.refMs[0]!, last: record.refMs[n - 1]! };
  const cHead = mean(record.cairnMs.slice(0, k));
  const cTail = mean(record.cairnMs.slice(n - k));
  const rHead = mean(record.refMs.slice(0, k));
  const rTail = mean(record.refMs.slice(n - k));
  report('build', {
    cairn_first_ms: c.first,
    cairn_last_ms: c.last,
    cairn_growth: c.last / c.first,
    ref_first_ms: r.first,
    ref_last_ms: r.last,
    ref_growth: r.last / r.first,
    ratio_first: r.first / c.first,
    ratio_last: r.last / c.last,
    [`cairn_first${k}_mean_ms`]: cHead,
    [`cairn_last${k}_mean_ms`]: cTail,
    [`ref_first${k}_mean_ms`]: rHead,
    [`ref_last${k}_mean_ms`]: rTail,
    cairn_total_s: record.cairnMs.reduce((a, b) => a + b, 0) / 1000,
    ref_total_s: record.refMs.reduce((a, b) => a + b, 0) / 1000,
    blocks: n,
    nullifiers_per_block: BUILD_BLOCK,
    cached: cached ? 1 : 0,
  });
  const growth = c.last / c.first;
  rows.push({
    figure: `building ${fmt(record.leaves)} nullifiers, ms per ${fmt(BUILD_BLOCK)}-nullifier block, first → last${cached ? ` (built ${record.builtAt.slice(0, 10)})` : ''}`,
    cairn: `${fmt(c.first)} → ${fmt(c.last)} (${growth.toFixed(2)}×)`,
    reference: `${fmt(r.first)} → ${fmt(r.last)} (${(r.last / r.first).toFixed(2)}×)`,
    ratio: `${(r.first / c.first).toFixed(2)}× → ${(r.last / c.last).toFixed(2)}×`,
    target: `cairn's growth ≤ 2× ${growth <= 2 ? 'met' : 'NOT met'} (first/last ${k}: ${fmt(cHead)} → ${fmt(cTail)}, ${(cTail / cHead).toFixed(2)}×)`,
  });
}

// ---- 3. sibling paths of the big tree ---------------------------------------------------------

async function siblingPaths(sides: Sides): Promise<void> {
  const block = sides.cairn.latestBlockNumber;
  const view = sides.cairn.at(block);
  const reader = sides.ref.committed();
  const size = view.snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex;
  const leaves = new SeededLeaves(`${SEED}/paths`);
  const indices = (n: number) => Array.from({ length: n }, () => Number(leaves.next() % BigInt(size)));
  // Both sides give the same path (checked on a few indices per round, untimed).
  const check = async (index: number) => {
    const mine = view.getSiblingPath(TreeId.NULLIFIER, index);
    const theirs = (await reader.getSiblingPath(TreeId.NULLIFIER, BigInt(index)))
      .toBufferArray()
      .map(bytesToFr);
    if (mine.length !== theirs.length || mine.some((x, i) => x !== theirs[i]))
      throw new Error(`sibling paths of nullifier leaf ${index} differ between cairn and the reference`);
  };
  const cairnRun = (xs: number[], out: number[]) => {
    for (const index of xs) {
      const started = performance.now();
      view.getSiblingPath(TreeId.NULLIFIER, index);
      out.push((performance.now() - started) * 1000);
    }
  };
  const refRun = async (xs: number[], out: number[]) => {
    for (const index of xs) {
      const started = performance.now();
      await reader.getSiblingPath(TreeId.NULLIFIER, BigInt(index));
      out.push((performance.now() - started) * 1000);
    }
  };
  cairnRun(indices(500), []);
  await refRun(indices(500), []);
  const cairnUs: number[] = [];
  const refUs: number[] = [];
  const roundRatios: number[] = [];
  let checked = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const xs = indices(PATHS_PER_ROUND);
    for (const index of xs.slice(0, 20)) await check(index);
    checked += 20;
    const c: number[] = [];
    const r: number[] = [];
    gc();
    if (round % 2 === 0) {
      cairnRun(xs, c);
      await refRun(xs, r);
    } else {
      await refRun(xs, r);
      cairnRun(xs, c);
    }
    cairnUs.push(...c);
    refUs.push(...r);
    roundRatios.push(median(r) / median(c));
  }
  const c50 = median(cairnUs);
  const r50 = median(refUs);
  report('sibling_path', {
    cairn_p50_us: c50,
    cairn_p99_us: percentile(cairnUs, 0.99),
    ref_p50_us: r50,
    ref_p99_us: percentile(refUs, 0.99),
    ratio: r50 / c50,
    paired_ratio: median(roundRatios),
    tree: 'nullifier',
    tree_leaves: size,
    samples: cairnUs.length,
    paths_checked: checked,
  });
  rows.push({
    figure: `sibling path, random leaf of the ${fmt(size)}-leaf nullifier tree, p50 (p99)`,
    cairn: `${c50.toFixed(1)} µs (${percentile(cairnUs, 0.99).toFixed(1)})`,
    reference: `${r50.toFixed(1)} µs (${percentile(refUs, 0.99).toFixed(1)})`,
    ratio: `${(r50 / c50).toFixed(2)}× (paired ${median(roundRatios).toFixed(2)}×)`,
    target: verdict(r50 / c50, 5),
  });
}

// ---- 4 and 5. blocks into the big trees, rolled back after each round -------------------------

async function blocksIntoBig(
  sides: Sides,
  name: string,
  label: string,
  shape: Parameters<typeof makeBlock>[1],
  target: number,
  perSecond?: { unit: string; count: number },
): Promise<void> {
  const base = sides.cairn.latestBlockNumber;
  const treeLeaves = sides.cairn.at(base).snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex;
  const leaves = new SeededLeaves(`${SEED}/${name}`);
  const times: Paired = { cairn: [], ref: [], cairnFirst: [] };
  let count = 0;
  for (let round = -1; round < ROUNDS; round++) {
    const block = makeBlock(leaves, shape);
    count = blockLeafCount(block);
    const { cairnMs, refMs } = await blockOnBoth(sides, block, round % 2 === 0);
    await sides.cairn.rollbackTo(base);
    await sides.ref.unwindTo(base);
    if (round < 0) continue;
    times.cairn.push(cairnMs);
    times.ref.push(refMs);
    times.cairnFirst.push(round % 2 === 0);
  }
  const s = summarize(times);
  const rates = perSecond
    ? {
        [`cairn_${perSecond.unit}_per_s`]: perSecond.count / (s.cairnMs / 1000),
        [`ref_${perSecond.unit}_per_s`]: perSecond.count / (s.refMs / 1000),
      }
    : {};
  report(name, {
    ...rates,
    cairn_ms: s.cairnMs,
    ref_ms: s.refMs,
    ratio: s.ratio,
    paired_ratio: s.paired,
    ...s.turns,
    block_leaves: count,
    nullifier_tree_leaves: treeLeaves,
    rounds: ROUNDS,
  });
  rows.push({
    figure: label.replace('{size}', fmt(treeLeaves)),
    cairn: perSecond ? `${fmt(perSecond.count / (s.cairnMs / 1000))}/s` : `${fmt(s.cairnMs)} ms`,
    reference: perSecond ? `${fmt(perSecond.count / (s.refMs / 1000))}/s` : `${fmt(s.refMs)} ms`,
    ratio: `${s.ratio.toFixed(2)}× (paired ${s.paired.toFixed(2)}×)`,
    target: verdict(s.ratio, target),
  });
}

// ---- 6. resident memory, each side alone in a child process -----------------------------------

const here = fileURLToPath(new URL('.', import.meta.url));

function memory(side: 'cairn' | 'ref'): Record<string, number> | undefined {
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'ws-native', 'memory-child.ts'),
      side,
      cacheDir,
      String(PATHS_PER_ROUND * 4),
    ],
    { encoding: 'utf8', env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) {
    log(`the ${side} memory probe failed (exit ${child.status}): no memory figure`);
    return undefined;
  }
  return JSON.parse(line) as Record<string, number>;
}

function memoryFigures(): void {
  const c = memory('cairn');
  const r = memory('ref');
  if (!c) return;
  const mb = (bytes: number | undefined) => (bytes === undefined ? Number.NaN : bytes / 2 ** 20);
  report('memory', {
    cairn_rss_mb: mb(c.rss),
    cairn_peak_rss_mb: mb(c.peakRss),
    cairn_anon_mb: mb(c.anon),
    cairn_file_mb: mb(c.file),
    cairn_heap_mb: mb(c.heapUsed),
    ...(r
      ? {
          ref_rss_mb: mb(r.rss),
          ref_peak_rss_mb: mb(r.peakRss),
          ref_anon_mb: mb(r.anon),
          ref_file_mb: mb(r.file),
        }
      : {}),
    nullifier_tree_leaves: c.treeLeaves ?? 0,
  });
  const show = (m: Record<string, number>) =>
    `${fmt(mb(m.rss))} MB (anon ${fmt(mb(m.anon))}, file ${fmt(mb(m.file))}; peak ${fmt(mb(m.peakRss))})`;
  rows.push({
    figure: `resident memory of a process holding only one side's ${fmt(c.treeLeaves ?? 0)}-leaf trees`,
    cairn: show(c),
    reference: r ? show(r) : '—',
    ratio: '—',
    target: '(reported)',
  });
}

// ---- 7. Poseidon2: bench/poseidon2.bench.ts beside this one ------------------------------------

function poseidon2(): void {
  const env = {
    ...process.env,
    BENCH_BBJS_DIR: mod.dir,
    ...(QUICK ? { BENCH_ROUNDS: '3', BENCH_TURN_MS: '200' } : {}),
  };
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'poseidon2.bench.ts')], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const figures = new Map<string, number>();
  for (const line of child.stdout.split('\n')) {
    const m = /^BENCH poseidon2\.(\S+) (?:hashes_per_s)=(\d+)/.exec(line);
    if (m) figures.set(m[1]!, Number(m[2]));
  }
  const path = figures.has('adx_hash2') ? 'adx' : 'portable';
  const cairn = figures.get(`${path}_hash2`);
  if (child.status !== 0 || cairn === undefined) {
    log(`bench/poseidon2.bench.ts failed (exit ${child.status}): no Poseidon2 figures\n${child.stderr}`);
    return;
  }
  const native = figures.get('bbjs_native_hash2');
  const wasm = figures.get('bbjs_wasm_hash2');
  for (const line of child.stderr.split('\n')) if (line.startsWith('# bb.js')) log(line.slice(2));
  report('poseidon2', {
    cairn_hashes_per_s: cairn,
    cairn_path: path,
    ...(native ? { bbjs_native_hashes_per_s: native, ratio_vs_bbjs_native: cairn / native } : {}),
    ...(wasm ? { bbjs_wasm_hashes_per_s: wasm, ratio_vs_bbjs_wasm: cairn / wasm } : {}),
    cairn_batch_pairs_hashes_per_s: figures.get('native_batch_pairs') ?? 0,
  });
  rows.push({
    figure: `Poseidon2 of two fields, one call per hash, hashes/s (cairn's ${path} path against bb.js)`,
    cairn: fmt(cairn),
    reference: `native ${native ? fmt(native) : '—'}; WASM ${wasm ? fmt(wasm) : '—'}`,
    ratio: `${native ? `${(cairn / native).toFixed(2)}×` : '—'} native; ${wasm ? `${(cairn / wasm).toFixed(2)}×` : '—'} WASM`,
    target: '(reported)',
  });
}

// ---- run ----------------------------------------------------------------------------------------

await appendNoteHashes();
const cached = await openCached();
const { sides, record } = cached ?? (await buildBig());
if (cached)
  log(`using the trees built ${record.builtAt} in ${cacheDir} (both sides at block ${record.blocks})`);
reportBuild(record, cached !== undefined);
try {
  await siblingPaths(sides);
  await blocksIntoBig(
    sides,
    'insert_nullifiers',
    '1,024 nullifiers (16 txs) into the {size}-leaf nullifier tree, persisted, nullifiers/s',
    { nullifierTxs: 16 },
    3,
    { unit: 'nullifiers', count: 1024 },
  );
  await blocksIntoBig(
    sides,
    'whole_block',
    'a whole block of 3,137 leaves (1,024 note hashes, 1,024 nullifiers, 1,024 L1→L2, 64 public data, 1 archive), persisted, ms',
    { noteHashTxs: 16, nullifierTxs: 16, l1ToL2Messages: 1024, publicDataWrites: 64 },
    3,
  );
} finally {
  await sides.cairn.close();
  await sides.ref.close();
}
report('roots', { blocks_checked: blocksChecked, all_agree: 1 });
if (process.env.BENCH_WSN_MEMORY !== '0') memoryFigures();
if (process.env.BENCH_WSN_POSEIDON2 !== '0') poseidon2();

const table = [
  "| Figure | cairn | reference native | cairn's speed / the reference's | target |",
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.figure} | ${r.cairn} | ${r.reference} | ${r.ratio} | ${r.target} |`),
];
process.stderr.write(
  `\n${table.join('\n')}\n\nRoots and sizes of all five trees agreed on both sides after each of ${blocksChecked} blocks.\n`,
);
