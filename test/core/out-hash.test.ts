// Out hashes and L2-to-L1 membership witnesses (src/core/out-hash.ts).
//
// Known answers come from the reference's own tests (its 4.3 release line):
// - aztec-labs-eng/aztec-node@997087138813c106123550847d7e3ad007f6a578
//   yarn-project/stdlib/src/messaging/out_hash.test.ts (epoch out-hash snapshots)
// - aztec-labs-eng/aztec-node@089d2cde7c808ab48cc74cf8d83b9545e7b75bef
//   yarn-project/stdlib/src/hash/hash.test.ts (L2-to-L1 message hash snapshots)
// - aztec-labs-eng/aztec-node@1a26db3e9d5fd41f83616703635c498a68509fbd
//   yarn-project/foundation/src/trees/unbalanced_merkle_tree_root.test.ts and
//   unbalanced_merkle_tree_calculator.test.ts (tree shapes and sibling paths; the leaf values there
//   are arbitrary, the expected roots/paths are built from the hasher, so the shapes are what is
//   reproduced, with our own leaf values)
// - AztecProtocol/aztec-packages@5883dfe2991abd6044f4ad188341fbd026ebb9aa
//   yarn-project/foundation/src/trees/unbalanced_merkle_tree.test.ts (leaf depth and index)
// - aztec-labs-eng/aztec-node@0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b
//   yarn-project/stdlib/src/messaging/l2_to_l1_membership.test.ts (leafIndex / path length)
// The property tests compare against an independent model written below.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { EMPTY_EPOCH_OUT_HASH } from '../../src/core/block-header.js';
import {
  accumulateCheckpointOutHashes,
  balancedShaRoot,
  buildL2ToL1EpochTree,
  computeBlockOutHash,
  computeCheckpointOutHash,
  computeEpochOutHash,
  computeL2ToL1MembershipWitness,
  computeL2ToL1MembershipWitnessForMessage,
  computePartialEpochOutHashes,
  computeTxOutHash,
  getL2ToL1MessageLeafId,
  l2ToL1MessageLeaf,
  OUT_HASH_TREE_HEIGHT,
  resolveL2ToL1MessageIndex,
  smallestCoveringNumCheckpoints,
  unbalancedShaRoot,
  unbalancedShaWitness,
  verifyL2ToL1Membership,
  wonkyShaRoot,
  wonkyShaWitness,
} from '../../src/core/out-hash.js';

// ---------------------------------------------------------------------------------------------------
// Independent model (node:crypto sha256; recursive / layer-wise definitions)

const be32 = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
/** sha256 of the two 32-byte words, top 31 bytes as the value. */
function H(a: bigint, b: bigint): bigint {
  const d = createHash('sha256')
    .update(Buffer.concat([be32(a), be32(b)]))
    .digest();
  return BigInt(`0x${d.subarray(0, 31).toString('hex')}`);
}
/** Zero-skipping combination used by the compressed trees. */
const combine = (a: bigint, b: bigint) => (a === 0n ? b : b === 0n ? a : H(a, b));

/** Layer-wise reduction of a power-of-two number of nodes. */
function reduceLayers(nodes: bigint[], op: (a: bigint, b: bigint) => bigint): bigint {
  let layer = nodes;
  while (layer.length > 1) {
    const next: bigint[] = [];
    for (let i = 0; i < layer.length; i += 2) next.push(op(layer[i]!, layer[i + 1]!));
    layer = next;
  }
  return layer[0]!;
}

/** Splits n leaves into power-of-two chunks by the binary digits of n, largest first. */
function chunks(leaves: bigint[]): bigint[][] {
  const out: bigint[][] = [];
  let start = 0;
  for (let bit = 31; bit >= 0; bit--) {
    const size = 2 ** bit;
    if (leaves.length & size) {
      out.push(leaves.slice(start, start + size));
      start += size;
    }
  }
  return out;
}

/** Model tree: chunk roots folded from the right: root = C0 op (C1 op (... op Clast)). */
function modelTree(leaves: bigint[], op: (a: bigint, b: bigint) => bigint): bigint {
  if (leaves.length === 0) return 0n;
  const roots = chunks(leaves).map((c) => reduceLayers(c, op));
  let acc = roots[roots.length - 1]!;
  for (let i = roots.length - 2; i >= 0; i--) acc = op(roots[i]!, acc);
  return acc;
}
const modelUnbalanced = (leaves: bigint[]) => modelTree(leaves, H);
const modelWonky = (leaves: bigint[]) => modelTree(leaves, combine);

type Epoch = bigint[][][][];
const modelCheckpoint = (blocks: bigint[][][]) =>
  modelWonky(blocks.map((txs) => modelWonky(txs.map(modelUnbalanced))));
function modelEpochRoot(epoch: Epoch, k: number): bigint {
  const leaves = epoch.slice(0, k).map(modelCheckpoint);
  while (leaves.length < 32) leaves.push(0n);
  return reduceLayers(leaves, H);
}
/** Fold a path as the L1 Outbox does. */
function modelFold(leaf: bigint, leafIndex: bigint, path: bigint[]): bigint {
  let node = leaf;
  let bits = leafIndex;
  for (const s of path) {
    node = bits & 1n ? H(s, node) : H(node, s);
    bits >>= 1n;
  }
  return node;
}

const EPOCH = OUT_HASH_TREE_HEIGHT;

// ---------------------------------------------------------------------------------------------------
// Known answers

describe('known answers', () => {
  test('the empty epoch root is EMPTY_EPOCH_OUT_HASH', () => {
    assert.equal(computeEpochOutHash([]), EMPTY_EPOCH_OUT_HASH);
    assert.equal(accumulateCheckpointOutHashes([]), EMPTY_EPOCH_OUT_HASH);
    assert.equal(balancedShaRoot(new Array<bigint>(32).fill(0n)), EMPTY_EPOCH_OUT_HASH);
    // out_hash.test.ts: an epoch with checkpoints but no messages.
    assert.equal(computeEpochOutHash([[], [[], []], [[[]], []]]), EMPTY_EPOCH_OUT_HASH);
    assert.equal(computeEpochOutHash({ checkpoints: [{ blocks: [{ txs: [[]] }] }] }), EMPTY_EPOCH_OUT_HASH);
  });

  test('out_hash.test.ts: a full epoch of 32 checkpoints, message i + 123 each', () => {
    const epoch = Array.from({ length: 32 }, (_, i) => [[[BigInt(i + 123)]]]);
    assert.equal(
      computeEpochOutHash(epoch),
      0x008c50251fe5f98286db86e24e87548f77407ad54788bc5d884616bf2ed20397n,
    );
  });

  test('out_hash.test.ts: an epoch where some checkpoints have no messages', () => {
    const epoch = [[[[11n]]], [], [[], []], [[], [[44n]]], [[], [[]]], [[], [[], [66n]], [[]]]];
    // The checkpoint out hashes are [11, 0, 0, 44, 0, 66]: single leaves rise to the root.
    assert.deepEqual(epoch.map(computeCheckpointOutHash), [11n, 0n, 0n, 44n, 0n, 66n]);
    assert.equal(
      computeEpochOutHash(epoch),
      0x0001279f68bef9c06b812c7c902b6c050d8f0d963ff12e4a04111145473c0bd5n,
    );
  });

  test('hash.test.ts: L2-to-L1 message leaf (recipient packed as 20 bytes)', () => {
    const zero = '0x0000000000000000000000000000000000000000';
    assert.equal(
      l2ToL1MessageLeaf({ sender: 0n, rollupVersion: 0n, recipient: zero, chainId: 0n, content: 0n }),
      0x003b18c58c739716e76429634a61375c45b3b5cd470c22ab6d3e14cee23dd992n,
    );
    assert.equal(
      l2ToL1MessageLeaf({
        sender: 3n,
        rollupVersion: 4n,
        recipient: '0x0000000000000000000000000000000000000001',
        chainId: 5n,
        content: 2n,
      }),
      0x0081edf209e087ad31b3fd24263698723d57190bd1d6e9fe056fc0c0a68ee661n,
    );
    assert.throws(
      () => l2ToL1MessageLeaf({ sender: 0n, rollupVersion: 0n, recipient: '0x12', chainId: 0n, content: 0n }),
      /recipient/,
    );
  });

  const L = (n: number) => BigInt(n) * 1_000_003n; // leaf "n"
  const leaves = (n: number) => Array.from({ length: n }, (_, i) => L(i + 1));

  test('unbalanced roots: shapes of 0, 1, 2, 3, 5, 7, 10, 31, 32 leaves', () => {
    assert.equal(unbalancedShaRoot([]), 0n);
    assert.equal(unbalancedShaRoot([L(1)]), L(1));
    assert.equal(unbalancedShaRoot(leaves(2)), H(L(1), L(2)));
    assert.equal(unbalancedShaRoot(leaves(3)), H(H(L(1), L(2)), L(3)));
    const b = (from: number, n: number) => reduceLayers(leaves(from + n - 1).slice(from - 1), H);
    assert.equal(unbalancedShaRoot(leaves(5)), H(b(1, 4), L(5)));
    assert.equal(unbalancedShaRoot(leaves(7)), H(b(1, 4), H(b(5, 2), L(7))));
    assert.equal(unbalancedShaRoot(leaves(10)), H(b(1, 8), b(9, 2)));
    assert.equal(unbalancedShaRoot(leaves(31)), H(b(1, 16), H(b(17, 8), H(b(25, 4), H(b(29, 2), L(31))))));
    assert.equal(unbalancedShaRoot(leaves(32)), b(1, 32));
    assert.equal(computeTxOutHash([]), 0n);
    assert.equal(computeTxOutHash([L(9)]), L(9));
  });

  test('unbalanced sibling paths (calculator test, "without compressed leaves")', () => {
    const path = (n: number, i: number) => unbalancedShaWitness(leaves(n), i).siblingPath;
    assert.deepEqual(path(1, 0), []);
    assert.deepEqual(path(2, 0), [L(2)]);
    assert.deepEqual(path(2, 1), [L(1)]);
    const r12 = H(L(1), L(2));
    const r34 = H(L(3), L(4));
    assert.deepEqual(path(3, 0), [L(2), L(3)]);
    assert.deepEqual(path(3, 2), [r12]);
    assert.deepEqual(path(5, 0), [L(2), r34, L(5)]);
    assert.deepEqual(path(5, 3), [L(3), r12, L(5)]);
    assert.deepEqual(path(5, 4), [H(r12, r34)]);
    const r56 = H(L(5), L(6));
    const r567 = H(r56, L(7));
    assert.deepEqual(path(7, 1), [L(1), r34, r567]);
    assert.deepEqual(path(7, 4), [L(6), L(7), H(r12, r34)]);
    assert.deepEqual(path(7, 6), [r56, H(r12, r34)]);
    const b = (from: number, n: number) => reduceLayers(leaves(from + n - 1).slice(from - 1), H);
    const r29to31 = H(H(L(29), L(30)), L(31));
    const r25to31 = H(b(25, 4), r29to31);
    const r17to31 = H(b(17, 8), r25to31);
    assert.deepEqual(path(31, 30), [H(L(29), L(30)), b(25, 4), b(17, 8), b(1, 16)]);
    assert.deepEqual(path(31, 24), [L(26), H(L(27), L(28)), r29to31, b(17, 8), b(1, 16)]);
    assert.equal(path(31, 13).at(-1), r17to31);
  });

  test('leaf depth and index (findLeafLevelAndIndex vectors)', () => {
    // [numLeaves, leafIndex, depth, indexAtDepth]
    const vectors = [
      [1, 0, 0, 0],
      [2, 0, 1, 0],
      [2, 1, 1, 1],
      [3, 0, 2, 0],
      [3, 1, 2, 1],
      [3, 2, 1, 1],
      [4, 2, 2, 2],
      [5, 2, 3, 2],
      [5, 4, 1, 1],
      [6, 4, 2, 2],
      [7, 4, 3, 4],
      [7, 6, 2, 3],
      [8, 6, 3, 6],
      [9, 6, 4, 6],
      [9, 8, 1, 1],
      [10, 8, 2, 2],
      [11, 8, 3, 4],
      [12, 8, 3, 4],
      [13, 8, 4, 8],
      [14, 8, 4, 8],
      [14, 11, 4, 11],
      [14, 12, 3, 6],
    ] as const;
    for (const [n, i, depth, index] of vectors) {
      const w = unbalancedShaWitness(leaves(n), i);
      assert.equal(w.siblingPath.length, depth, `depth of leaf ${i} of ${n}`);
      assert.equal(w.leafIndex, BigInt(index), `index of leaf ${i} of ${n}`);
    }
  });

  test('wonky trees (calculator test, "with compressed (zero) leaves")', () => {
    // keep: the 1-based leaves that stay non-zero.
    const tree = (n: number, keep: number[]) => leaves(n).map((v, i) => (keep.includes(i + 1) ? v : 0n));
    const root = (n: number, keep: number[]) => wonkyShaRoot(tree(n, keep));
    const path = (n: number, keep: number[], leaf: number) =>
      wonkyShaWitness(tree(n, keep), leaf - 1).siblingPath;

    assert.equal(root(5, []), 0n);
    assert.equal(root(1, []), 0n);
    assert.throws(() => wonkyShaWitness(tree(5, []), 0), /compressed/);
    assert.equal(root(5, [1, 2, 3, 4]), reduceLayers(leaves(4), H));
    assert.deepEqual(path(5, [1, 2, 3, 4], 3), [L(4), H(L(1), L(2))]);
    assert.throws(() => wonkyShaWitness(tree(5, [1, 2, 3, 4]), 4), /compressed/);
    assert.equal(root(6, [5, 6]), H(L(5), L(6)));
    assert.deepEqual(path(6, [5, 6], 5), [L(6)]);
    assert.equal(root(6, [3, 4]), H(L(3), L(4)));
    assert.equal(root(7, [5, 6]), H(L(5), L(6)));
    const r23 = H(L(2), L(3));
    assert.equal(root(7, [2, 3, 6]), H(r23, L(6)));
    assert.deepEqual(path(7, [2, 3, 6], 3), [L(2), L(6)]);
    assert.deepEqual(path(7, [2, 3, 6], 6), [r23]);
    assert.equal(root(6, [3]), L(3));
    assert.deepEqual(path(6, [3], 3), []);
    const r567 = H(H(L(5), L(6)), L(7));
    assert.equal(root(7, [2, 5, 6, 7]), H(L(2), r567));
    assert.deepEqual(path(7, [2, 5, 6, 7], 2), [r567]);
    assert.deepEqual(path(7, [2, 5, 6, 7], 5), [L(6), L(7), L(2)]);
    assert.deepEqual(path(7, [2, 5, 6, 7], 7), [H(L(5), L(6)), L(2)]);
    const r9899 = H(L(98), L(99));
    const r819899 = H(L(81), r9899);
    assert.equal(root(99, [13, 81, 98, 99]), H(L(13), r819899));
    assert.deepEqual(path(99, [13, 81, 98, 99], 81), [r9899, L(13)]);
    assert.deepEqual(path(99, [13, 81, 98, 99], 99), [L(98), L(81), L(13)]);
    const r62829 = H(L(6), H(L(28), L(29)));
    const r4559 = H(L(45), L(59));
    assert.equal(root(65, [6, 28, 29, 45, 59]), H(r62829, r4559));
    assert.deepEqual(path(65, [6, 28, 29, 45, 59], 28), [L(29), L(6), r4559]);
    assert.deepEqual(path(65, [6, 28, 29, 45, 59], 59), [L(45), r62829]);
    // Block out hash = wonky root over tx out hashes.
    assert.equal(computeBlockOutHash([[], [L(1)], []]), L(1));
    assert.equal(computeBlockOutHash([[L(1), L(2)], [], [L(3)]]), H(H(L(1), L(2)), L(3)));
  });

  describe('membership witnesses (l2_to_l1_membership.test.ts leafIndex / path-length vectors)', () => {
    let counter = 0n;
    const msgs = (n: number) => Array.from({ length: n }, () => H(0xabcn, ++counter));

    /** Every message's witness against the full epoch; checks it verifies and the ids are unique. */
    function witnessesOf(epoch: Epoch) {
      const k = epoch.length;
      const tree = buildL2ToL1EpochTree(epoch, k);
      assert.equal(tree.root, computeEpochOutHash(epoch));
      const out: { leafIndex: bigint; pathSize: number }[] = [];
      const ids = new Set<bigint>();
      for (const [checkpointIndex, blocks] of epoch.entries()) {
        for (const [blockIndex, txs] of blocks.entries()) {
          for (const [txIndex, messages] of txs.entries()) {
            for (const [messageIndexInTx, m] of messages.entries()) {
              const w = tree.witness({ checkpointIndex, blockIndex, txIndex, messageIndexInTx });
              assert.ok(verifyL2ToL1Membership(m, w.leafIndex, w.siblingPath, tree.root));
              const id = getL2ToL1MessageLeafId(w);
              assert.ok(!ids.has(id));
              ids.add(id);
              out.push({ leafIndex: w.leafIndex, pathSize: w.siblingPath.length });
            }
          }
        }
      }
      return out;
    }
    const expectAt = (
      ws: { leafIndex: bigint; pathSize: number }[],
      i: number,
      leafIndex: bigint,
      inner: number,
    ) => assert.deepEqual(ws[i], { leafIndex, pathSize: inner + EPOCH }, `message ${i}`);

    test('one block in one checkpoint', () => {
      expectAt(witnessesOf([[[msgs(1)]]]), 0, 0n, 0);
      const two = witnessesOf([[[msgs(2)]]]);
      expectAt(two, 0, 0n, 1);
      expectAt(two, 1, 1n, 1);
      const three = witnessesOf([[[msgs(3)]]]);
      expectAt(three, 0, 0n, 2);
      expectAt(three, 2, 1n, 1);
      expectAt(witnessesOf([[[[], msgs(1)]]]), 0, 0n, 0);
      const compressed = witnessesOf([[[msgs(1), [], msgs(1)]]]);
      expectAt(compressed, 0, 0n, 1);
      expectAt(compressed, 1, 1n, 1);
      const balancedTxs = witnessesOf([[[msgs(2), msgs(4), msgs(2)]]]);
      expectAt(balancedTxs, 0, 0n, 3);
      expectAt(balancedTxs, 2, 4n, 4);
      expectAt(balancedTxs, 4, 6n, 4);
      expectAt(balancedTxs, 7, 3n, 2);
      const unbalancedTxs = witnessesOf([[[msgs(5), msgs(3), msgs(7)]]]);
      expectAt(unbalancedTxs, 2, 2n, 5);
      expectAt(unbalancedTxs, 4, 1n, 3);
      expectAt(unbalancedTxs, 5, 4n, 4);
      expectAt(unbalancedTxs, 7, 3n, 3);
      expectAt(unbalancedTxs, 11, 11n, 4);
      expectAt(unbalancedTxs, 12, 12n, 4);
      expectAt(unbalancedTxs, 14, 7n, 3);
      const wonky = witnessesOf([[[[], [], msgs(3), [], [], [], msgs(7)]]]);
      expectAt(wonky, 0, 0n, 3);
      expectAt(wonky, 2, 1n, 2);
      expectAt(wonky, 6, 11n, 4);
      expectAt(wonky, 7, 12n, 4);
      expectAt(wonky, 9, 7n, 3);
    });

    test('one block per checkpoint, several checkpoints', () => {
      const a = witnessesOf([[[msgs(1)]], [[msgs(1), msgs(1), msgs(1)]], [[msgs(1), msgs(1)]]]);
      expectAt(a, 0, 0n, 0);
      expectAt(a, 1, 4n, 2);
      expectAt(a, 4, 4n, 1);
      const b = witnessesOf([[[msgs(1), msgs(1), msgs(1)]], [[[]], [[], []]], [[msgs(1), msgs(1)]]]);
      expectAt(b, 0, 0n, 2);
      expectAt(b, 2, 1n, 1);
      expectAt(b, 4, 5n, 1);
      const c = witnessesOf([[[[], msgs(2), []]], [[[], [], msgs(3), [], []]], [[[], []]]]);
      expectAt(c, 0, 0n, 1);
      expectAt(c, 2, 4n, 2);
      expectAt(c, 4, 3n, 1);
      const full: Epoch = Array.from({ length: 32 }, () => [[[]]]);
      full[7] = [[msgs(1)]];
      full[11] = [[msgs(2)]];
      full[15] = [[msgs(3)]];
      full[16] = [[msgs(2)]];
      full[17] = [[msgs(1)]];
      full[29] = [[msgs(2)]];
      full[31] = [[msgs(3)]];
      const f = witnessesOf(full);
      expectAt(f, 0, 7n, 0);
      expectAt(f, 1, 22n, 1);
      expectAt(f, 4, 61n, 2);
      expectAt(f, 6, 32n, 1);
      expectAt(f, 8, 17n, 0);
      expectAt(f, 10, 59n, 1);
      expectAt(f, 11, 124n, 2);
    });

    test('several blocks in one checkpoint', () => {
      const a = witnessesOf([[msgs(1), msgs(1), msgs(1)].map((tx) => [tx])]);
      expectAt(a, 0, 0n, 2);
      expectAt(a, 1, 1n, 2);
      expectAt(a, 2, 1n, 1);
      const b = witnessesOf([[[], [msgs(2), msgs(3)], []]]);
      expectAt(b, 0, 0n, 2);
      expectAt(b, 3, 5n, 3);
      expectAt(b, 4, 3n, 2);
      const c = witnessesOf([
        [
          [msgs(2), msgs(1)],
          [[], []],
          [[], [], []],
          [msgs(3), [], msgs(2)],
          [[], msgs(5), msgs(2)],
        ],
      ]);
      expectAt(c, 0, 0n, 4);
      expectAt(c, 2, 1n, 3);
      expectAt(c, 3, 8n, 5);
      expectAt(c, 7, 7n, 4);
      expectAt(c, 8, 16n, 5);
      expectAt(c, 10, 18n, 5);
      expectAt(c, 12, 5n, 3);
      expectAt(c, 14, 7n, 3);
      const sparse: bigint[][][] = Array.from({ length: 71 }, () => [[]]);
      for (const i of [6, 28, 29, 45, 59]) sparse[i] = [msgs(1)];
      const d = witnessesOf([sparse]);
      expectAt(d, 0, 0n, 2);
      expectAt(d, 1, 2n, 3);
      expectAt(d, 2, 3n, 3);
      expectAt(d, 3, 2n, 2);
      expectAt(d, 4, 3n, 2);
    });

    test('one message in a multi-checkpoint epoch rises to its checkpoint leaf', () => {
      const [m] = msgs(1) as [bigint];
      const epoch: Epoch = [
        [[[], []], [[], [], []], [[]]],
        [[[]], [[], []]],
        [[[], []], [[]], [[m]], [[]]],
        [[[], []]],
        [[[], []], [[]], [[], [], []], [[], []]],
      ];
      const w = computeL2ToL1MembershipWitness(
        epoch,
        7,
        { checkpointIndex: 2, blockIndex: 2, txIndex: 0, messageIndexInTx: 0 },
        5,
      );
      assert.equal(w.epochNumber, 7);
      assert.equal(w.numCheckpointsInEpoch, 5);
      assert.equal(w.leafIndex, 2n);
      assert.equal(w.siblingPath.length, EPOCH);
      assert.ok(verifyL2ToL1Membership(m, w.leafIndex, w.siblingPath, w.root));
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties

/** Message counts: checkpoints (1-6) -> blocks (1-3) -> txs (0-4) -> messages (0-8, often 0). */
const epochShape = fc.array(
  fc.array(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8 })), { maxLength: 4 }), {
    minLength: 1,
    maxLength: 3,
  }),
  { minLength: 1, maxLength: 6 },
);

/** Fills a shape with distinct message hashes derived from `seed`. */
function fillEpoch(shape: number[][][], seed: bigint): Epoch {
  let n = 0n;
  return shape.map((blocks) =>
    blocks.map((txs) => txs.map((count) => Array.from({ length: count }, () => H(seed, ++n)))),
  );
}

describe('properties', () => {
  test('tree roots and out hashes agree with the model', () => {
    const leaf = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: (1n << 248n) - 1n }));
    fc.assert(
      fc.property(fc.array(leaf, { maxLength: 40 }), (leaves) => {
        assert.equal(wonkyShaRoot(leaves), modelWonky(leaves));
        assert.equal(unbalancedShaRoot(leaves), modelUnbalanced(leaves));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(epochShape, fc.bigInt({ min: 0n, max: 1n << 64n }), (shape, seed) => {
        const epoch = fillEpoch(shape, seed);
        for (const blocks of epoch) {
          assert.equal(computeCheckpointOutHash(blocks), modelCheckpoint(blocks));
          for (const txs of blocks) {
            assert.equal(computeBlockOutHash(txs), modelWonky(txs.map(modelUnbalanced)));
          }
        }
        const partial = computePartialEpochOutHashes(epoch.map(computeCheckpointOutHash));
        for (let k = 0; k <= epoch.length; k++) {
          assert.equal(computeEpochOutHash(epoch, k), modelEpochRoot(epoch, k));
          if (k > 0) assert.equal(partial[k - 1], modelEpochRoot(epoch, k));
        }
      }),
      { numRuns: 100 },
    );
  });

  test('every witness verifies against each covering partial-epoch root; leaf ids are stable', () => {
    fc.assert(
      fc.property(epochShape, fc.bigInt({ min: 0n, max: 1n << 64n }), fc.nat(), (shape, seed, pick) => {
        const epoch = fillEpoch(shape, seed);
        const positions = epoch.flatMap((blocks, checkpointIndex) =>
          blocks.flatMap((txs, blockIndex) =>
            txs.flatMap((messages, txIndex) =>
              messages.map((message, messageIndexInTx) => ({
                message,
                position: { checkpointIndex, blockIndex, txIndex, messageIndexInTx },
              })),
            ),
          ),
        );
        const firstId = new Map<bigint, bigint>();
        for (let k = 1; k <= epoch.length; k++) {
          const tree = buildL2ToL1EpochTree(epoch, k);
          assert.equal(tree.root, modelEpochRoot(epoch, k));
          const ids = new Set<bigint>();
          for (const { message, position } of positions) {
            if (position.checkpointIndex >= k) continue;
            const w = tree.witness(position);
            assert.equal(w.numCheckpointsInEpoch, k);
            assert.ok(w.siblingPath.length >= EPOCH);
            assert.ok(w.leafIndex < 1n << BigInt(w.siblingPath.length));
            assert.ok(verifyL2ToL1Membership(message, w.leafIndex, w.siblingPath, tree.root));
            assert.equal(modelFold(message, w.leafIndex, w.siblingPath), tree.root);
            const id = getL2ToL1MessageLeafId(w);
            assert.ok(!ids.has(id), 'leaf ids are unique within a root');
            ids.add(id);
            const earlier = firstId.get(message);
            if (earlier === undefined) firstId.set(message, id);
            else assert.equal(id, earlier, 'leaf id is the same for every covering numCheckpointsInEpoch');

            if (k === position.checkpointIndex + 1) {
              // The smallest covering root: also check that tampering fails.
              assert.ok(!verifyL2ToL1Membership(message, w.leafIndex, w.siblingPath, tree.root ^ 1n));
              assert.ok(!verifyL2ToL1Membership(message ^ 1n, w.leafIndex, w.siblingPath, tree.root));
              const level = pick % w.siblingPath.length;
              const flipped = w.leafIndex ^ (1n << BigInt(level));
              assert.ok(!verifyL2ToL1Membership(message, flipped, w.siblingPath, tree.root));
              assert.ok(
                !verifyL2ToL1Membership(
                  message,
                  w.leafIndex + (1n << BigInt(w.siblingPath.length)),
                  w.siblingPath,
                  tree.root,
                ),
              );
              const badPath = w.siblingPath.slice();
              badPath[level] = badPath[level]! ^ 1n;
              assert.ok(!verifyL2ToL1Membership(message, w.leafIndex, badPath, tree.root));
              assert.ok(
                !verifyL2ToL1Membership(message, w.leafIndex >> 1n, w.siblingPath.slice(1), tree.root),
              );
            }
          }
        }
        // The one-shot API agrees with the tree builder.
        if (positions.length > 0) {
          const { message, position } = positions[pick % positions.length]!;
          const k = epoch.length;
          const w = computeL2ToL1MembershipWitness(epoch, 3, position, k);
          const { messageIndexInTx: _, ...tx } = position;
          assert.deepEqual(computeL2ToL1MembershipWitnessForMessage(epoch, 3, tx, message, k), w);
          assert.deepEqual(w, { epochNumber: 3, ...buildL2ToL1EpochTree(epoch, k).witness(position) });
        }
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Duplicates, errors, helpers

describe('message lookup and errors', () => {
  const m = 0x1234n;
  const x = 0x5678n;
  const epoch = { checkpoints: [{ blocks: [{ txs: [[x], [m, m, x]] }] }] };
  const tx = { checkpointIndex: 0, blockIndex: 0, txIndex: 1 };

  test('a duplicated value needs messageIndexInTx', () => {
    assert.throws(
      () => computeL2ToL1MembershipWitnessForMessage(epoch, 0, tx, m, 1),
      /Multiple messages with the same value 0x1234 found in tx \(indices: 0, 1\); provide messageIndexInTx/,
    );
    assert.throws(() => resolveL2ToL1MessageIndex([m, m], m), /Multiple messages with the same value/);
    const w0 = computeL2ToL1MembershipWitnessForMessage(epoch, 0, tx, m, 1, 0);
    const w1 = computeL2ToL1MembershipWitnessForMessage(epoch, 0, tx, m, 1, 1);
    // Block tree: [tx0, tx1] -> tx1 is the right leaf; tx tree of 3: m0 at 00, m1 at 01 (2 levels).
    assert.equal(w0.leafIndex, 0b100n);
    assert.equal(w1.leafIndex, 0b101n);
    assert.equal(w0.siblingPath.length, 3 + EPOCH);
    assert.ok(verifyL2ToL1Membership(m, w0.leafIndex, w0.siblingPath, w0.root));
    assert.ok(verifyL2ToL1Membership(m, w1.leafIndex, w1.siblingPath, w1.root));
    assert.notEqual(getL2ToL1MessageLeafId(w0), getL2ToL1MessageLeafId(w1));
    assert.equal(w0.root, computeEpochOutHash(epoch));
    // A unique value is found without an index.
    const wx = computeL2ToL1MembershipWitnessForMessage(epoch, 0, tx, x, 1);
    assert.equal(wx.leafIndex, 0b11n);
  });

  test('wrong index, missing message, bad positions', () => {
    assert.throws(() => resolveL2ToL1MessageIndex([m, x], x, 0), /does not match the expected message/);
    assert.throws(() => resolveL2ToL1MessageIndex([m, x], 0x9n), /does not exist/);
    const position = { ...tx, messageIndexInTx: 0 };
    assert.throws(() => computeL2ToL1MembershipWitness(epoch, 0, position, 2), /only 1 checkpoints/);
    assert.throws(() => computeL2ToL1MembershipWitness(epoch, 0, position, 0), RangeError);
    assert.throws(
      () => computeL2ToL1MembershipWitness(epoch, 0, { ...position, txIndex: 2 }, 1),
      /txIndex 2/,
    );
    assert.throws(
      () => computeL2ToL1MembershipWitness(epoch, 0, { ...position, messageIndexInTx: 3 }, 1),
      /messageIndexInTx 3/,
    );
    const two = [[[[m]]], [[[x]]]];
    assert.throws(
      () => computeL2ToL1MembershipWitness(two, 0, { ...position, checkpointIndex: 1, txIndex: 0 }, 1),
      /not covered/,
    );
    assert.throws(() => computeEpochOutHash(Array.from({ length: 33 }, () => [])), /at most 32/);
    assert.throws(() => computeTxOutHash([-1n]), RangeError);
    assert.throws(() => balancedShaRoot([1n, 2n, 3n]), /power-of-two/);
  });

  test('verifyL2ToL1Membership rejects malformed input', () => {
    assert.ok(verifyL2ToL1Membership(5n, 0n, [], 5n));
    assert.ok(!verifyL2ToL1Membership(5n, 1n, [], 5n));
    assert.ok(!verifyL2ToL1Membership(5n, -1n, [6n], H(5n, 6n)));
    assert.ok(verifyL2ToL1Membership(5n, 0n, [6n], H(5n, 6n)));
    assert.ok(verifyL2ToL1Membership(5n, 1n, [6n], H(6n, 5n)));
    assert.ok(!verifyL2ToL1Membership(5n, 0n, [1n << 256n], 0n));
  });

  test('smallest covering Outbox root', () => {
    const roots = [0n, 0n, 7n, 0n, 9n, ...new Array<bigint>(27).fill(0n)];
    assert.equal(smallestCoveringNumCheckpoints(roots, 0), 3);
    assert.equal(smallestCoveringNumCheckpoints(roots, 2), 3);
    assert.equal(smallestCoveringNumCheckpoints(roots, 3), 5);
    assert.equal(smallestCoveringNumCheckpoints(roots, 5), undefined);
  });
});
