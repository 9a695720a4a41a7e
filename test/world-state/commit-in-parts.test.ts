// A large block is committed in several LMDB writes with pauses between them. Readers must see
// none of it until the last write, and a commit that fails or never finishes (the process stops
// between parts) must leave nothing that a later, different block could be confused with: the
// trees afterwards equal those of a store that never saw the abandoned block.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Fr } from '../../src/core/field.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId, type WorldStateReader } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-ws-parts-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const options = { historyBlocks: 0, genesisBlockHash: genesisBlockHashOf };
const openAt = (dir: string) => WorldState.open(openEnvironment(dir, 'world-state'), options);

/** Enough note hashes (each a leaf and a value-index entry) for several parts. */
const LARGE = 30_000;
const values = (count: number, base: bigint): Fr[] =>
  Array.from({ length: count }, (_, i) => base + BigInt(i));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The same trees: roots, sizes, and leaves and sibling paths at indexes in and past the blocks. */
function assertSameTrees(a: WorldStateReader, b: WorldStateReader): void {
  for (const tree of [TreeId.NOTE_HASH, TreeId.NULLIFIER, TreeId.PUBLIC_DATA, TreeId.ARCHIVE]) {
    assert.deepEqual(a.snapshot(tree), b.snapshot(tree), `tree ${tree}`);
  }
  for (const index of [0, 63, 64, 1000, 20_000, LARGE - 1]) {
    assert.equal(
      a.getLeafValue(TreeId.NOTE_HASH, index),
      b.getLeafValue(TreeId.NOTE_HASH, index),
      `leaf ${index}`,
    );
    assert.deepEqual(a.getSiblingPath(TreeId.NOTE_HASH, index), b.getSiblingPath(TreeId.NOTE_HASH, index));
  }
}

/** Block 1 with `small` note hashes, in a store that never saw anything else. */
async function reference(small: Fr[]): Promise<WorldState> {
  const ws = await openAt(join(root, `ref${n++}`));
  const fork = ws.fork();
  fork.appendLeaves(TreeId.NOTE_HASH, small);
  await ws.commit(fork);
  return ws;
}

describe('a block committed in parts', () => {
  test('readers see none of it until its last part, then all of it', async () => {
    const ws = await openAt(join(root, `ws${n++}`));
    const fork = ws.fork();
    const large = values(LARGE, 1_000_000n);
    fork.appendLeaves(TreeId.NOTE_HASH, large);
    const expected = fork.snapshot(TreeId.NOTE_HASH);
    let pauses = 0;
    const block = await ws.commit(fork, async () => {
      pauses++;
      assert.equal(ws.latestBlockNumber, 0);
      const before = ws.at(0);
      assert.equal(before.snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 0);
      assert.equal(before.findLeaf(TreeId.NOTE_HASH, large[0]!), undefined);
      await nextTurn();
    });
    assert.equal(block, 1);
    assert.ok(pauses >= 2, `written in ${pauses + 1} parts`);
    const after = ws.at(1);
    assert.deepEqual(after.snapshot(TreeId.NOTE_HASH), expected);
    assert.deepEqual(after.findLeaf(TreeId.NOTE_HASH, large[LARGE - 1]!), {
      index: LARGE - 1,
      blockNumber: 1,
    });
    await ws.close();
  });

  test('a commit that fails between parts removes what it wrote', async () => {
    const ws = await openAt(join(root, `ws${n++}`));
    const fork = ws.fork();
    const large = values(LARGE, 2_000_000n);
    fork.appendLeaves(TreeId.NOTE_HASH, large);
    let pauses = 0;
    await assert.rejects(
      ws.commit(fork, async () => {
        if (++pauses === 2) throw new Error('disk full');
      }),
      /disk full/,
    );
    assert.equal(ws.latestBlockNumber, 0);
    // Another block 1, smaller: nothing of the abandoned one shows through.
    const small = values(100, 3_000_000n);
    const other = ws.fork();
    other.appendLeaves(TreeId.NOTE_HASH, small);
    assert.equal(await ws.commit(other), 1);
    assert.equal(ws.at(1).findLeaf(TreeId.NOTE_HASH, large[40]!), undefined);
    const ref = await reference(small);
    assertSameTrees(ws.at(1), ref.at(1));
    await ws.close();
    await ref.close();
  });

  test('parts left by a process that stopped mid-commit are removed when the store opens', async () => {
    const dir = join(root, `ws${n++}`);
    const stopped = await openAt(dir);
    const fork = stopped.fork();
    const large = values(LARGE, 4_000_000n);
    fork.appendLeaves(TreeId.NOTE_HASH, large);
    let reachedSecondPause!: () => void;
    const atSecondPause = new Promise<void>((resolve) => {
      reachedSecondPause = resolve;
    });
    let pauses = 0;
    // The process "stops" at its second pause: the commit never goes on.
    void stopped.commit(fork, () => {
      if (++pauses === 2) reachedSecondPause();
      return pauses >= 2 ? new Promise<void>(() => {}) : nextTurn();
    });
    await atSecondPause;

    const reopened = await openAt(dir); // as a restart does
    assert.equal(reopened.latestBlockNumber, 0);
    const small = values(100, 5_000_000n);
    const other = reopened.fork();
    other.appendLeaves(TreeId.NOTE_HASH, small);
    assert.equal(await reopened.commit(other), 1);
    assert.equal(reopened.at(1).findLeaf(TreeId.NOTE_HASH, large[40]!), undefined);
    const ref = await reference(small);
    assertSameTrees(reopened.at(1), ref.at(1));
    await reopened.close();
    await ref.close();
  });
});
