// ChainStore.rewind (an operator's rollback and an L1 that lost blocks: unwind blocks and the
// checkpoints holding them, move the L1 sync point back, forget later L1-to-L2 messages, all in
// one write), lastCheckpointUpTo and lastBlockOfCheckpoint; with a property test against a plain
// model of checkpoints as runs of blocks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import { checkpointOfMessageIndex } from '../../src/archiver/message-store.js';
import type { L1SyncPoint, PublishedCheckpoint } from '../../src/archiver/types.js';
import type { L2Block } from '../../src/core/block.js';
import type { MessageSentEvent } from '../../src/l1/rollup-client.js';
import { l1SyncPoint, publishedCheckpoint, storeTx as tx } from '../helpers/chain-store-fixtures.js';
import {
  nextBlock,
  openTestChainStore,
  openTestWorldState,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';

/** Checkpoint n's slot: distinct per checkpoint. */
const slotOf = (checkpoint: number) => 10 + 2 * checkpoint;
/** Checkpoint n was published in L1 block 100 + 10n. */
const l1BlockOf = (checkpoint: number) => BigInt(100 + 10 * checkpoint);

const l1Point = (blockNumber: bigint): L1SyncPoint => l1SyncPoint(blockNumber, 7n * blockNumber);

const published = (number: number, blocks: readonly L2Block[]): PublishedCheckpoint =>
  publishedCheckpoint(number, blocks, {
    slot: slotOf(number),
    l1: { ...l1Point(l1BlockOf(number)), timestamp: 1234n },
  });

const message = (leaf: bigint, index: bigint, l1BlockNumber: bigint): MessageSentEvent => ({
  checkpointNumber: checkpointOfMessageIndex(index),
  index,
  leaf,
  l1BlockNumber,
});

interface Chain {
  /** Block n at index n (index 0 is genesis). */
  blocks: L2Block[];
  /** The blocks of checkpoint c at index c - 1. */
  checkpoints: L2Block[][];
  /** Blocks after the last checkpoint, proposed only. */
  proposed: L2Block[];
}

/**
 * Builds, on a world state rolled back to genesis, checkpoints of `sizes` blocks followed by
 * `proposed` blocks of the next checkpoint; every block has one tx.
 */
async function buildChain(world: TestWorldState, sizes: readonly number[], proposed: number): Promise<Chain> {
  await world.ws.rollbackTo(0);
  const chain: Chain = { blocks: [world.genesis], checkpoints: [], proposed: [] };
  const groups = [...sizes, proposed];
  for (const [c, size] of groups.entries()) {
    const group: L2Block[] = [];
    for (let i = 0; i < size; i++) {
      const number = world.ws.latestBlockNumber + 1;
      const block = await nextBlock(world.ws, [tx(BigInt(number))], {
        checkpointNumber: c + 1,
        indexWithinCheckpoint: i,
        slotNumber: slotOf(c + 1),
      });
      group.push(block);
      chain.blocks.push(block);
    }
    if (c < sizes.length) chain.checkpoints.push(group);
    else chain.proposed = group;
  }
  return chain;
}

/** Stores `chain` in a new chain store: the checkpoints, then the proposed blocks. */
function storeChain(world: TestWorldState, chain: Chain): TestChainStore {
  const opened = openTestChainStore(world.genesis, { prefix: 'cairn-rewind-' });
  chain.checkpoints.forEach((blocks, i) => {
    opened.store.addCheckpoint(published(i + 1, blocks), blocks, l1Point(l1BlockOf(i + 1)));
  });
  for (const block of chain.proposed) opened.store.addProposedBlock(block);
  return opened;
}

/** The last block of each checkpoint in the model (index c - 1). */
const checkpointEnds = (sizes: readonly number[]): number[] => {
  let end = 0;
  return sizes.map((s) => (end += s));
};

/** The model of lastCheckpointUpTo: the last checkpoint ending at or before `block`. */
const modelLastCheckpointUpTo = (sizes: readonly number[], block: number): number =>
  checkpointEnds(sizes).filter((end) => end <= block).length;

function assertBlocksUpTo(store: ChainStore, chain: Chain, kept: number): void {
  assert.equal(store.latestBlockNumber, kept);
  for (const block of chain.blocks) {
    const stays = block.number <= kept;
    assert.equal(store.getBlock(block.number)?.hash, stays ? block.hash : undefined, `block ${block.number}`);
    assert.equal(store.getBlockNumberByHash(block.hash), stays ? block.number : undefined);
    assert.equal(store.getBlockNumberByArchive(block.archive.root), stays ? block.number : undefined);
    for (const effect of block.body.txEffects) {
      assert.equal(store.getTxEffect(effect.txHash)?.l2BlockNumber, stays ? block.number : undefined);
    }
  }
}

describe('ChainStore rewind', () => {
  let world: TestWorldState;
  /** Checkpoints 1: blocks 1-2, 2: blocks 3-5, 3: block 6, 4: blocks 7-8; blocks 9-10 proposed. */
  const SIZES = [2, 3, 1, 2];
  let chain: Chain;
  const opened: TestChainStore[] = [];
  const open = () => {
    const c = storeChain(world, chain);
    opened.push(c);
    return c;
  };

  before(async () => {
    world = await openTestWorldState('cairn-rewind-ws-');
    chain = await buildChain(world, SIZES, 2);
  });
  after(async () => {
    for (const c of opened) await c.close();
    await world.close();
  });

  test('lastBlockOfCheckpoint and lastCheckpointUpTo', () => {
    const { store } = open();
    assert.equal(store.latestBlockNumber, 10);
    assert.equal(store.latestCheckpointNumber, 4);
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((c) => store.lastBlockOfCheckpoint(c)),
      [0, 2, 5, 6, 8],
    );
    // Genesis.
    assert.equal(store.lastCheckpointUpTo(0), 0);
    // At a checkpoint's end.
    assert.equal(store.lastCheckpointUpTo(2), 1);
    assert.equal(store.lastCheckpointUpTo(5), 2);
    assert.equal(store.lastCheckpointUpTo(6), 3);
    assert.equal(store.lastCheckpointUpTo(8), 4);
    // In a checkpoint's middle: the checkpoint before.
    assert.equal(store.lastCheckpointUpTo(1), 0);
    assert.equal(store.lastCheckpointUpTo(3), 1);
    assert.equal(store.lastCheckpointUpTo(4), 1);
    assert.equal(store.lastCheckpointUpTo(7), 3);
    // Proposed only: the latest checkpoint.
    assert.equal(store.lastCheckpointUpTo(9), 4);
    assert.equal(store.lastCheckpointUpTo(10), 4);
    // Not stored.
    assert.throws(() => store.lastCheckpointUpTo(11), RangeError);
    assert.throws(() => store.lastCheckpointUpTo(-1), RangeError);
  });

  test('a rewind into a checkpoint removes it and later ones; its earlier blocks stay proposed', () => {
    const { store } = open();
    store.setProvenCheckpoint(3, 130n);
    store.setFinalizedCheckpoint(2);
    const restart = l1Point(l1BlockOf(1));
    const removed = store.rewind(4, restart);
    assert.deepEqual(
      removed.map((b) => b.number),
      [10, 9, 8, 7, 6, 5],
    );
    assert.deepEqual(
      removed.map((b) => b.hash),
      [10, 9, 8, 7, 6, 5].map((n) => chain.blocks[n]!.hash),
    );
    assertBlocksUpTo(store, chain, 4);
    // Checkpoint 2 (blocks 3-5) lost block 5: gone, with 3 and 4 left as proposed blocks.
    assert.equal(store.latestCheckpointNumber, 1);
    for (const c of [2, 3, 4]) {
      assert.equal(store.getCheckpoint(c), undefined, `checkpoint ${c}`);
      assert.equal(store.getCheckpointNumberBySlot(slotOf(c)), undefined);
    }
    assert.equal(store.getCheckpointNumberBySlot(slotOf(1)), 1);
    assert.equal(store.checkpointOfBlock(2), 1);
    assert.equal(store.checkpointOfBlock(3), undefined);
    const tips = store.getTips();
    assert.deepEqual(tips.proposed, { number: 4, hash: chain.blocks[4]!.hash });
    assert.equal(tips.checkpointed.checkpoint.number, 1);
    assert.equal(tips.checkpointed.block.number, 2);
    // Proven and finalized are capped at the last checkpoint kept.
    assert.equal(store.provenCheckpoint, 1);
    assert.equal(store.finalizedCheckpoint, 1);
    assert.deepEqual(store.l1SyncPoint, restart);
    // lastCheckpointUpTo now sees 3-4 as proposed only.
    assert.equal(store.lastCheckpointUpTo(4), 1);
    // The chain is read again: checkpoint 2 keeps the proposed blocks 3-4 and adds 5.
    const again = chain.checkpoints[1]!;
    store.addCheckpoint(published(2, again), again, l1Point(l1BlockOf(2)));
    assert.equal(store.latestCheckpointNumber, 2);
    assert.equal(store.getBlock(5)!.hash, chain.blocks[5]!.hash);
    assert.equal(store.checkpointOfBlock(3), 2);
  });

  test('a rewind to a checkpoint end keeps that checkpoint; proven below the cut is left alone', () => {
    const { store } = open();
    store.setProvenCheckpoint(2);
    store.setFinalizedCheckpoint(1);
    const removed = store.rewind(6, l1Point(l1BlockOf(3)));
    assert.deepEqual(
      removed.map((b) => b.number),
      [10, 9, 8, 7],
    );
    assertBlocksUpTo(store, chain, 6);
    assert.equal(store.latestCheckpointNumber, 3);
    assert.equal(store.getCheckpoint(3)!.checkpoint.startBlock, 6);
    assert.equal(store.getCheckpoint(4), undefined);
    assert.equal(store.provenCheckpoint, 2);
    assert.equal(store.finalizedCheckpoint, 1);
    assert.equal(store.getTips().checkpointed.block.number, 6);
  });

  test('a rewind in the proposed-only region keeps every checkpoint', () => {
    const { store } = open();
    const removed = store.rewind(9, l1Point(l1BlockOf(4)));
    assert.deepEqual(
      removed.map((b) => b.number),
      [10],
    );
    assertBlocksUpTo(store, chain, 9);
    assert.equal(store.latestCheckpointNumber, 4);
    assert.equal(store.getTips().proposed.number, 9);
  });

  test('a rewind to genesis removes every block and checkpoint', () => {
    const { store } = open();
    store.setProvenCheckpoint(4);
    store.setFinalizedCheckpoint(4);
    const restart = l1Point(99n);
    const removed = store.rewind(0, restart);
    assert.equal(removed.length, 10);
    assertBlocksUpTo(store, chain, 0);
    assert.equal(store.latestCheckpointNumber, 0);
    assert.equal(store.provenCheckpoint, 0);
    assert.equal(store.finalizedCheckpoint, 0);
    assert.deepEqual(store.checkpointNumbersFromSlot(0, 100, false), []);
    assert.equal(store.getTips().proposed.number, 0);
    assert.deepEqual(store.l1SyncPoint, restart);
  });

  test('a rewind that removes no block still moves the sync point back and forgets messages', () => {
    const { store } = open();
    store.messages.add([message(0xa1n, 1024n, 105n), message(0xa2n, 1025n, 125n)]);
    const restart = l1Point(l1BlockOf(1));
    assert.deepEqual(store.rewind(10, restart), []);
    assert.deepEqual(store.rewind(12, restart), []);
    assertBlocksUpTo(store, chain, 10);
    assert.equal(store.latestCheckpointNumber, 4);
    assert.deepEqual(store.l1SyncPoint, restart);
    assert.deepEqual(store.messages.get(0xa1n), { index: 1024n, l1BlockNumber: 105n });
    assert.equal(store.messages.get(0xa2n), undefined);
  });

  test('messages of L1 blocks after the restart point are forgotten; those at or before it stay', () => {
    const { store } = open();
    store.messages.add([
      message(0xb1n, 1024n, 100n),
      message(0xb2n, 1025n, 120n),
      message(0xb3n, 2048n, 121n),
      message(0xb4n, 2049n, 140n),
    ]);
    store.rewind(5, l1Point(120n));
    assert.deepEqual(store.messages.get(0xb1n), { index: 1024n, l1BlockNumber: 100n });
    assert.deepEqual(store.messages.get(0xb2n), { index: 1025n, l1BlockNumber: 120n });
    assert.equal(store.messages.get(0xb3n), undefined);
    assert.equal(store.messages.get(0xb4n), undefined);
    // Read again from L1: recorded again.
    store.messages.add([message(0xb3n, 2048n, 121n)]);
    assert.deepEqual(store.messages.get(0xb3n), { index: 2048n, l1BlockNumber: 121n });
  });

  test('a rewind is one write: if any part fails, nothing of it is stored', () => {
    const { store, env } = open();
    store.messages.add([message(0xc1n, 1024n, 150n)]);
    const before = { tips: store.getTips(), sync: store.l1SyncPoint, proven: store.provenCheckpoint };

    const write = env.write;
    let writes = 0;
    env.write = (fn) => {
      writes++;
      return write(fn);
    };
    try {
      store.rewind(3, l1Point(l1BlockOf(1)));
      assert.equal(writes, 1, 'one write');
    } finally {
      env.write = write;
    }

    // A second store, made to fail at the last step of the rewind.
    const other = open();
    other.store.messages.add([message(0xc1n, 1024n, 150n)]);
    const messages = other.store.messages;
    const remove = messages.removeAfterL1BlockInWrite.bind(messages);
    messages.removeAfterL1BlockInWrite = (l1Block: bigint) => {
      remove(l1Block);
      throw new Error('disk full');
    };
    try {
      assert.throws(() => other.store.rewind(3, l1Point(l1BlockOf(1))), /disk full/);
    } finally {
      messages.removeAfterL1BlockInWrite = remove;
    }
    assertBlocksUpTo(other.store, chain, 10);
    assert.deepEqual(other.store.getTips(), before.tips);
    assert.deepEqual(other.store.l1SyncPoint, before.sync);
    assert.equal(other.store.latestCheckpointNumber, 4);
    assert.equal(other.store.provenCheckpoint, before.proven);
    assert.deepEqual(other.store.messages.get(0xc1n), { index: 1024n, l1BlockNumber: 150n });
  });
});

describe('ChainStore rewind property', () => {
  let world: TestWorldState;
  before(async () => {
    world = await openTestWorldState('cairn-rewind-prop-ws-');
  });
  after(async () => {
    await world.close();
  });

  test('matches a model of checkpoints as runs of blocks, for random sizes and targets', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 0, maxLength: 5 }),
        fc.integer({ min: 0, max: 3 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.array(fc.integer({ min: 100, max: 200 }), { maxLength: 6 }),
        async (sizes, proposed, targetSeed, provenSeed, finalSeed, sent) => {
          const chain = await buildChain(world, sizes, proposed);
          const opened = storeChain(world, chain);
          try {
            const { store } = opened;
            const total = chain.blocks.length - 1;
            const ends = checkpointEnds(sizes);
            const proven = provenSeed % (sizes.length + 1);
            const finalized = finalSeed % (proven + 1);
            store.setProvenCheckpoint(proven);
            store.setFinalizedCheckpoint(finalized);
            const events = sent.map((l1Block, i) =>
              message(BigInt(0xd000 + i), BigInt(1024 + i), BigInt(l1Block)),
            );
            store.messages.add(events);

            for (let b = 0; b <= total; b++) {
              assert.equal(store.lastCheckpointUpTo(b), modelLastCheckpointUpTo(sizes, b), `block ${b}`);
            }
            for (let c = 0; c <= sizes.length; c++) {
              assert.equal(store.lastBlockOfCheckpoint(c), c === 0 ? 0 : ends[c - 1]);
            }

            const target = targetSeed % (total + 1);
            const restart = l1Point(BigInt(100 + (targetSeed % 101)));
            const removed = store.rewind(target, restart);

            const kept = modelLastCheckpointUpTo(sizes, target);
            assert.deepEqual(
              removed.map((b) => b.hash),
              chain.blocks
                .slice(target + 1)
                .reverse()
                .map((b) => b.hash),
            );
            assertBlocksUpTo(store, chain, target);
            assert.equal(store.latestCheckpointNumber, kept);
            for (let c = 1; c <= sizes.length; c++) {
              assert.equal(store.getCheckpoint(c) !== undefined, c <= kept, `checkpoint ${c}`);
              assert.equal(store.getCheckpointNumberBySlot(slotOf(c)), c <= kept ? c : undefined);
            }
            assert.equal(store.provenCheckpoint, Math.min(proven, kept));
            assert.equal(store.finalizedCheckpoint, Math.min(finalized, kept));
            const tips = store.getTips();
            assert.equal(tips.proposed.number, target);
            assert.equal(tips.checkpointed.block.number, kept === 0 ? 0 : ends[kept - 1]);
            assert.deepEqual(store.l1SyncPoint, restart);
            for (const e of events) {
              const stays = e.l1BlockNumber <= restart.blockNumber;
              assert.deepEqual(
                store.messages.get(e.leaf),
                stays ? { index: e.index, l1BlockNumber: e.l1BlockNumber } : undefined,
              );
            }
            // After the rewind the blocks kept agree with the model too.
            for (let b = 0; b <= target; b++) {
              assert.equal(store.lastCheckpointUpTo(b), Math.min(modelLastCheckpointUpTo(sizes, b), kept));
            }
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
