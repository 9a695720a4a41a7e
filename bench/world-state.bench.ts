// World-state throughput and latency. Prints one line per figure:
//   BENCH world_state.<name> <metric>=<value> ...
//   node --import tsx bench/world-state.bench.ts
// The 1M-leaf nullifier tree takes about two minutes to build; it is kept in the temp
// directory (BENCH_WS_CACHE overrides where) and reused by later runs. Measurements that
// write are rolled back, so the cached tree stays as built.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fr } from '../src/core/field.js';
import { openEnvironment } from '../src/store/environment.js';
import { genesisBlockHashOf } from '../src/world-state/genesis.js';
import { TreeId } from '../src/world-state/types.js';
import { WorldState } from '../src/world-state/world-state.js';

const TREE_LEAVES = 1 << 20;
const BUILD_BLOCK_TXS = 256;
const HISTORY_BLOCKS = 110;
const ROUNDS = 7;

const random = (): Fr => BigInt(`0x${randomBytes(31).toString('hex')}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
const log = (line: string) => process.stderr.write(`${line}\n`);

async function open(dir: string): Promise<WorldState> {
  return WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisBlockHash: genesisBlockHashOf,
  });
}

async function appendNoteHashes(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-append-'));
  try {
    const ws = await open(dir);
    await new Promise((r) => setTimeout(r, 200)); // let the hashing worker start
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS + 1; round++) {
      const leaves = Array.from({ length: 4096 }, random);
      const started = performance.now();
      const fork = ws.fork();
      for (let tx = 0; tx < 64; tx++) fork.appendNoteHashes(leaves.slice(tx * 64, tx * 64 + 64));
      await ws.commit(fork);
      if (round > 0) rates.push(4096 / ((performance.now() - started) / 1000));
    }
    await ws.close();
    console.log(
      `BENCH world_state.append_note_hashes leaves_per_s=${Math.round(median(rates))} leaves=4096 tree_height=42 rounds=${ROUNDS}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A world state whose nullifier tree holds 1M leaves, plus 100 later small blocks. */
async function bigTree(): Promise<WorldState> {
  const dir = process.env.BENCH_WS_CACHE ?? join(tmpdir(), 'cairn-bench-ws-1m-v2');
  const done = join(dir, 'complete');
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`building a ${TREE_LEAVES}-leaf nullifier tree in ${dir} (kept for later runs)…`);
    const ws = await open(dir);
    const started = performance.now();
    for (let inserted = 0; inserted < TREE_LEAVES; inserted += BUILD_BLOCK_TXS * 64) {
      const fork = ws.fork();
      for (let tx = 0; tx < BUILD_BLOCK_TXS; tx++) fork.insertNullifiers(Array.from({ length: 64 }, random));
      await ws.commit(fork);
      log(
        `  ${inserted + BUILD_BLOCK_TXS * 64} leaves, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    for (let i = 0; i < HISTORY_BLOCKS; i++) {
      const fork = ws.fork();
      fork.insertNullifiers(Array.from({ length: 64 }, random));
      fork.appendNoteHashes([random()]);
      await ws.commit(fork);
    }
    await ws.close();
    writeFileSync(done, new Date().toISOString());
  }
  return open(dir);
}

async function insertNullifiers(ws: WorldState): Promise<void> {
  const base = ws.latestBlockNumber;
  const leaves = ws.at(base).snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex;
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const txs = Array.from({ length: 16 }, () => Array.from({ length: 64 }, random));
    const started = performance.now();
    const fork = ws.fork();
    for (const tx of txs) fork.insertNullifiers(tx);
    await ws.commit(fork);
    rates.push(1024 / ((performance.now() - started) / 1000));
    await ws.rollbackTo(base);
  }
  console.log(
    `BENCH world_state.insert_nullifiers nullifiers_per_s=${Math.round(median(rates))} nullifiers=1024 txs=16 tree_leaves=${leaves} rounds=${ROUNDS}`,
  );
}

function siblingPaths(ws: WorldState, back: number): void {
  const block = ws.latestBlockNumber - back;
  const view = ws.at(block);
  const size = view.snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex;
  const samples: number[] = [];
  for (let i = 0; i < 22_000; i++) {
    const index = Math.floor(Math.random() * size);
    const started = performance.now();
    view.getSiblingPath(TreeId.NULLIFIER, index);
    if (i >= 2000) samples.push((performance.now() - started) * 1000);
  }
  const name = back === 0 ? 'sibling_path_latest' : `sibling_path_${back}_back`;
  console.log(
    `BENCH world_state.${name} p50_us=${median(samples).toFixed(1)} p99_us=${percentile(samples, 0.99).toFixed(1)} tree=nullifier tree_leaves=${size} samples=${samples.length}`,
  );
}

await appendNoteHashes();
const ws = await bigTree();
siblingPaths(ws, 0);
siblingPaths(ws, 100);
await insertNullifiers(ws);
await ws.close();
