// Message queries (src/node/message-queries.ts) over a real chain: a world state whose
// checkpoints' first blocks insert L1-to-L2 messages, an archiver ChainStore fed with the same
// blocks (proposed, then published as checkpoints), the inbox's MessageSent events in its
// message index, and a fake outbox that returns the roots a test chooses.
//
// The chain (epochDuration 4, so slots 0-3 are epoch 0):
//   cp 1, slot 1: block 1 (T1 [a1], T2 []), block 2 (T3 [a2, a3])          epoch 0, index 0
//   cp 2, slot 2: block 3 (T4 [], inserts M_A, M_B), block 4 (T5 [b1])     epoch 0, index 1
//   cp 3, slot 3: block 5 (T6 [x, x, c1], inserts M_C), block 6 (no txs)   epoch 0, index 2
//   cp 4, slot 5: block 7 (T7 [d1])                                        epoch 1, index 0
//   cp 5, slot 9: block 8 (T8 [e1], inserts M_D), proposed only            epoch 2
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkpointOfMessageIndex } from '../../src/archiver/message-store.js';
import type { PublishedCheckpoint } from '../../src/archiver/types.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT, type L2Block, type TxEffect } from '../../src/core/block.js';
import { emptyCheckpointHeader, emptyGlobalVariables } from '../../src/core/block-header.js';
import { NodeError } from '../../src/core/errors.js';
import type { Fr } from '../../src/core/field.js';
import {
  computeEpochOutHash,
  type NestedEpochL2ToL1Messages,
  verifyL2ToL1Membership,
} from '../../src/core/out-hash.js';
import type { L1RollupConstants } from '../../src/core/time.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import { type BlockRef, ChainQueries } from '../../src/queries/chain.js';
import { MessageQueries, type OutboxReader } from '../../src/queries/messages.js';
import { StateQueries } from '../../src/queries/state.js';
import { TreeId } from '../../src/world-state/types.js';
import {
  emptyTxEffect,
  openTestChainStore,
  openTestWorldState,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';
import { rootFromPath } from '../world-state/model.js';

const constants: L1RollupConstants = {
  l1StartBlock: 0n,
  l1GenesisTime: 0n,
  slotDuration: 36,
  epochDuration: 4,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 0,
  rollupManaLimit: 1_000_000_000,
};

// ---- messages ------------------------------------------------------------------------------------

// L1-to-L2 messages with their global indexes (the checkpoint follows from the index).
const M_Z = { leaf: 0x2001n, index: 3n }; // group 1: inserted by cp 1 (block 1)
const M_A = { leaf: 0x2002n, index: 1024n }; // cp 2 (block 3), position 0
const M_B = { leaf: 0x2003n, index: 1025n }; // cp 2, position 1
const M_C = { leaf: 0x2004n, index: 2048n + 7n }; // cp 3 (block 5), position 7
const M_D = { leaf: 0x2005n, index: 4096n }; // cp 5 (block 8, proposed only)
const M_E = { leaf: 0x2006n, index: 5n * 1024n + 9n }; // cp 6: no block yet
const UNKNOWN_MESSAGE = 0x2fffn;

/** The 1024 leaves a checkpoint's first block inserts, with `messages` at their positions. */
function group(checkpoint: number, messages: { leaf: Fr; index: bigint }[]): Fr[] {
  const leaves = new Array<Fr>(L1_TO_L2_MESSAGES_PER_CHECKPOINT).fill(0n);
  for (const m of messages) {
    assert.equal(checkpointOfMessageIndex(m.index), checkpoint);
    leaves[Number(m.index) - (checkpoint - 1) * L1_TO_L2_MESSAGES_PER_CHECKPOINT] = m.leaf;
  }
  return leaves;
}

// L2-to-L1 message leaves and the txs that carry them.
const [a1, a2, a3, b1, c1, x, d1, e1] = [0xa1n, 0xa2n, 0xa3n, 0xb1n, 0xc1n, 0x99n, 0xd1n, 0xe1n];
const tx = (n: number, l2ToL1Msgs: Fr[]): TxEffect => emptyTxEffect(0x7000n + BigInt(n), { l2ToL1Msgs });
const T1 = tx(1, [a1]);
const T2 = tx(2, []);
const T3 = tx(3, [a2, a3]);
const T4 = tx(4, []);
const T5 = tx(5, [b1]);
const T6 = tx(6, [x, x, c1]);
const T7 = tx(7, [d1]);
const T8 = tx(8, [e1]);
const UNKNOWN_TX = 0x7fffn;

/** Epoch 0's messages: checkpoints → blocks → txs → messages. */
const EPOCH_0: NestedEpochL2ToL1Messages = [
  [[[a1], []], [[a2, a3]]],
  [[[]], [[b1]]],
  [[[x, x, c1]], []],
];
const EPOCH_1: NestedEpochL2ToL1Messages = [[[[d1]]]];
/** The outbox roots over the first 1, 2 and 3 checkpoints of epoch 0. */
const R = [1, 2, 3].map((k) => computeEpochOutHash(EPOCH_0, k));
const [R1, R2, R3] = R as [Fr, Fr, Fr];

// ---- the chain -----------------------------------------------------------------------------------

let world: TestWorldState;
let chain: TestChainStore;
let q: MessageQueries;
const blocks: L2Block[] = [];
/** The fake outbox: the roots it answers with per epoch, and the questions it was asked. */
const outboxRoots = new Map<number, Fr[]>();
const outboxCalls: { epoch: number; atL1Block: bigint }[] = [];
const outbox: OutboxReader = {
  async outboxEpochRoots(epoch, atL1Block) {
    outboxCalls.push({ epoch, atL1Block });
    return outboxRoots.get(epoch) ?? [];
  },
};

before(async () => {
  world = await openTestWorldState('cairn-message-queries-ws-');
  chain = openTestChainStore(world.genesis, { prefix: 'cairn-message-queries-' });
  const store = chain.store;
  const state = new StateQueries(world.ws, new ChainQueries(store, constants), () => store.latestBlockNumber);
  q = new MessageQueries(store, state, outbox, { epochDuration: constants.epochDuration });
  blocks.push(world.genesis);
  store.messages.add(
    [M_Z, M_A, M_B, M_C, M_D, M_E].map((m, i) => ({
      checkpointNumber: checkpointOfMessageIndex(m.index),
      index: m.index,
      leaf: m.leaf,
      l1BlockNumber: 50n + BigInt(i),
    })),
  );
});
after(async () => {
  await chain.close();
  await world.close();
});

/** Builds the next block on the world state, commits it and adds it to the store as proposed. */
async function propose(
  checkpointNumber: number,
  indexWithinCheckpoint: number,
  slotNumber: number,
  txEffects: TxEffect[],
  l1ToL2Messages?: Fr[],
): Promise<L2Block> {
  const fork = world.ws.fork();
  const blockNumber = world.ws.latestBlockNumber + 1;
  const block = buildBlock(fork, {
    globalVariables: { ...emptyGlobalVariables(), blockNumber, slotNumber },
    txEffects,
    checkpointNumber,
    indexWithinCheckpoint,
    ...(indexWithinCheckpoint === 0 ? { l1ToL2Messages: l1ToL2Messages ?? [] } : {}),
    totalManaUsed: 0n,
  });
  await world.ws.commit(fork);
  chain.store.addProposedBlock(block);
  blocks.push(block);
  assert.equal(block.number, blocks.length - 1);
  return block;
}

const l1 = (n: number) => ({
  blockNumber: BigInt(n),
  blockHash: `0x${n.toString(16).padStart(64, '0')}`,
  timestamp: 1000n + BigInt(n),
});

/** Publishes the checkpoint of `numbers` (blocks already proposed) as read from L1 block `l1Block`. */
function publish(checkpoint: number, numbers: number[], slot: number, l1Block: number): void {
  const bs = numbers.map((n) => blocks[n]!);
  const published: PublishedCheckpoint = {
    checkpoint: {
      number: checkpoint,
      header: {
        ...emptyCheckpointHeader(),
        slotNumber: slot,
        lastArchiveRoot: bs[0]!.header.lastArchive.root,
      },
      archive: bs[bs.length - 1]!.archive,
      hash: BigInt(1000 + checkpoint),
      startBlock: bs[0]!.number,
      blockCount: bs.length,
      feeAssetPriceModifier: 0n,
      checkpointOutHash: 0n,
    },
    l1: { blockNumber: BigInt(l1Block), timestamp: 1234n, blockHash: l1(l1Block).blockHash },
    attestations: [],
  };
  chain.store.addCheckpoint(published, bs, l1(l1Block));
}

const latest = (): BlockRef => ({ kind: 'number', number: chain.store.latestBlockNumber });
const l1ToL2Root = () => world.ws.at(world.ws.latestBlockNumber).snapshot(TreeId.L1_TO_L2_MESSAGE).root;

/** Asserts a NodeError of kind invalid-params whose message matches. */
async function rejectsInvalidParams(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof NodeError, `expected a NodeError, got ${err}`);
    assert.equal(err.kind, 'invalid-params');
    assert.match(err.message, message);
    return true;
  });
}

// ---- L1-to-L2 --------------------------------------------------------------------------------------

describe('MessageQueries: L1-to-L2 messages as the chain grows', () => {
  test('at genesis: known messages have a checkpoint and are synced, but no block or witness', () => {
    assert.equal(world.ws.at(0).snapshot(TreeId.L1_TO_L2_MESSAGE).nextAvailableLeafIndex, 0);
    assert.equal(q.l1ToL2MessageCheckpoint(M_Z.leaf), 1);
    assert.equal(q.l1ToL2MessageCheckpoint(M_A.leaf), 2);
    assert.equal(q.l1ToL2MessageCheckpoint(M_B.leaf), 2);
    assert.equal(q.l1ToL2MessageCheckpoint(M_C.leaf), 3);
    assert.equal(q.l1ToL2MessageCheckpoint(M_D.leaf), 5);
    assert.equal(q.l1ToL2MessageCheckpoint(M_E.leaf), 6);
    assert.equal(q.l1ToL2MessageCheckpoint(UNKNOWN_MESSAGE), undefined);
    for (const m of [M_Z, M_A, M_B, M_C, M_D, M_E]) assert.equal(q.isL1ToL2MessageSynced(m.leaf), true);
    assert.equal(q.isL1ToL2MessageSynced(UNKNOWN_MESSAGE), false);
    for (const m of [M_Z, M_A, M_E]) assert.equal(q.l1ToL2MessageBlock(m.leaf), undefined);
    assert.equal(q.l1ToL2MessageBlock(UNKNOWN_MESSAGE), undefined);
    assert.equal(q.l1ToL2MessageMembershipWitness(latest(), M_Z.leaf), undefined);
  });

  test("checkpoint 1 proposed: its messages' block is its first block; later checkpoints' are not yet", async () => {
    await propose(1, 0, 1, [T1, T2], group(1, [M_Z]));
    await propose(1, 1, 1, [T3]);
    assert.equal(q.l1ToL2MessageBlock(M_Z.leaf), 1);
    assert.equal(q.l1ToL2MessageBlock(M_A.leaf), undefined);
    assert.equal(q.l1ToL2MessageBlock(M_E.leaf), undefined);
    // M_Z is in the tree; M_A is not inserted yet.
    const w = q.l1ToL2MessageMembershipWitness(latest(), M_Z.leaf)!;
    assert.equal(w.leafIndex, M_Z.index);
    assert.equal(w.siblingPath.length, 36);
    assert.equal(rootFromPath(M_Z.leaf, Number(w.leafIndex), w.siblingPath), l1ToL2Root());
    assert.equal(q.l1ToL2MessageMembershipWitness(latest(), M_A.leaf), undefined);
    // Published: the same answer, from the checkpoint.
    publish(1, [1, 2], 1, 101);
    assert.equal(q.l1ToL2MessageBlock(M_Z.leaf), 1);
    assert.equal(q.l1ToL2MessageBlock(M_A.leaf), undefined);
  });

  test('checkpoint 2 proposed, not published: M_A and M_B are in its first block and its tree', async () => {
    const block3 = await propose(2, 0, 2, [T4], group(2, [M_A, M_B]));
    assert.equal(chain.store.latestCheckpointNumber, 1);
    assert.equal(q.l1ToL2MessageBlock(M_A.leaf), 3);
    assert.equal(q.l1ToL2MessageBlock(M_B.leaf), 3);
    assert.equal(q.l1ToL2MessageBlock(M_C.leaf), undefined);
    for (const m of [M_A, M_B]) {
      const w = q.l1ToL2MessageMembershipWitness(latest(), m.leaf)!;
      assert.equal(w.leafIndex, m.index);
      assert.equal(rootFromPath(m.leaf, Number(w.leafIndex), w.siblingPath), l1ToL2Root());
      assert.equal(
        rootFromPath(m.leaf, Number(w.leafIndex), w.siblingPath),
        block3.header.state.l1ToL2MessageTree.root,
      );
    }
    // A wrong leaf does not fold to the root with M_A's path.
    const wA = q.l1ToL2MessageMembershipWitness(latest(), M_A.leaf)!;
    assert.notEqual(rootFromPath(M_B.leaf, Number(wA.leafIndex), wA.siblingPath), l1ToL2Root());
    assert.equal(q.l1ToL2MessageMembershipWitness(latest(), M_C.leaf), undefined);
    assert.equal(q.l1ToL2MessageMembershipWitness(latest(), UNKNOWN_MESSAGE), undefined);
    // A second block of the checkpoint does not move the answer.
    await propose(2, 1, 2, [T5]);
    assert.equal(q.l1ToL2MessageBlock(M_A.leaf), 3);
    publish(2, [3, 4], 2, 102);
    assert.equal(q.l1ToL2MessageBlock(M_A.leaf), 3);
    assert.equal(q.l1ToL2MessageBlock(M_B.leaf), 3);
  });

  test('checkpoint 3: found behind a later block of the same proposed checkpoint, then published', async () => {
    await propose(3, 0, 3, [T6], group(3, [M_C]));
    await propose(3, 1, 3, []);
    assert.equal(q.l1ToL2MessageBlock(M_C.leaf), 5);
    const w = q.l1ToL2MessageMembershipWitness(latest(), M_C.leaf)!;
    assert.equal(w.leafIndex, M_C.index);
    assert.equal(rootFromPath(M_C.leaf, Number(w.leafIndex), w.siblingPath), l1ToL2Root());
    publish(3, [5, 6], 3, 103);
    assert.equal(q.l1ToL2MessageBlock(M_C.leaf), 5);
  });

  test('checkpoints 4 (published) and 5 (proposed only): M_D in block 8, M_E not yet in any block', async () => {
    await propose(4, 0, 5, [T7]);
    publish(4, [7], 5, 104);
    assert.equal(q.l1ToL2MessageBlock(M_D.leaf), undefined);
    await propose(5, 0, 9, [T8], group(5, [M_D]));
    assert.equal(q.l1ToL2MessageBlock(M_D.leaf), 8);
    assert.equal(q.l1ToL2MessageBlock(M_E.leaf), undefined);
    const w = q.l1ToL2MessageMembershipWitness(latest(), M_D.leaf)!;
    assert.equal(w.leafIndex, M_D.index);
    assert.equal(rootFromPath(M_D.leaf, Number(w.leafIndex), w.siblingPath), l1ToL2Root());
    assert.equal(q.l1ToL2MessageMembershipWitness(latest(), M_E.leaf), undefined);
    // Earlier answers stand.
    assert.equal(q.l1ToL2MessageBlock(M_Z.leaf), 1);
    assert.equal(q.l1ToL2MessageBlock(M_A.leaf), 3);
    assert.equal(q.l1ToL2MessageBlock(M_C.leaf), 5);
    assert.equal(q.l1ToL2MessageCheckpoint(M_D.leaf), 5);
  });
});

// ---- L2-to-L1 --------------------------------------------------------------------------------------

describe('MessageQueries: L2-to-L1 messages of blocks and epochs', () => {
  test('l2ToL1MessagesOfBlock: per tx, [] for a block without txs, undefined for an unknown block', () => {
    assert.deepEqual(q.l2ToL1MessagesOfBlock(0), []);
    assert.deepEqual(q.l2ToL1MessagesOfBlock(1), [[a1], []]);
    assert.deepEqual(q.l2ToL1MessagesOfBlock(2), [[a2, a3]]);
    assert.deepEqual(q.l2ToL1MessagesOfBlock(5), [[x, x, c1]]);
    assert.deepEqual(q.l2ToL1MessagesOfBlock(6), []);
    // Proposed blocks count too.
    assert.deepEqual(q.l2ToL1MessagesOfBlock(8), [[e1]]);
    assert.equal(q.l2ToL1MessagesOfBlock(9), undefined);
    assert.equal(q.l2ToL1MessagesOfBlock(-1), undefined);
  });

  test("l2ToL1Messages(epoch): the epoch's checkpointed blocks, [] for an epoch without checkpoints", () => {
    assert.deepEqual(q.l2ToL1Messages(0), EPOCH_0);
    assert.deepEqual(q.l2ToL1Messages(1), EPOCH_1);
    // Epoch 2 holds only the proposed checkpoint 5.
    assert.deepEqual(q.l2ToL1Messages(2), []);
    assert.deepEqual(q.l2ToL1Messages(3), []);
    assert.deepEqual(q.l2ToL1Messages(1000), []);
  });
});

describe('MessageQueries: l2ToL1MembershipWitness', () => {
  const witness = async (txHash: Fr, message: Fr, roots: Fr[], epoch = 0, index?: number) => {
    outboxRoots.set(epoch, roots);
    return q.l2ToL1MembershipWitness(txHash, message, index);
  };

  test('the partial roots differ (the fixture is meaningful)', () => {
    assert.equal(new Set([R1, R2, R3, 0n]).size, 4);
  });

  test('an unknown tx: undefined; a tx not checkpointed yet: undefined, without asking the outbox', async () => {
    outboxCalls.length = 0;
    assert.equal(await witness(UNKNOWN_TX, a1, [R1, R2, R3]), undefined);
    assert.equal(await witness(T8.txHash, e1, [R1, R2, R3], 2), undefined);
    assert.deepEqual(outboxCalls, []);
  });

  test('no covering root on L1 yet: undefined', async () => {
    assert.equal(await witness(T1.txHash, a1, []), undefined);
    assert.equal(await witness(T1.txHash, a1, new Array(32).fill(0n)), undefined);
    // c1 is in checkpoint index 2: roots over 1 and 2 checkpoints do not cover it.
    assert.equal(await witness(T6.txHash, c1, [R1, R2]), undefined);
    assert.equal(await witness(T6.txHash, c1, [R1, R2, 0n, 0n]), undefined);
  });

  test('the outbox is asked for the epoch as of the synced L1 block', async () => {
    outboxCalls.length = 0;
    await witness(T1.txHash, a1, [R1]);
    await witness(T7.txHash, d1, [computeEpochOutHash(EPOCH_1, 1)], 1);
    assert.deepEqual(outboxCalls, [
      { epoch: 0, atL1Block: 104n },
      { epoch: 1, atL1Block: 104n },
    ]);
    chain.store.setL1SyncPoint(l1(150));
    outboxCalls.length = 0;
    await witness(T1.txHash, a1, [R1]);
    assert.deepEqual(outboxCalls, [{ epoch: 0, atL1Block: 150n }]);
  });

  test('the smallest covering root is used, and the witness verifies against it', async () => {
    const cases: { tx: TxEffect; message: Fr; roots: Fr[]; k: number }[] = [
      { tx: T1, message: a1, roots: [R1, R2, R3], k: 1 },
      { tx: T1, message: a1, roots: [0n, R2, R3], k: 2 },
      { tx: T1, message: a1, roots: [0n, 0n, R3], k: 3 },
      { tx: T3, message: a3, roots: [R1, R2, R3], k: 1 },
      { tx: T5, message: b1, roots: [R1, R2, R3], k: 2 },
      { tx: T5, message: b1, roots: [R1, 0n, R3], k: 3 },
      { tx: T6, message: c1, roots: [R1, R2, R3, ...new Array(29).fill(0n)], k: 3 },
    ];
    for (const c of cases) {
      const w = (await witness(c.tx.txHash, c.message, c.roots))!;
      assert.ok(w, `a witness for ${c.message.toString(16)} with ${c.k} checkpoints`);
      assert.equal(w.epochNumber, 0);
      assert.equal(w.numCheckpointsInEpoch, c.k);
      assert.equal(w.root, R[c.k - 1]);
      assert.equal(verifyL2ToL1Membership(c.message, w.leafIndex, w.siblingPath, w.root), true);
      // Not against another root, nor for another message.
      assert.equal(verifyL2ToL1Membership(c.message, w.leafIndex, w.siblingPath, R[c.k % 3]!), false);
      assert.equal(verifyL2ToL1Membership(c.message + 1n, w.leafIndex, w.siblingPath, w.root), false);
    }
    const d = (await witness(T7.txHash, d1, [computeEpochOutHash(EPOCH_1, 1)], 1))!;
    assert.equal(d.epochNumber, 1);
    assert.equal(d.numCheckpointsInEpoch, 1);
    assert.equal(verifyL2ToL1Membership(d1, d.leafIndex, d.siblingPath, d.root), true);
  });

  test('the path runs tx tree, block tree, checkpoint tree, then the 5 epoch-tree levels', async () => {
    // a1: alone in its tx and (T2 has no messages) in its block; block 0 of 2 in checkpoint 0.
    const w1 = (await witness(T1.txHash, a1, [R1]))!;
    assert.equal(w1.leafIndex, 0n);
    assert.equal(w1.siblingPath.length, 1 + 5);
    // a3: second of T3's two messages (sibling a2); block 1 of checkpoint 0, whose sibling is
    // block 1's out hash, a1 itself (the only message there).
    const w3 = (await witness(T3.txHash, a3, [R1]))!;
    assert.equal(w3.leafIndex, 0b11n);
    assert.equal(w3.siblingPath.length, 2 + 5);
    assert.deepEqual(w3.siblingPath.slice(0, 2), [a2, a1]);
  });

  test('a local root that differs from the outbox root throws', async () => {
    await assert.rejects(witness(T1.txHash, a1, [R1 + 1n]), /does not match Outbox/);
    await assert.rejects(witness(T1.txHash, a1, [0n, R3]), /does not match Outbox/);
  });

  test('an outbox root over more checkpoints than the node has throws', async () => {
    await assert.rejects(witness(T6.txHash, c1, [R1, R2, 0n, 0x1234n]), /root over 4 checkpoints/);
  });

  test('a message twice in the tx needs messageIndexInTx; with it, each copy has its own witness', async () => {
    const roots = [R1, R2, R3];
    await rejectsInvalidParams(witness(T6.txHash, x, roots), /messageIndexInTx/);
    const w0 = (await witness(T6.txHash, x, roots, 0, 0))!;
    const w1 = (await witness(T6.txHash, x, roots, 0, 1))!;
    assert.notEqual(w0.leafIndex, w1.leafIndex);
    for (const w of [w0, w1]) {
      assert.equal(w.numCheckpointsInEpoch, 3);
      assert.equal(verifyL2ToL1Membership(x, w.leafIndex, w.siblingPath, R3), true);
    }
    // The unique message works with or without its index; a wrong index is invalid params.
    const c = (await witness(T6.txHash, c1, roots, 0, 2))!;
    assert.deepEqual(c, await witness(T6.txHash, c1, roots));
    await rejectsInvalidParams(witness(T6.txHash, x, roots, 0, 2), /does not match/);
    await rejectsInvalidParams(witness(T6.txHash, c1, roots, 0, 0), /does not match/);
    await rejectsInvalidParams(witness(T6.txHash, c1, roots, 0, 3), /does not match/);
  });

  test('a message the tx does not have is invalid params', async () => {
    const roots = [R1, R2, R3];
    await rejectsInvalidParams(witness(T1.txHash, a2, roots), /does not exist in the tx/);
    await rejectsInvalidParams(witness(T2.txHash, a1, roots), /does not exist in the tx/);
    await rejectsInvalidParams(witness(T6.txHash, 0x4242n, roots), /does not exist in the tx/);
  });
});
