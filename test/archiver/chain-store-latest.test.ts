// The chain store keeps the latest block number in memory between writes (getBlockNumber reads it
// on every call): every write that moves it, forward or back, must show at once, and a reader
// between two writes sees the committed number.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  emptyTxEffect,
  nextBlock,
  openTestChainStore,
  openTestWorldState,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';

describe('chain store: the latest block number follows every write', () => {
  let world: TestWorldState;
  let chain: TestChainStore;
  before(async () => {
    world = await openTestWorldState('cairn-latest-ws-');
    chain = openTestChainStore(world.genesis, { prefix: 'cairn-latest-' });
  });
  after(async () => {
    await chain.close();
    await world.close();
  });

  test('proposed blocks move it forward, unwinding moves it back', async () => {
    const store = chain.store;
    assert.equal(store.latestBlockNumber, 0);
    assert.equal(store.latestBlockNumber, 0);
    for (const n of [1, 2, 3]) {
      store.addProposedBlock(await nextBlock(world.ws, [emptyTxEffect(BigInt(100 + n))]));
      assert.equal(store.latestBlockNumber, n);
      assert.equal(store.getTips().proposed.number, n);
    }
    const removed = store.unwindBlocksAfter(1);
    assert.deepEqual(
      removed.map((b) => b.number),
      [3, 2],
    );
    assert.equal(store.latestBlockNumber, 1);
    assert.equal(store.getTips().proposed.number, 1);
  });

  test('a write that fails leaves the committed number', async () => {
    const store = chain.store;
    const before = store.latestBlockNumber;
    // Block 5 does not extend the chain (block 2 is next): refused, nothing written.
    await world.ws.rollbackTo(before);
    const next = await nextBlock(world.ws, [emptyTxEffect(200n)]);
    const gap = { ...next, number: before + 3 };
    assert.throws(() => store.addProposedBlock(gap));
    assert.equal(store.latestBlockNumber, before);
    store.addProposedBlock(next);
    assert.equal(store.latestBlockNumber, before + 1);
  });
});
