// WorldState.reset (clears every tree and writes genesis again, for a forced rollback that
// rebuilds) and WorldState.backup (a consistent copy that opens as the same world state).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEnvironment, type StoreEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TREE_IDS, TreeId, type TreeSnapshot, type WorldStateOptions } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-ws-reset-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `ws${n++}`);

const GENESIS_DATA = [{ slot: 0x5107n, value: 0x1000n }];

function options(historyBlocks = 0): WorldStateOptions {
  return { historyBlocks, genesisBlockHash: genesisBlockHashOf, genesisPublicData: GENESIS_DATA };
}

const open = (dir: string, historyBlocks = 0): Promise<WorldState> =>
  WorldState.open(openEnvironment(dir, 'world-state'), options(historyBlocks));

/** Every tree's snapshot at `block`. */
const snapshots = (ws: WorldState, block: number): TreeSnapshot[] =>
  TREE_IDS.map((tree) => ws.at(block).snapshot(tree));

/** Commits block `b`: a note hash, a nullifier, a public-data write and an archive leaf, all keyed by b. */
async function commitBlock(ws: WorldState, b: number): Promise<void> {
  const fork = ws.fork();
  fork.appendNoteHashes([BigInt(0x100 + b)]);
  fork.insertNullifiers([BigInt(0x10_000 + b)]);
  fork.writePublicData([
    { slot: 0x777n, value: BigInt(b) },
    { slot: 0x5107n, value: BigInt(0x2000 + b) },
  ]);
  fork.appendLeaves(TreeId.ARCHIVE, [BigInt(0xa00 + b)]);
  await ws.commit(fork);
}

describe('WorldState.reset', () => {
  test('after committed blocks, reset brings the world state back to a fresh genesis', async () => {
    const fresh = await open(freshDir());
    const genesis = snapshots(fresh, 0);
    await fresh.close();

    const ws = await open(freshDir());
    for (let b = 1; b <= 4; b++) await commitBlock(ws, b);
    assert.equal(ws.latestBlockNumber, 4);
    assert.notDeepEqual(snapshots(ws, 4), genesis);

    await ws.reset();
    assert.equal(ws.latestBlockNumber, 0);
    assert.equal(ws.oldestBlockNumber, 0);
    assert.deepEqual(snapshots(ws, 0), genesis);
    assert.throws(() => ws.at(1), /not in the world state yet/);
    // Nothing of the removed blocks can be found any more; genesis data is there again.
    const view = ws.at(0);
    assert.equal(view.findLeaf(TreeId.NULLIFIER, 0x10_002n), undefined);
    assert.equal(view.findLeaf(TreeId.NOTE_HASH, 0x101n), undefined);
    assert.equal(view.findLeaf(TreeId.ARCHIVE, 0xa03n), undefined);
    assert.equal(view.findLeaf(TreeId.PUBLIC_DATA, 0x777n), undefined);
    assert.equal(view.findLowLeaf(TreeId.NULLIFIER, 0x10_003n).alreadyPresent, false);
    const slot = view.findLeaf(TreeId.PUBLIC_DATA, 0x5107n)!;
    assert.equal(slot.blockNumber, 0);
    assert.equal(view.getLeafPreimage(TreeId.PUBLIC_DATA, slot.index)!.value, 0x1000n);
    await ws.close();
  });

  test('forks made before a reset can no longer be committed, even one based on block 0', async () => {
    const ws = await open(freshDir());
    const atGenesis = ws.fork();
    atGenesis.appendNoteHashes([1n]);
    await ws.reset();
    await assert.rejects(ws.commit(atGenesis), /stale/);

    await commitBlock(ws, 1);
    await commitBlock(ws, 2);
    const atTwo = ws.fork();
    atTwo.appendNoteHashes([2n]);
    await ws.reset();
    await assert.rejects(ws.commit(atTwo), /stale/);
    assert.equal(ws.latestBlockNumber, 0);
    await ws.close();
  });

  test('the chain grows again after a reset, to the same roots as before', async () => {
    const ws = await open(freshDir());
    const before: TreeSnapshot[][] = [snapshots(ws, 0)];
    for (let b = 1; b <= 3; b++) {
      await commitBlock(ws, b);
      before.push(snapshots(ws, b));
    }
    const leaf = ws.at(3).findLeaf(TreeId.NULLIFIER, 0x10_002n);
    assert.equal(leaf?.blockNumber, 2);
    await ws.reset();
    assert.equal(ws.at(0).findLeaf(TreeId.NULLIFIER, 0x10_002n), undefined);
    for (let b = 1; b <= 3; b++) {
      await commitBlock(ws, b);
      assert.deepEqual(snapshots(ws, b), before[b], `block ${b}`);
    }
    assert.equal(ws.latestBlockNumber, 3);
    assert.deepEqual(ws.at(3).findLeaf(TreeId.NULLIFIER, 0x10_002n), leaf);
    // A rollback after the reset still works on the rebuilt blocks.
    await ws.rollbackTo(1);
    assert.deepEqual(snapshots(ws, 1), before[1]);
    await ws.close();
  });

  test('after a reset, a different block reads exactly as on a fresh world state', async () => {
    /** Commits a block unlike commitBlock's: another note hash and public-data slot, no nullifier. */
    const commitOther = async (ws: WorldState) => {
      const fork = ws.fork();
      fork.appendNoteHashes([0xbeefn]);
      fork.writePublicData([{ slot: 0x888n, value: 1n }]);
      fork.appendLeaves(TreeId.ARCHIVE, [0xfeedn]);
      await ws.commit(fork);
    };
    const fresh = await open(freshDir());
    await commitOther(fresh);
    const ws = await open(freshDir());
    for (let b = 1; b <= 3; b++) await commitBlock(ws, b);
    await ws.reset();
    await commitOther(ws);

    assert.deepEqual(snapshots(ws, 1), snapshots(fresh, 1));
    for (const tree of TREE_IDS) {
      const size = fresh.at(1).snapshot(tree).nextAvailableLeafIndex;
      // Every leaf the old blocks 1-3 wrote lies below size + 256.
      for (let index = 0; index < size + 256; index++) {
        const leaf = ws.at(1).getLeafValue(tree, index);
        assert.equal(leaf, fresh.at(1).getLeafValue(tree, index), `tree ${tree} leaf ${index}`);
        if (index < size && index % 16 === 0) {
          assert.deepEqual(ws.at(1).getSiblingPath(tree, index), fresh.at(1).getSiblingPath(tree, index));
        }
      }
    }
    for (const [tree, value] of [
      [TreeId.NOTE_HASH, 0x102n],
      [TreeId.NULLIFIER, 0x10_001n],
      [TreeId.PUBLIC_DATA, 0x777n],
      [TreeId.ARCHIVE, 0xa01n],
    ] as const) {
      assert.equal(ws.at(1).findLeaf(tree, value), undefined);
    }
    await fresh.close();
    await ws.close();
  });

  test('with a history window, reset makes genesis readable again and the window starts afresh', async () => {
    const ws = await open(freshDir(), 2);
    for (let b = 1; b <= 5; b++) await commitBlock(ws, b);
    assert.equal(ws.oldestBlockNumber, 4);
    await ws.reset();
    assert.equal(ws.oldestBlockNumber, 0);
    assert.equal(ws.latestBlockNumber, 0);
    assert.equal(ws.at(0).snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 0);
    await commitBlock(ws, 1);
    assert.equal(ws.oldestBlockNumber, 0);
    ws.at(0);
    await commitBlock(ws, 2);
    assert.equal(ws.oldestBlockNumber, 1);
    await ws.close();
  });

  test('reset leaves nothing of the old blocks in the store: it holds what a fresh one holds', async () => {
    /** Entries per sub-database of a world-state environment. */
    const counts = (env: StoreEnvironment) => ({
      ...Object.fromEntries(
        ['ws-versions', 'ws-leaves', 'ws-journal', 'ws-blocks'].map((name) => [
          name,
          env.binaryDatabase(name).getKeysCount(),
        ]),
      ),
      meta: Array.from(env.database<number>('ws-meta').getRange({})),
    });
    const freshEnv = openEnvironment(freshDir(), 'world-state');
    const fresh = await WorldState.open(freshEnv, options(2));
    const env = openEnvironment(freshDir(), 'world-state');
    const ws = await WorldState.open(env, options(2));
    for (let b = 1; b <= 5; b++) await commitBlock(ws, b);
    assert.notDeepEqual(counts(env), counts(freshEnv));
    await ws.reset();
    assert.deepEqual(counts(env), counts(freshEnv));
    await fresh.close();
    await ws.close();
  });

  test('reopening the environment after a reset gives the same state', async () => {
    const dir = freshDir();
    const ws = await open(dir, 3);
    for (let b = 1; b <= 5; b++) await commitBlock(ws, b);
    await ws.reset();
    const genesis = snapshots(ws, 0);
    await ws.close();

    const again = await open(dir, 3);
    assert.equal(again.latestBlockNumber, 0);
    assert.equal(again.oldestBlockNumber, 0);
    assert.deepEqual(snapshots(again, 0), genesis);
    assert.throws(() => again.at(1), /not in the world state yet/);
    assert.equal(again.at(0).findLeaf(TreeId.NULLIFIER, 0x10_001n), undefined);
    await commitBlock(again, 1);
    assert.equal(again.latestBlockNumber, 1);
    await again.close();
  });
});

describe('WorldState.backup', () => {
  test('the copy opens as a world state with the same latest block and roots', async () => {
    const ws = await open(freshDir());
    for (let b = 1; b <= 3; b++) await commitBlock(ws, b);
    const copyDir = freshDir();
    const file = await ws.backup(join(copyDir, 'world-state'));
    assert.equal(file, join(copyDir, 'world-state', 'data.mdb'));
    // The original goes on after the copy was taken; the copy does not see it.
    await commitBlock(ws, 4);

    const copy = await open(copyDir);
    assert.equal(copy.latestBlockNumber, 3);
    for (let b = 0; b <= 3; b++) assert.deepEqual(snapshots(copy, b), snapshots(ws, b), `block ${b}`);
    assert.throws(() => copy.at(4), /not in the world state yet/);
    assert.deepEqual(
      copy.at(3).findLeaf(TreeId.NULLIFIER, 0x10_003n),
      ws.at(3).findLeaf(TreeId.NULLIFIER, 0x10_003n),
    );
    // The copy is a working world state: it grows to the same block 4 as the original.
    await commitBlock(copy, 4);
    assert.deepEqual(snapshots(copy, 4), snapshots(ws, 4));
    await copy.close();
    await ws.close();
  });
});
