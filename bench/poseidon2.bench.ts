// Poseidon2 throughput of the native addon on each of its multiplication paths (`portable` C++ and
// `adx` mulx/adcx/adox assembly, where the CPU has BMI2/ADX), optionally against an earlier build
// of the addon and bb.js's WASM Poseidon2, all in this one process: the contenders take turns,
// round after round, and each figure is the median of its rounds, so load from elsewhere on the
// machine falls on all of them alike and only their ratios are meant to be compared.
//
// Figures, one line each (`BENCH poseidon2.<name> <metric>=<n>`):
//   <who>_hash2          hashes of two fields per second, one addon call per hash (bigints in and out)
//   <who>_permute        permutations per second, one addon call each (4 bigints in and out)
//   <who>_merkle_4096    a 4,096-leaf Merkle tree hashed level by level with hashBatch in place
//                        (4,095 two-field hashes per tree): hashes_per_s and trees_per_s
//   native_single, native_batch_pairs, native_batch_fields
//                        the public API (src/core/hash/poseidon2.ts) on the default path
//   ts_single            the pure-TypeScript fallback
// and `poseidon2.ratio` lines (adx and portable hash2 against the others).
//
//   npx tsx bench/poseidon2.bench.ts          (or: npm run bench -- poseidon2)
// Environment:
//   BENCH_ROUNDS (7)            rounds of turns; BENCH_TURN_MS (400) milliseconds per turn
//   BENCH_POSEIDON2_BEFORE_ADDON  path of another build of the addon (e.g. one built from an earlier
//                               commit), measured as `before`
//   BENCH_BBJS_DIR (/tmp/bbjs)  a folder where `npm install @aztec/bb.js@4.1.2` was run, outside the
//                               repository (bb.js is not a dependency of cairn); its WASM backend
//                               is measured as `bbjs_wasm` when it is there, and its native
//                               backend as `bbjs_native` where it loads (glibc >= 2.38: run this
//                               file with a side-loaded Node, see docs/performance.md); each is
//                               skipped with a message otherwise.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FR_MODULUS, toBytes32 } from '../src/core/field.js';
import {
  loadNativePoseidon2,
  type NativePoseidon2,
  type NativePoseidon2Path,
} from '../src/core/hash/native.js';
import {
  poseidon2Backend,
  poseidon2Hash,
  poseidon2HashBatchFields,
  poseidon2HashPairs,
} from '../src/core/hash/poseidon2.js';
import { poseidon2HashTs } from '../src/core/hash/poseidon2-ts.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 400);
const BATCH_PAIRS = 16_384;
const MERKLE_LEAVES = 4_096;

/** Runs `round` (which performs `perRound` operations) for at least `ms`, after a short warm-up. */
function measure(perRound: number, ms: number, round: () => void): number {
  const warmUntil = performance.now() + Math.min(100, ms / 4);
  while (performance.now() < warmUntil) round();
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    round();
    ops += perRound;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return ops / (elapsed / 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function report(name: string, metrics: Record<string, number>): void {
  const fields = Object.entries(metrics).map(([k, v]) => `${k}=${v >= 100 ? Math.round(v) : v.toFixed(3)}`);
  console.log(`BENCH poseidon2.${name} ${fields.join(' ')}`);
}

// Inputs spread over the field, chained so that nothing can be hoisted out of the loops.
const Y = 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn;
let x = FR_MODULUS - 12345n;

/** A turn-taking contender: one `run()` measures it once (operations per second). */
interface Contender {
  name: string;
  /** Operations per measured op (a Merkle tree counts 4,095 hashes). */
  metric: 'hashes_per_s' | 'permutations_per_s';
  run: () => number;
  samples: number[];
  /** For Merkle trees: hashes per tree, to also report trees per second. */
  hashesPerTree?: number;
}

const contenders: Contender[] = [];

function addAddon(who: string, addon: NativePoseidon2, path?: NativePoseidon2Path): void {
  const select = (): void => {
    if (path !== undefined) addon.setPath?.(path);
  };
  contenders.push({
    name: `${who}_hash2`,
    metric: 'hashes_per_s',
    samples: [],
    run: () => {
      select();
      return measure(500, TURN_MS, () => {
        for (let i = 0; i < 500; i++) x = addon.hash([x, Y]);
      });
    },
  });
  let state = [x, Y, 3n, 4n];
  contenders.push({
    name: `${who}_permute`,
    metric: 'permutations_per_s',
    samples: [],
    run: () => {
      select();
      return measure(500, TURN_MS, () => {
        for (let i = 0; i < 500; i++) state = addon.permute(state);
      });
    },
  });
  const leaves = new Uint8Array(MERKLE_LEAVES * 32);
  for (let i = 0; i < MERKLE_LEAVES; i++) leaves.set(toBytes32((Y * BigInt(i + 1)) % FR_MODULUS), i * 32);
  const tree = new Uint8Array(MERKLE_LEAVES * 32);
  contenders.push({
    name: `${who}_merkle_4096`,
    metric: 'hashes_per_s',
    samples: [],
    hashesPerTree: MERKLE_LEAVES - 1,
    run: () => {
      select();
      return measure(MERKLE_LEAVES - 1, TURN_MS, () => {
        tree.set(leaves);
        // Each level is hashed in place: hash i of the level is written over leaf pair i's start.
        for (let n = MERKLE_LEAVES; n > 1; n >>= 1)
          addon.hashBatch(tree.subarray(0, n * 32), 2, tree.subarray(0, n * 16));
      });
    },
  });
}

// bb.js, loaded from outside the repository when it is there.
interface BbApi {
  poseidon2Hash(command: { inputs: Uint8Array[] }): { hash: Uint8Array };
  poseidon2Permutation(command: { inputs: Uint8Array[] }): { outputs: Uint8Array[] };
}
interface BbModule {
  BarretenbergSync: {
    initSingleton(options: { backend: string }): Promise<BbApi>;
    /** A fresh instance (the singleton is the WASM one). */
    new: (options: { backend: string }) => Promise<BbApi>;
  };
  BackendType: { Wasm: string; NativeSharedMemory: string };
}

/** Adds bb.js's Poseidon2 on each backend that loads here: WASM, and native (glibc >= 2.38). */
async function addBbjs(): Promise<void> {
  const dir = process.env.BENCH_BBJS_DIR ?? '/tmp/bbjs';
  const entry = join(dir, 'node_modules', '@aztec', 'bb.js', 'dest', 'node', 'index.js');
  if (!existsSync(entry)) {
    console.error(
      `# bb.js not found at ${entry}: skipping bbjs (to include it: mkdir ${dir} && cd ${dir} && npm init -y && npm install @aztec/bb.js@4.1.2)`,
    );
    return;
  }
  const bb = (await import(pathToFileURL(entry).href)) as BbModule;
  const sync = bb.BarretenbergSync;
  const backends: [string, () => Promise<BbApi>][] = [
    ['wasm', () => sync.initSingleton({ backend: bb.BackendType.Wasm })],
    // Its own instance: the native backend runs bb.js's `bb` binary beside this process and talks
    // to it through shared memory. It needs glibc >= 2.38 (a side-loaded one will do: see
    // docs/performance.md, "Poseidon2").
    ['native', () => sync.new({ backend: bb.BackendType.NativeSharedMemory })],
  ];
  for (const [name, open] of backends) {
    let api: BbApi;
    try {
      api = await open();
    } catch (err) {
      console.error(
        `# bb.js ${name} backend did not load (${String(err).split('\n')[0]}): skipping bbjs_${name}`,
      );
      continue;
    }
    const y = toBytes32(Y);
    const check = api.poseidon2Hash({ inputs: [toBytes32(1n), toBytes32(2n)] }).hash;
    if (Buffer.from(check).toString('hex') !== poseidon2Hash([1n, 2n]).toString(16).padStart(64, '0')) {
      throw new Error(`bb.js ${name} poseidon2Hash([1, 2]) differs from cairn: not comparing`);
    }
    console.error(`# bb.js ${dir} loaded (${name} backend)`);
    let h: Uint8Array = toBytes32(x);
    contenders.push({
      name: `bbjs_${name}_hash2`,
      metric: 'hashes_per_s',
      samples: [],
      run: () =>
        measure(200, TURN_MS, () => {
          for (let i = 0; i < 200; i++) h = api.poseidon2Hash({ inputs: [h, y] }).hash;
        }),
    });
    let state = [toBytes32(x), y, toBytes32(3n), toBytes32(4n)];
    contenders.push({
      name: `bbjs_${name}_permute`,
      metric: 'permutations_per_s',
      samples: [],
      run: () =>
        measure(200, TURN_MS, () => {
          for (let i = 0; i < 200; i++) state = api.poseidon2Permutation({ inputs: state }).outputs;
        }),
    });
  }
}

const backend = poseidon2Backend();
const loaded = loadNativePoseidon2();
if (!loaded.ok || backend.kind !== 'native') {
  console.error(
    `# native addon not in use (${loaded.ok ? backend.reason : loaded.error}); skipping the native figures`,
  );
} else {
  const addon = loaded.addon;
  const initialPath = addon.path?.();
  const before = process.env.BENCH_POSEIDON2_BEFORE_ADDON;
  if (before !== undefined && before !== '') {
    addAddon('before', createRequire(import.meta.url)(before) as NativePoseidon2);
    console.error(`# before: ${before}`);
  }
  const paths = addon.supportedPaths?.() ?? [];
  if (!paths.includes('adx')) console.error('# this CPU lacks BMI2/ADX: no adx figures');
  for (const path of paths) addAddon(path, addon, path);
  await addBbjs();

  console.error(
    `# ${contenders.length} contenders, ${ROUNDS} rounds of ${TURN_MS} ms turns (order rotated each round)`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(k + round) % contenders.length]!;
      c.samples.push(c.run());
    }
  }
  if (initialPath !== undefined) addon.setPath?.(initialPath);
  const medians = new Map<string, number>();
  for (const c of contenders) {
    const m = median(c.samples);
    medians.set(c.name, m);
    const spread = `${Math.round(Math.min(...c.samples))}-${Math.round(Math.max(...c.samples))}`;
    console.error(`# ${c.name}: median ${Math.round(m)}/s over ${c.samples.length} rounds (${spread})`);
    report(c.name, c.hashesPerTree ? { [c.metric]: m, trees_per_s: m / c.hashesPerTree } : { [c.metric]: m });
  }
  for (const fast of ['adx', 'portable']) {
    const mine = medians.get(`${fast}_hash2`);
    if (mine === undefined) continue;
    const ratios: Record<string, number> = {};
    for (const other of ['before', 'portable', 'bbjs_wasm', 'bbjs_native']) {
      const theirs = medians.get(`${other}_hash2`);
      if (other !== fast && theirs !== undefined) ratios[`${fast}_hash2_vs_${other}`] = mine / theirs;
    }
    if (Object.keys(ratios).length > 0) report(`ratio.${fast}`, ratios);
  }

  // The public API on the default path (one measurement each, after the turns).
  report('native_single', {
    hashes_per_s: measure(1000, 2000, () => {
      for (let i = 0; i < 1000; i++) x = poseidon2Hash([x, Y]);
    }),
  });
  const pairs = new Uint8Array(BATCH_PAIRS * 64);
  const fields: bigint[] = [];
  for (let i = 0; i < BATCH_PAIRS; i++) {
    const l = (x * BigInt(i + 1)) % FR_MODULUS;
    const r = (Y + BigInt(i)) % FR_MODULUS;
    pairs.set(toBytes32(l), i * 64);
    pairs.set(toBytes32(r), i * 64 + 32);
    fields.push(l, r);
  }
  const out = new Uint8Array(BATCH_PAIRS * 32);
  report('native_batch_pairs', {
    hashes_per_s: measure(BATCH_PAIRS, 2000, () => {
      poseidon2HashPairs(pairs, out);
    }),
  });
  report('native_batch_fields', {
    hashes_per_s: measure(BATCH_PAIRS, 2000, () => {
      poseidon2HashBatchFields(fields, 2);
    }),
  });
}

report('ts_single', {
  hashes_per_s: measure(100, 2000, () => {
    for (let i = 0; i < 100; i++) x = poseidon2HashTs([x, Y]);
  }),
});
