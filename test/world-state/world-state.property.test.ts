// Property tests: random sequences of forks, tree updates, commits, discards, rollbacks,
// reopenings and historical reads, applied to the LMDB world state and to the in-memory
// model (model.ts); after every step all five trees must read the same in both.
//
// Reproduce a failure with the seed fast-check prints: WS_PROPERTY_SEED=<seed> (and
// WS_PROPERTY_RUNS=<n>); add `path` from the report to replay only the failing case.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Fr } from '../../src/core/field.js';
import { openEnvironment } from '../../src/store/environment.js';
import {
  TREE_HEIGHTS,
  TREE_IDS,
  TreeId,
  type WorldStateOptions,
  type WorldStateReader,
} from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { rootFromPath, testGenesisBlockHash, WorldStateModel } from './model.js';
import { fieldArb, opArb, runSequence } from './ops.js';

const SEED = Number(process.env.WS_PROPERTY_SEED ?? 0x5eed);
const RUNS = process.env.WS_PROPERTY_RUNS === undefined ? undefined : Number(process.env.WS_PROPERTY_RUNS);
const PATH = process.env.WS_PROPERTY_PATH;

const options = (historyBlocks: number): WorldStateOptions => ({
  historyBlocks,
  genesisPublicData: [
    { slot: 5n, value: 55n },
    { slot: 1000n, value: 1n },
    { slot: 500n, value: 2n },
    { slot: 1000n, value: 3n },
  ],
  genesisBlockHash: testGenesisBlockHash,
});

const open = (env: Parameters<typeof WorldState.open>[0], opts: WorldStateOptions) =>
  WorldState.open(env, opts);

describe('world state against the model (property)', () => {
  test('random blocks with full history (historyBlocks 0)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.array(opArb({ commit: 4, rollback: 2 }), { minLength: 5, maxLength: 30 }),
        (seed, ops) => runSequence(open, options(0), ops, seed),
      ),
      { seed: SEED, numRuns: RUNS ?? 30, ...(PATH ? { path: PATH } : {}) },
    );
  });

  test('random blocks with a history window of 3 blocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.array(opArb({ commit: 8, rollback: 2 }), { minLength: 10, maxLength: 30 }),
        (seed, ops) => runSequence(open, options(3), ops, seed),
      ),
      { seed: SEED + 1, numRuns: RUNS ?? 20, ...(PATH ? { path: PATH } : {}) },
    );
  });
});

describe('sibling paths past the last leaf (property)', () => {
  // Any position below a tree's capacity has a path. Past the last leaf it must be the model's
  // (which hashes its plain leaf arrays from scratch), fold an empty leaf to the root, and read the
  // same on a fork with uncommitted leaves as after the commit.
  const offsetArb = fc.oneof(
    fc.integer({ min: 0, max: 200 }), // within the last filled subtrees
    fc.double({ min: 0, max: 1, noNaN: true }), // anywhere up to the capacity
  );
  /** The path at `offset` past the last leaf: checked against the model and the root, returned. */
  function probe(real: WorldStateReader, expected: WorldStateReader, tree: TreeId, offset: number): Fr[] {
    const size = expected.snapshot(tree).nextAvailableLeafIndex;
    const room = 2 ** TREE_HEIGHTS[tree] - size;
    const index = size + Math.min(room - 1, Number.isInteger(offset) ? offset : Math.floor(offset * room));
    const path = real.getSiblingPath(tree, index);
    assert.deepEqual(path, expected.getSiblingPath(tree, index), `tree ${tree} index ${index}`);
    assert.equal(rootFromPath(0n, index, path), expected.snapshot(tree).root, `tree ${tree} index ${index}`);
    return path;
  }

  test('paths past the end equal the model and fold an empty leaf to the root', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fieldArb, { maxLength: 70 }), { minLength: 1, maxLength: 3 }),
        fc.array(fieldArb, { maxLength: 40 }),
        fc.array(fc.tuple(fc.constantFrom(...TREE_IDS), offsetArb), { minLength: 1, maxLength: 12 }),
        async (noteBlocks, messages, probes) => {
          const dir = mkdtempSync(join(tmpdir(), 'cairn-ws-past-end-'));
          const ws = await WorldState.open(openEnvironment(dir, 'world-state'), options(0));
          const model = new WorldStateModel(options(0));
          try {
            for (const [b, notes] of noteBlocks.entries()) {
              const fork = ws.fork();
              const modelFork = model.fork();
              for (const f of [fork, modelFork]) {
                f.appendNoteHashes(notes.slice(0, 64));
                if (b === 0) f.appendLeaves(TreeId.L1_TO_L2_MESSAGE, messages);
                // Keys no other block or genesis has; the same public data slots each block.
                f.insertNullifiers(notes.slice(0, 5).map((_, i) => 10n ** 40n + BigInt(100 * b + i)));
                f.writePublicData(
                  notes.slice(0, 3).map((value, i) => ({ slot: 10n ** 41n + BigInt(i), value })),
                );
              }
              // The last block is probed on its fork, before the commit, too.
              const readers: [WorldStateReader, WorldStateReader][] =
                b === noteBlocks.length - 1 ? [[fork, modelFork]] : [];
              const pending = readers.map(([real, expected]) =>
                probes.map(([tree, offset]) => probe(real, expected, tree, offset)),
              );
              await ws.commit(fork);
              model.commit(modelFork);
              readers.length = 0;
              readers.push([ws.at(ws.latestBlockNumber), model.at(model.latestBlockNumber)]);
              for (const [real, expected] of readers) {
                const committed = probes.map(([tree, offset]) => probe(real, expected, tree, offset));
                // A fork's paths are those of the block it becomes.
                if (pending.length > 0) assert.deepEqual(committed, pending[0]);
              }
            }
          } finally {
            await ws.close();
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { seed: SEED + 2, numRuns: RUNS ?? 25 },
    );
  });
});

describe('world state: forks and the history window (examples)', () => {
  test('a fork made before another commit or a rollback cannot be committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-ws-stale-'));
    const env = openEnvironment(dir, 'world-state');
    try {
      const ws = await WorldState.open(env, options(0));
      const a = ws.fork();
      const b = ws.fork();
      a.appendNoteHashes([1n]);
      b.appendNoteHashes([2n]);
      assert.equal(await ws.commit(a), 1);
      await assert.rejects(ws.commit(b));
      const c = ws.fork();
      await ws.rollbackTo(0);
      await assert.rejects(ws.commit(c));
      assert.equal(ws.latestBlockNumber, 0);
      assert.equal(ws.at(0).snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 0);
      await ws.close();
    } finally {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('reads below the history window name the oldest block; the window survives reopening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-ws-window-'));
    let env = openEnvironment(dir, 'world-state');
    try {
      let ws = await WorldState.open(env, options(3));
      for (let b = 1; b <= 6; b++) {
        const fork = ws.fork();
        fork.appendNoteHashes([BigInt(b)]);
        await ws.commit(fork);
      }
      assert.equal(ws.latestBlockNumber, 6);
      assert.equal(ws.oldestBlockNumber, 4);
      assert.throws(() => ws.at(3), /\b4\b/);
      assert.throws(() => ws.at(0), /\b4\b/);
      assert.equal(ws.at(4).snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 4 * 64);
      await ws.close();
      await env.close();
      env = openEnvironment(dir, 'world-state');
      ws = await WorldState.open(env, options(3));
      assert.equal(ws.latestBlockNumber, 6);
      assert.equal(ws.oldestBlockNumber, 4);
      assert.throws(() => ws.at(3), /\b4\b/);
      assert.deepEqual(ws.at(5).findLeaf(TreeId.NOTE_HASH, 5n), { index: 4 * 64, blockNumber: 5 });
      await ws.close();
    } finally {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
