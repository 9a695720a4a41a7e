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
import { openEnvironment } from '../../src/store/environment.js';
import { TreeId, type WorldStateOptions } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { testGenesisBlockHash } from './model.js';
import { opArb, runSequence } from './ops.js';

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
