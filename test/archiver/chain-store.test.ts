import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChainStore } from '../../src/archiver/chain-store.js';
import type { PublishedCheckpoint } from '../../src/archiver/types.js';
import type { L2Block } from '../../src/core/block.js';
import { GENESIS_BLOCK_HEADER_HASH, GENESIS_CHECKPOINT_HEADER_HASH } from '../../src/core/block-header.js';
import { openEnvironment } from '../../src/store/environment.js';
import type { WorldState } from '../../src/world-state/world-state.js';
import { l1SyncPoint, publishedCheckpoint, storeTx as tx } from '../helpers/chain-store-fixtures.js';
import {
  nextBlock,
  openTestChainStore,
  openTestWorldState,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';

/** Where nextBlock puts a block: its checkpoint, its index within it, its slot. */
const at = (checkpointNumber: number, indexWithinCheckpoint: number, slotNumber: number) => ({
  checkpointNumber,
  indexWithinCheckpoint,
  slotNumber,
});

const published = (number: number, blocks: L2Block[], slot: number): PublishedCheckpoint =>
  publishedCheckpoint(number, blocks, {
    slot,
    l1: { blockNumber: BigInt(10 + number), timestamp: 1234n, blockHash: `0x${'0'.repeat(63)}${number}` },
    attestations: [{ address: `0x${'1'.repeat(40)}`, signature: '0x' }],
  });

const l1 = (n: number) => l1SyncPoint(BigInt(n), 99n);

describe('chain store', () => {
  let world: TestWorldState;
  let chain: TestChainStore;
  let ws: WorldState;
  let store: ChainStore;
  let blocks: L2Block[];
  before(async () => {
    world = await openTestWorldState('cairn-chain-store-ws-');
    ws = world.ws;
    chain = openTestChainStore(world.genesis, { prefix: 'cairn-chain-store-' });
    store = chain.store;
    blocks = [world.genesis];
  });
  after(async () => {
    await chain.close();
    await world.close();
  });

  test('starts at genesis: every tip is block 0 and checkpoint 0', () => {
    const tips = store.getTips();
    assert.deepEqual(tips.proposed, { number: 0, hash: GENESIS_BLOCK_HEADER_HASH });
    for (const tip of [tips.checkpointed, tips.proven, tips.finalized]) {
      assert.deepEqual(tip, {
        block: { number: 0, hash: GENESIS_BLOCK_HEADER_HASH },
        checkpoint: { number: 0, hash: GENESIS_CHECKPOINT_HEADER_HASH },
      });
    }
    assert.equal(store.getBlockNumberByHash(GENESIS_BLOCK_HEADER_HASH), 0);
  });

  test('proposed blocks extend the chain and are found by number, hash, archive and tx', async () => {
    blocks.push(await nextBlock(ws, [tx(1n), tx(2n)], at(1, 0, 5)));
    blocks.push(await nextBlock(ws, [tx(3n)], at(1, 1, 5)));
    store.addProposedBlock(blocks[1]!);
    store.addProposedBlock(blocks[2]!);
    assert.equal(store.latestBlockNumber, 2);
    assert.deepEqual(store.getBlock(2), blocks[2]);
    assert.equal(store.getBlockNumberByHash(blocks[1]!.hash), 1);
    assert.equal(store.getBlockNumberByArchive(blocks[2]!.archive.root), 2);
    const effect = store.getTxEffect(0x7002n)!;
    assert.equal(effect.l2BlockNumber, 1);
    assert.equal(effect.txIndexInBlock, 1);
    assert.equal(effect.slotNumber, 5);
    assert.deepEqual(effect.data, tx(2n));
    assert.throws(() => store.addProposedBlock(blocks[1]!), /does not extend the chain/);
    assert.equal(store.getTips().checkpointed.block.number, 0);
  });

  test('a checkpoint moves the checkpointed tip; a conflicting one replaces proposed blocks', async () => {
    store.addCheckpoint(published(1, [blocks[1]!, blocks[2]!], 5), [blocks[1]!, blocks[2]!], l1(20));
    assert.deepEqual(store.getTips().checkpointed, {
      block: { number: 2, hash: blocks[2]!.hash },
      checkpoint: { number: 1, hash: 1001n },
    });
    assert.equal(store.getCheckpointNumberBySlot(5), 1);
    assert.equal(store.checkpointOfBlock(2), 1);
    // Block 3 is proposed, but L1 gets another block 3.
    const proposed3 = await nextBlock(ws, [tx(4n)], at(2, 0, 6));
    store.addProposedBlock(proposed3);
    // Read (and so cached) before L1 replaces it: the cache must not outlive the replacement.
    assert.equal(store.getBlock(3)!.hash, proposed3.hash);
    assert.equal(store.getTxEffect(0x7004n)!.l2BlockNumber, 3);
    await ws.rollbackTo(2);
    const other3 = await nextBlock(ws, [tx(5n)], at(2, 0, 6));
    assert.notEqual(other3.hash, proposed3.hash);
    store.addCheckpoint(published(2, [other3], 6), [other3], l1(21));
    blocks.push(other3);
    assert.equal(store.getBlock(3)!.hash, other3.hash);
    assert.equal(store.getTxEffect(0x7004n), undefined);
    assert.equal(store.getTxEffect(0x7005n)!.l2BlockNumber, 3);
    assert.deepEqual(store.l1SyncPoint, l1(21));
    assert.throws(() => store.addCheckpoint(published(2, [other3], 6), [other3], l1(22)), /does not follow/);
    assert.deepEqual(store.checkpointNumbersFromSlot(0, 10, false), [1, 2]);
    assert.deepEqual(store.checkpointNumbersFromSlot(5, 1, true), [1]);
  });

  test('proven and finalized tips', () => {
    store.setProvenCheckpoint(2);
    store.setFinalizedCheckpoint(1);
    const tips = store.getTips();
    assert.equal(tips.proven.checkpoint.number, 2);
    assert.equal(tips.proven.block.number, 3);
    assert.equal(tips.finalized.block.number, 2);
    assert.throws(() => store.setFinalizedCheckpoint(3), /proven checkpoint is 2/);
    assert.throws(() => store.setProvenCheckpoint(3), /latest checkpoint is 2/);
  });

  test('the store survives a reopen', async () => {
    const again = new ChainStore(openEnvironment(chain.dir, 'archiver'));
    // Same LMDB files opened a second time in this process: the same data.
    assert.equal(again.latestBlockNumber, 3);
    assert.deepEqual(again.getTips(), store.getTips());
    assert.throws(() => again.initialize({ ...blocks[0]!, hash: 1n }), /another chain/);
  });

  test('unwinding a pruned checkpoint, then blocks, lowers every tip with them', () => {
    // Cached before the unwind, gone after it.
    assert.equal(store.getBlock(3)!.hash, blocks[3]!.hash);
    assert.equal(store.getCheckpoint(2)!.checkpoint.number, 2);
    const removed = store.unwindCheckpointsAfter(1);
    assert.deepEqual(
      removed.map((b) => b.number),
      [3],
    );
    assert.equal(store.latestCheckpointNumber, 1);
    assert.equal(store.getTips().proven.checkpoint.number, 1);
    assert.equal(store.getCheckpointNumberBySlot(6), undefined);
    assert.equal(store.getBlock(3), undefined);
    assert.equal(store.getCheckpoint(2), undefined);
    const more = store.unwindBlocksAfter(1);
    assert.deepEqual(
      more.map((b) => b.number),
      [2],
    );
    const tips = store.getTips();
    assert.equal(tips.proposed.number, 1);
    assert.equal(tips.checkpointed.checkpoint.number, 0);
    assert.equal(tips.proven.checkpoint.number, 0);
    assert.equal(tips.finalized.checkpoint.number, 0);
    assert.equal(store.getTxEffect(0x7003n), undefined);
    assert.equal(store.getTxEffect(0x7001n)!.l2BlockNumber, 1);
    assert.equal(store.getBlock(2), undefined);
  });
});
