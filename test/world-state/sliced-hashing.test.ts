// Hashing a fork's changes in slices (hashPendingInSlices, used when sealing large blocks) gives
// exactly the roots of the independent model, for any slice size, also when a read lands in a
// pause between slices.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { openEnvironment } from '../../src/store/environment.js';
import {
  TREE_IDS,
  TreeId,
  type WorldStateFork,
  type WorldStateOptions,
} from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { WorldStateModel } from './model.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-sliced-'));
const options: WorldStateOptions = { historyBlocks: 0, genesisBlockHash: () => 12345n };
let stores = 0;

/** One tx's worth of changes. */
const txChanges = fc.record({
  noteHashes: fc.array(fc.bigInt({ min: 1n, max: 2n ** 200n }), { maxLength: 5 }),
  // Above the genesis prefill of the nullifier tree.
  nullifiers: fc.uniqueArray(fc.bigInt({ min: 2n ** 64n, max: 2n ** 200n }), { maxLength: 4 }),
  writes: fc.array(
    fc.record({ slot: fc.bigInt({ min: 1n, max: 40n }), value: fc.bigInt({ min: 0n, max: 99n }) }),
    {
      maxLength: 3,
    },
  ),
  messages: fc.array(fc.bigInt({ min: 1n, max: 2n ** 100n }), { maxLength: 3 }),
});

/** Applies the changes; a nullifier the fork already has is skipped (the same on both sides). */
interface TxChanges {
  noteHashes: bigint[];
  nullifiers: bigint[];
  writes: { slot: bigint; value: bigint }[];
  messages: bigint[];
}

function apply(fork: WorldStateFork, txs: TxChanges[], seen: Set<bigint>) {
  for (const tx of txs) {
    fork.appendNoteHashes(tx.noteHashes);
    const fresh = tx.nullifiers.filter((n) => !seen.has(n));
    for (const n of fresh) seen.add(n);
    fork.insertNullifiers(fresh);
    fork.writePublicData(tx.writes);
    fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, tx.messages);
  }
}

describe('world state: hashing in slices', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('roots equal the model for any slice size, with reads in the pauses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(txChanges, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 5 }),
        async (txs, maxHashes, readAtPause) => {
          const ws = await WorldState.open(openEnvironment(dir, `ws-${stores++}`), options);
          try {
            const model = new WorldStateModel(options);
            const fork = ws.fork();
            const modelFork = model.fork();
            apply(fork, txs, new Set());
            apply(modelFork, txs, new Set());
            let pauses = 0;
            await fork.hashPendingInSlices(
              async () => {
                // A read in a pause finishes the hashing under way first: it sees the whole change.
                if (++pauses === readAtPause)
                  for (const tree of TREE_IDS)
                    assert.deepEqual(fork.snapshot(tree), modelFork.snapshot(tree));
              },
              0,
              maxHashes,
            );
            for (const tree of TREE_IDS) assert.deepEqual(fork.snapshot(tree), modelFork.snapshot(tree));
          } finally {
            await ws.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test('a big block is hashed in many slices, and the slices are small', async () => {
    const ws = await WorldState.open(openEnvironment(dir, `ws-${stores++}`), options);
    try {
      const fork = ws.fork();
      const leaves = (i: number) => Array.from({ length: 64 }, (_, j) => BigInt(i * 64 + j + 1));
      for (let i = 0; i < 40; i++) fork.appendNoteHashes(leaves(i));
      let pauses = 0;
      await fork.hashPendingInSlices(
        async () => {
          pauses++;
        },
        0,
        64,
      );
      // 40 txs of 64 note hashes: 1,280 pairs at the first level alone, in slices of 64.
      assert.ok(pauses >= 20, `${pauses} pauses`);
      const whole = ws.fork();
      for (let i = 0; i < 40; i++) whole.appendNoteHashes(leaves(i));
      assert.deepEqual(fork.snapshot(TreeId.NOTE_HASH), whole.snapshot(TreeId.NOTE_HASH));
    } finally {
      await ws.close();
    }
  });
});
