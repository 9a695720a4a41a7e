import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { NodeError } from '../../src/core/errors.js';
import type { Fr } from '../../src/core/field.js';
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId, type WorldStateReader } from '../../src/world-state/types.js';
import { DuplicateLeafError } from '../../src/world-state/view.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { rootFromPath } from './model.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-ws-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

async function fresh(historyBlocks = 0): Promise<WorldState> {
  return WorldState.open(openEnvironment(join(root, `ws${n++}`), 'world-state'), {
    historyBlocks,
    genesisBlockHash: genesisBlockHashOf,
  });
}

function assertPathProves(view: WorldStateReader, tree: TreeId, index: number): void {
  const leaf = view.getLeafValue(tree, index)!;
  assert.equal(rootFromPath(leaf, index, view.getSiblingPath(tree, index)), view.snapshot(tree).root);
}

describe('world state', () => {
  test('a fork is invisible until committed; a discarded fork changes nothing', async () => {
    const ws = await fresh();
    const before = ws.at(0).snapshot(TreeId.NOTE_HASH);
    const fork = ws.fork();
    fork.appendNoteHashes([11n, 12n]);
    assert.equal(fork.snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 64);
    assert.deepEqual(ws.at(0).snapshot(TreeId.NOTE_HASH), before);
    assert.equal(ws.latestBlockNumber, 0);
    const discarded = ws.fork();
    discarded.appendNoteHashes([99n]);
    assert.equal(await ws.commit(fork), 1);
    assert.equal(ws.at(1).snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 64);
    assert.deepEqual(ws.at(1).findLeaf(TreeId.NOTE_HASH, 12n), { index: 1, blockNumber: 1 });
    assert.equal(ws.at(1).findLeaf(TreeId.NOTE_HASH, 99n), undefined);
    await assert.rejects(ws.commit(discarded), /stale/);
    await ws.close();
  });

  test('reads at an older block see the trees as they were, with valid witnesses', async () => {
    const ws = await fresh();
    const f1 = ws.fork();
    f1.insertNullifiers([1000n, 3000n]);
    f1.writePublicData([{ slot: 500n, value: 7n }]);
    await ws.commit(f1);
    const f2 = ws.fork();
    f2.insertNullifiers([2000n]);
    f2.writePublicData([{ slot: 500n, value: 8n }]);
    await ws.commit(f2);

    const old = ws.at(1);
    const now = ws.at(2);
    assert.notEqual(old.snapshot(TreeId.NULLIFIER).root, now.snapshot(TreeId.NULLIFIER).root);
    // 1000's leaf pointed at 3000 in block 1 and at 2000 since block 2.
    const at1000 = now.findLeaf(TreeId.NULLIFIER, 1000n)!;
    assert.deepEqual(at1000, { index: 128, blockNumber: 1 });
    assert.equal(old.getLeafPreimage(TreeId.NULLIFIER, 128)!.nextKey, 3000n);
    assert.equal(now.getLeafPreimage(TreeId.NULLIFIER, 128)!.nextKey, 2000n);
    assert.equal(old.findLeaf(TreeId.NULLIFIER, 2000n), undefined);
    assert.equal(old.findLowLeaf(TreeId.NULLIFIER, 2500n).leaf.key, 1000n);
    assert.equal(now.findLowLeaf(TreeId.NULLIFIER, 2500n).leaf.key, 2000n);
    assert.equal(now.findLowLeaf(TreeId.NULLIFIER, 2000n).alreadyPresent, true);
    // The public-data slot kept its index and inserting block; its value changed.
    const slot = now.findLeaf(TreeId.PUBLIC_DATA, 500n)!;
    assert.equal(slot.blockNumber, 1);
    assert.equal(old.getLeafPreimage(TreeId.PUBLIC_DATA, slot.index)!.value, 7n);
    assert.equal(now.getLeafPreimage(TreeId.PUBLIC_DATA, slot.index)!.value, 8n);
    for (const view of [old, now]) {
      for (const tree of [TreeId.NULLIFIER, TreeId.PUBLIC_DATA, TreeId.ARCHIVE]) {
        const size = view.snapshot(tree).nextAvailableLeafIndex;
        for (const index of [0, Math.floor(size / 2), size - 1]) assertPathProves(view, tree, index);
      }
    }
    await ws.close();
  });

  test('membership and low-leaf witnesses verify against the root', async () => {
    const ws = await fresh();
    const fork = ws.fork();
    fork.appendNoteHashes([123n, 456n]);
    fork.insertNullifiers([9000n]);
    fork.writePublicData([{ slot: 4242n, value: 5n }]);
    await ws.commit(fork);
    const view = ws.at(1);
    const note = view.getMembershipWitness(TreeId.NOTE_HASH, 456n)!;
    assert.equal(note.index, 1);
    assert.equal(rootFromPath(456n, note.index, note.siblingPath), view.snapshot(TreeId.NOTE_HASH).root);
    assert.equal(view.getMembershipWitness(TreeId.NOTE_HASH, 789n), undefined);
    const nullifier = view.getIndexedLeafWitness(TreeId.NULLIFIER, 9000n)!;
    const leafHash = (l: { key: Fr; nextKey: Fr; nextIndex: number }) =>
      poseidon2Hash([l.key, l.nextKey, BigInt(l.nextIndex)]);
    assert.equal(
      rootFromPath(leafHash(nullifier.leaf), nullifier.index, nullifier.siblingPath),
      view.snapshot(TreeId.NULLIFIER).root,
    );
    const low = view.getLowLeafWitness(TreeId.NULLIFIER, 9500n);
    assert.equal(low.alreadyPresent, false);
    assert.equal(low.leaf.key, 9000n);
    assert.ok(low.leaf.nextKey === 0n || low.leaf.nextKey > 9500n);
    assert.equal(
      rootFromPath(leafHash(low.leaf), low.index, low.siblingPath),
      view.snapshot(TreeId.NULLIFIER).root,
    );
    const data = view.getIndexedLeafWitness(TreeId.PUBLIC_DATA, 4242n)!;
    assert.equal(
      rootFromPath(
        poseidon2Hash([data.leaf.key, data.leaf.value, data.leaf.nextKey, BigInt(data.leaf.nextIndex)]),
        data.index,
        data.siblingPath,
      ),
      view.snapshot(TreeId.PUBLIC_DATA).root,
    );
    await ws.close();
  });

  test('a leaf index beyond the capacity is an invalid-params error; below it there is a path', async () => {
    const ws = await fresh();
    assert.throws(
      () => ws.at(0).getSiblingPath(TreeId.NOTE_HASH, 2 ** 42),
      (err: unknown) =>
        err instanceof NodeError &&
        err.kind === 'invalid-params' &&
        /room for 2\^42 leaves/.test(err.message),
    );
    assert.throws(() => ws.at(0).getSiblingPath(TreeId.ARCHIVE, 2 ** 30), NodeError);
    assert.equal(ws.at(0).getSiblingPath(TreeId.NOTE_HASH, 2 ** 42 - 1).length, 42);
    assert.equal(ws.at(0).getLeafValue(TreeId.NULLIFIER, 128), undefined);
    await ws.close();
  });

  // Known answers: the reference's genesis roots (genesis.test.ts) and poseidon2([1, 2]).
  test('sibling paths past the last leaf (known answers)', async () => {
    const ws = await fresh();
    const genesis = ws.at(0);
    const hex = (v: Fr) => `0x${v.toString(16).padStart(64, '0')}`;
    const fold = (tree: TreeId, index: number) =>
      hex(rootFromPath(0n, index, genesis.getSiblingPath(tree, index)));
    // The empty note hash tree: every position's path is the empty subtree hashes.
    const empty = genesis.getSiblingPath(TreeId.NOTE_HASH, 0);
    assert.equal(empty[0], 0n);
    assert.equal(empty[1], poseidon2Hash([0n, 0n]));
    assert.equal(empty[2], poseidon2Hash([empty[1]!, empty[1]!]));
    assert.deepEqual(genesis.getSiblingPath(TreeId.NOTE_HASH, 2 ** 42 - 1), empty);
    for (const index of [0, 1, 64, 2 ** 41, 2 ** 42 - 1]) {
      assert.equal(
        fold(TreeId.NOTE_HASH, index),
        '0x2ac5dda169f6bb3b9ca09bbac34e14c94d1654597db740153a1288d859a8a30a',
      );
    }
    // Just past the 128 prefilled nullifiers and the prefilled public data; past the genesis block.
    assert.equal(
      fold(TreeId.NULLIFIER, 128),
      '0x1ec3788cd1c32e54d889d67fe29e481114f9d4afe9b44b229aa29d8ad528dd31',
    );
    assert.equal(
      fold(TreeId.NULLIFIER, 2 ** 42 - 1),
      '0x1ec3788cd1c32e54d889d67fe29e481114f9d4afe9b44b229aa29d8ad528dd31',
    );
    const publicSize = genesis.snapshot(TreeId.PUBLIC_DATA).nextAvailableLeafIndex;
    assert.equal(
      fold(TreeId.PUBLIC_DATA, publicSize),
      '0x23c08a6b1297210c5e24c76b9a936250a1ce2721576c26ea797c7ec35f9e46a9',
    );
    assert.equal(fold(TreeId.ARCHIVE, 1), hex(genesis.snapshot(TreeId.ARCHIVE).root));

    // Leaves 1, 2, 3: position 3's siblings are leaf 2 (3), poseidon2([1, 2]), then empty subtrees.
    const fork = ws.fork();
    fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, [1n, 2n, 3n]);
    await ws.commit(fork);
    const path = ws.at(1).getSiblingPath(TreeId.L1_TO_L2_MESSAGE, 3);
    assert.equal(path[0], 3n);
    assert.equal(hex(path[1]!), '0x038682aa1cb5ae4e0a3f13da432a95c77c5c111f6f030faf9cad641ce1ed7383');
    assert.deepEqual(path.slice(2), empty.slice(2, 36));
    assert.equal(rootFromPath(0n, 3, path), ws.at(1).snapshot(TreeId.L1_TO_L2_MESSAGE).root);
    await ws.close();
  });

  test('duplicate nullifiers are refused and change nothing', async () => {
    const ws = await fresh();
    const fork = ws.fork();
    fork.insertNullifiers([5000n]);
    const before = fork.snapshot(TreeId.NULLIFIER);
    assert.throws(() => fork.insertNullifiers([6000n, 6000n]), DuplicateLeafError);
    assert.throws(() => fork.insertNullifiers([7000n, 5000n]), DuplicateLeafError);
    assert.throws(() => fork.insertNullifiers([3n]), /existing nullifier/);
    assert.deepEqual(fork.snapshot(TreeId.NULLIFIER), before);
    assert.equal(fork.findLeaf(TreeId.NULLIFIER, 7000n), undefined);
    await ws.close();
  });

  test('rollback removes later blocks; the chain can grow again from there', async () => {
    const ws = await fresh();
    const roots: Fr[] = [ws.at(0).snapshot(TreeId.NULLIFIER).root];
    for (let b = 1; b <= 4; b++) {
      const fork = ws.fork();
      fork.insertNullifiers([BigInt(10_000 * b)]);
      fork.appendNoteHashes([BigInt(b)]);
      fork.appendLeaves(TreeId.ARCHIVE, [BigInt(900 + b)]);
      await ws.commit(fork);
      roots.push(ws.at(b).snapshot(TreeId.NULLIFIER).root);
    }
    const stale = ws.fork();
    await ws.rollbackTo(2);
    assert.equal(ws.latestBlockNumber, 2);
    assert.throws(() => ws.at(3), /not in the world state yet/);
    assert.equal(ws.at(2).snapshot(TreeId.NULLIFIER).root, roots[2]);
    assert.equal(ws.at(2).findLeaf(TreeId.NULLIFIER, 30_000n), undefined);
    assert.equal(ws.at(2).findLeaf(TreeId.ARCHIVE, 903n), undefined);
    assert.equal(ws.at(2).findLowLeaf(TreeId.NULLIFIER, 35_000n).leaf.key, 20_000n);
    await assert.rejects(ws.commit(stale), /stale/);
    // Block 3 again, differently.
    const fork = ws.fork();
    fork.insertNullifiers([30_001n]);
    await ws.commit(fork);
    assert.equal(ws.latestBlockNumber, 3);
    assert.deepEqual(ws.at(3).findLeaf(TreeId.NULLIFIER, 30_001n)?.blockNumber, 3);
    assert.notEqual(ws.at(3).snapshot(TreeId.NULLIFIER).root, roots[3]);
    // Rolling back to the same root set again gives the same roots.
    await ws.rollbackTo(0);
    assert.equal(ws.at(0).snapshot(TreeId.NULLIFIER).root, roots[0]);
    await ws.close();
  });

  test('a history window prunes old blocks; reads below it name the oldest block', async () => {
    const ws = await fresh(3);
    for (let b = 1; b <= 6; b++) {
      const fork = ws.fork();
      fork.writePublicData([{ slot: 777n, value: BigInt(b) }]);
      fork.insertNullifiers([BigInt(50_000 + b)]);
      await ws.commit(fork);
    }
    assert.equal(ws.oldestBlockNumber, 4);
    assert.throws(
      () => ws.at(3),
      (err: unknown) =>
        err instanceof NodeError && /no longer available.*history starts at block 4/.test(err.message),
    );
    for (let b = 4; b <= 6; b++) {
      const view = ws.at(b);
      const slot = view.findLeaf(TreeId.PUBLIC_DATA, 777n)!;
      assert.equal(view.getLeafPreimage(TreeId.PUBLIC_DATA, slot.index)!.value, BigInt(b));
      assertPathProves(view, TreeId.PUBLIC_DATA, slot.index);
      assertPathProves(view, TreeId.NULLIFIER, 0);
    }
    await assert.rejects(ws.rollbackTo(3), /history starts at block 4/);
    await ws.rollbackTo(4);
    assert.equal(
      ws.at(4).getLeafPreimage(TreeId.PUBLIC_DATA, ws.at(4).findLeaf(TreeId.PUBLIC_DATA, 777n)!.index)!.value,
      4n,
    );
    await ws.close();
  });

  test('reopening a store continues at its latest block', async () => {
    const dir = join(root, 'reopen');
    const first = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const fork = first.fork();
    fork.appendNoteHashes([42n]);
    await first.commit(fork);
    const expected = first.at(1).snapshot(TreeId.NOTE_HASH);
    await first.close();
    const second = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    assert.equal(second.latestBlockNumber, 1);
    assert.deepEqual(second.at(1).snapshot(TreeId.NOTE_HASH), expected);
    await second.close();
  });
});
