// Hand-checked facts about the in-memory world-state model (test/world-state/model.ts), so
// that the oracle the property tests trust is itself trustworthy.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';
import {
  INITIAL_NULLIFIER_TREE_SIZE,
  INITIAL_PUBLIC_DATA_TREE_SIZE,
  TREE_HEIGHTS,
  TREE_IDS,
  TreeId,
  type TreeSnapshot,
  type WorldStateOptions,
} from '../../src/world-state/types.js';
import { indexedLeafHash, rootFromPath, WorldStateModel, ZERO_HASHES, zeroHash } from './model.js';

const H = (l: bigint, r: bigint) => poseidon2Hash([l, r]);

// Known answers: the reference protocol's 4.3 genesis constants (docs/world-state.md, "Genesis").
const GENESIS_BLOCK_HEADER_HASH =
  21694244557328181932449230888455310614586084993178835904749768133365362325861n;
const GENESIS_ARCHIVE_ROOT = 9682850228538071369704502076456077473410427336083826595120404283897422804423n;

const options = (extra: Partial<WorldStateOptions> = {}): WorldStateOptions => ({
  historyBlocks: 0,
  genesisBlockHash: () => GENESIS_BLOCK_HEADER_HASH,
  ...extra,
});

/** Root of a tree of `height` whose only non-empty leaves are the first few, folded by hand. */
function rootOfPrefix(leaves: bigint[], height: number): bigint {
  let level = leaves;
  for (let l = 0; l < height; l++) {
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(H(level[i]!, level[i + 1] ?? ZERO_HASHES[l]!));
    level = next;
  }
  return level[0]!;
}

describe('world-state model: hashing', () => {
  test('zero hashes chain from 0', () => {
    assert.equal(zeroHash(0), 0n);
    assert.equal(zeroHash(1), H(0n, 0n));
    assert.equal(zeroHash(2), H(H(0n, 0n), H(0n, 0n)));
    assert.equal(ZERO_HASHES.length, 43);
  });

  test('empty trees have root zero[height]', () => {
    const model = new WorldStateModel(options());
    const reader = model.at(0);
    for (const tree of [TreeId.NOTE_HASH, TreeId.L1_TO_L2_MESSAGE]) {
      assert.deepEqual(reader.snapshot(tree), {
        root: zeroHash(TREE_HEIGHTS[tree]),
        nextAvailableLeafIndex: 0,
      });
    }
  });

  test('known answer: archive with only the genesis header hash has GENESIS_ARCHIVE_ROOT', () => {
    const model = new WorldStateModel(options());
    assert.deepEqual(model.at(0).snapshot(TreeId.ARCHIVE), {
      root: GENESIS_ARCHIVE_ROOT,
      nextAvailableLeafIndex: 1,
    });
    assert.deepEqual(model.at(0).findLeaf(TreeId.ARCHIVE, GENESIS_BLOCK_HEADER_HASH), {
      index: 0,
      blockNumber: 0,
    });
  });

  test('an append-only root equals a hand fold of its leaves', () => {
    const model = new WorldStateModel(options());
    const fork = model.fork();
    fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, [11n, 22n, 33n]);
    assert.equal(fork.snapshot(TreeId.L1_TO_L2_MESSAGE).root, rootOfPrefix([11n, 22n, 33n], 36));
    let byHand = H(H(11n, 22n), H(33n, 0n));
    for (let l = 2; l < 36; l++) byHand = H(byHand, zeroHash(l));
    assert.equal(fork.snapshot(TreeId.L1_TO_L2_MESSAGE).root, byHand);
  });

  test('note hashes are padded to 64 leaves per tx; appendLeaves is unpadded', () => {
    const model = new WorldStateModel(options());
    const fork = model.fork();
    fork.appendNoteHashes([5n, 6n]);
    fork.appendNoteHashes([]);
    assert.equal(fork.snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 128);
    assert.equal(fork.getLeafValue(TreeId.NOTE_HASH, 1), 6n);
    assert.equal(fork.getLeafValue(TreeId.NOTE_HASH, 2), 0n);
    assert.equal(fork.getLeafValue(TreeId.NOTE_HASH, 128), undefined);
    assert.equal(fork.findLeaf(TreeId.NOTE_HASH, 0n), undefined);
    assert.deepEqual(fork.findLeaf(TreeId.NOTE_HASH, 6n), { index: 1, blockNumber: 1 });
    fork.appendLeaves(TreeId.ARCHIVE, [9n]);
    assert.equal(fork.snapshot(TreeId.ARCHIVE).nextAvailableLeafIndex, 2);
  });

  test('sibling paths recompute the root from the leaf', () => {
    const model = new WorldStateModel(options({ genesisPublicData: [{ slot: 1000n, value: 3n }] }));
    const fork = model.fork();
    fork.appendNoteHashes([1n, 2n, 3n]);
    fork.insertNullifiers([500n, 0n, 400n]);
    fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, [8n, 9n, 10n]);
    for (const tree of TREE_IDS) {
      const { root, nextAvailableLeafIndex: size } = fork.snapshot(tree);
      for (const i of new Set([0, 1, 2, Math.floor(size / 2), size - 1].filter((i) => i < size))) {
        const path = fork.getSiblingPath(tree, i);
        assert.equal(path.length, TREE_HEIGHTS[tree]);
        assert.equal(rootFromPath(fork.getLeafValue(tree, i)!, i, path), root, `tree ${tree} leaf ${i}`);
      }
      for (const i of [size, 2 ** TREE_HEIGHTS[tree] - 1]) {
        assert.equal(rootFromPath(0n, i, fork.getSiblingPath(tree, i)), root, `tree ${tree} empty leaf ${i}`);
      }
      assert.throws(() => fork.getSiblingPath(tree, 2 ** TREE_HEIGHTS[tree]));
    }
  });
});

describe('world-state model: indexed trees', () => {
  test('genesis prefill links keys 0..127 and the last leaf points to 0', () => {
    const model = new WorldStateModel(options());
    const r = model.at(0);
    for (const tree of [TreeId.NULLIFIER, TreeId.PUBLIC_DATA] as const) {
      assert.equal(r.snapshot(tree).nextAvailableLeafIndex, 128);
      assert.deepEqual(r.getLeafPreimage(tree, 0), { key: 0n, value: 0n, nextKey: 1n, nextIndex: 1 });
      assert.deepEqual(r.getLeafPreimage(tree, 127), { key: 127n, value: 0n, nextKey: 0n, nextIndex: 0 });
      assert.deepEqual(r.findLeaf(tree, 0n), { index: 0, blockNumber: 0 });
      assert.deepEqual(r.findLowLeaf(tree, 10n ** 30n), {
        index: 127,
        leaf: { key: 127n, value: 0n, nextKey: 0n, nextIndex: 0 },
        alreadyPresent: false,
      });
    }
    assert.equal(r.getLeafValue(TreeId.NULLIFIER, 3), poseidon2Hash([3n, 4n, 4n]));
    assert.equal(r.getLeafValue(TreeId.PUBLIC_DATA, 3), poseidon2Hash([3n, 0n, 4n, 4n]));
    assert.equal(INITIAL_NULLIFIER_TREE_SIZE, 128);
    assert.equal(INITIAL_PUBLIC_DATA_TREE_SIZE, 128);
  });

  test('inserting nullifiers links them into the sorted list', () => {
    const model = new WorldStateModel(options());
    const fork = model.fork();
    fork.insertNullifiers([200n, 0n, 150n]);
    assert.equal(fork.snapshot(TreeId.NULLIFIER).nextAvailableLeafIndex, 192);
    // 127 -> 150 (index 130) -> 200 (index 128) -> end
    assert.deepEqual(fork.getLeafPreimage(TreeId.NULLIFIER, 127), {
      key: 127n,
      value: 0n,
      nextKey: 150n,
      nextIndex: 130,
    });
    assert.deepEqual(fork.getLeafPreimage(TreeId.NULLIFIER, 130), {
      key: 150n,
      value: 0n,
      nextKey: 200n,
      nextIndex: 128,
    });
    assert.deepEqual(fork.getLeafPreimage(TreeId.NULLIFIER, 128), {
      key: 200n,
      value: 0n,
      nextKey: 0n,
      nextIndex: 0,
    });
    assert.equal(fork.getLeafPreimage(TreeId.NULLIFIER, 129), undefined);
    assert.equal(fork.getLeafValue(TreeId.NULLIFIER, 129), 0n);
    assert.equal(fork.getLeafValue(TreeId.NULLIFIER, 130), poseidon2Hash([150n, 200n, 128n]));
    assert.deepEqual(fork.findLeaf(TreeId.NULLIFIER, 150n), { index: 130, blockNumber: 1 });
    assert.equal(fork.findLeaf(TreeId.NULLIFIER, 151n), undefined);
    assert.deepEqual(fork.findLowLeaf(TreeId.NULLIFIER, 199n).index, 130);
    assert.deepEqual(fork.findLowLeaf(TreeId.NULLIFIER, 200n).alreadyPresent, true);
  });

  test('duplicate nullifiers throw and change nothing', () => {
    const model = new WorldStateModel(options());
    const fork = model.fork();
    fork.insertNullifiers([300n]);
    const before = fork.snapshot(TreeId.NULLIFIER);
    assert.throws(() => fork.insertNullifiers([5n]), /duplicate/);
    assert.throws(() => fork.insertNullifiers([301n, 300n]), /duplicate/);
    assert.throws(() => fork.insertNullifiers([400n, 0n, 400n]), /duplicate/);
    assert.throws(() => fork.insertNullifiers(new Array(65).fill(0n)));
    assert.deepEqual(fork.snapshot(TreeId.NULLIFIER), before);
  });

  test('a public-data update changes only the value; a new slot is appended and linked', () => {
    const model = new WorldStateModel(options());
    const fork = model.fork();
    fork.writePublicData([{ slot: 5n, value: 77n }]);
    assert.equal(fork.snapshot(TreeId.PUBLIC_DATA).nextAvailableLeafIndex, 128);
    assert.deepEqual(fork.getLeafPreimage(TreeId.PUBLIC_DATA, 5), {
      key: 5n,
      value: 77n,
      nextKey: 6n,
      nextIndex: 6,
    });
    assert.deepEqual(fork.findLeaf(TreeId.PUBLIC_DATA, 5n), { index: 5, blockNumber: 0 });
    for (const i of [4, 6]) assert.deepEqual(fork.getLeafPreimage(TreeId.PUBLIC_DATA, i)!.value, 0n);

    fork.writePublicData([
      { slot: 1000n, value: 1n },
      { slot: 500n, value: 2n },
      { slot: 1000n, value: 3n },
    ]);
    const r = fork;
    assert.equal(r.snapshot(TreeId.PUBLIC_DATA).nextAvailableLeafIndex, 130);
    assert.deepEqual(r.getLeafPreimage(TreeId.PUBLIC_DATA, 127), {
      key: 127n,
      value: 0n,
      nextKey: 500n,
      nextIndex: 129,
    });
    assert.deepEqual(r.getLeafPreimage(TreeId.PUBLIC_DATA, 129), {
      key: 500n,
      value: 2n,
      nextKey: 1000n,
      nextIndex: 128,
    });
    assert.deepEqual(r.getLeafPreimage(TreeId.PUBLIC_DATA, 128), {
      key: 1000n,
      value: 3n,
      nextKey: 0n,
      nextIndex: 0,
    });
    assert.equal(
      r.getLeafValue(TreeId.PUBLIC_DATA, 128),
      indexedLeafHash(TreeId.PUBLIC_DATA, {
        key: 1000n,
        value: 3n,
        nextKey: 0n,
        nextIndex: 0,
      }),
    );
  });

  test('genesis public data is applied as ordinary writes before the archive leaf', () => {
    let seen: Record<TreeId, TreeSnapshot> | undefined;
    const model = new WorldStateModel({
      historyBlocks: 0,
      genesisPublicData: [
        { slot: 7n, value: 70n },
        { slot: 9999n, value: 1n },
      ],
      genesisBlockHash: (s) => {
        seen = s;
        return 42n;
      },
    });
    const r = model.at(0);
    assert.equal(r.getLeafPreimage(TreeId.PUBLIC_DATA, 7)!.value, 70n);
    assert.deepEqual(r.findLeaf(TreeId.PUBLIC_DATA, 9999n), { index: 128, blockNumber: 0 });
    assert.deepEqual(seen![TreeId.ARCHIVE], { root: zeroHash(30), nextAvailableLeafIndex: 0 });
    assert.deepEqual(seen![TreeId.PUBLIC_DATA], r.snapshot(TreeId.PUBLIC_DATA));
    assert.equal(r.getLeafValue(TreeId.ARCHIVE, 0), 42n);
  });
});

describe('world-state model: witnesses', () => {
  test('witnesses are the found leaf with its sibling path', () => {
    const model = new WorldStateModel(options());
    const fork = model.fork();
    fork.appendNoteHashes([0n, 9n, 9n]);
    fork.insertNullifiers([300n]);
    assert.equal(fork.getMembershipWitness(TreeId.NOTE_HASH, 0n), undefined);
    assert.deepEqual(fork.getMembershipWitness(TreeId.NOTE_HASH, 9n), {
      index: 1,
      siblingPath: fork.getSiblingPath(TreeId.NOTE_HASH, 1),
    });
    assert.equal(fork.getIndexedLeafWitness(TreeId.NULLIFIER, 299n), undefined);
    const present = fork.getIndexedLeafWitness(TreeId.NULLIFIER, 300n)!;
    assert.equal(present.index, 128);
    assert.deepEqual(present.leaf, { key: 300n, value: 0n, nextKey: 0n, nextIndex: 0 });
    const low = fork.getLowLeafWitness(TreeId.NULLIFIER, 299n);
    assert.equal(low.index, 127);
    assert.equal(low.alreadyPresent, false);
    assert.equal(
      rootFromPath(indexedLeafHash(TreeId.NULLIFIER, low.leaf), low.index, low.siblingPath),
      fork.snapshot(TreeId.NULLIFIER).root,
    );
  });
});

describe('world-state model: blocks', () => {
  test('fork changes are invisible until commit; at(b) reads old blocks; rollback removes blocks', () => {
    const model = new WorldStateModel(options());
    const genesis = model.at(0).snapshot(TreeId.NOTE_HASH);
    const fork = model.fork();
    fork.appendNoteHashes([1n]);
    assert.deepEqual(model.at(0).snapshot(TreeId.NOTE_HASH), genesis);
    assert.throws(() => model.at(1));
    assert.equal(model.commit(fork), 1);
    assert.equal(model.at(1).snapshot(TreeId.NOTE_HASH).nextAvailableLeafIndex, 64);
    assert.deepEqual(model.at(0).snapshot(TreeId.NOTE_HASH), genesis);
    assert.throws(() => model.commit(fork), /latest block is 1/);
    model.rollbackTo(0);
    assert.equal(model.latestBlockNumber, 0);
    assert.deepEqual(model.at(0).snapshot(TreeId.NOTE_HASH), genesis);
    assert.throws(() => model.at(1));
  });

  test('history window keeps the last h blocks and names the oldest', () => {
    const model = new WorldStateModel(options({ historyBlocks: 3 }));
    for (let b = 1; b <= 5; b++) model.commit(model.fork());
    assert.equal(model.latestBlockNumber, 5);
    assert.equal(model.oldestBlockNumber, 3);
    assert.throws(() => model.at(2), /oldest available block is 3/);
    model.at(3);
    model.rollbackTo(4);
    assert.equal(model.oldestBlockNumber, 3);
    model.commit(model.fork());
    assert.equal(model.oldestBlockNumber, 3);
    model.commit(model.fork());
    assert.equal(model.oldestBlockNumber, 4);
  });
});
