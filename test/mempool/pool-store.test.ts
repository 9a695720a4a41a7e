// The pool's store: what it writes reads back the same after a reopen, each change is one write,
// and the next arrival number moves with every add.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PoolStore, type StoredTx } from '../../src/mempool/pool-store.js';
import { freshTxMaker, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-pool-store-test-');
const freshTx = freshTxMaker(9_000_000n);

const stored = (arrival: number, blockNumber?: number): StoredTx => {
  const t = freshTx(BigInt(arrival + 1));
  return { hash: t.hash, tx: t.tx, size: t.size, arrival, blockNumber };
};

const byHash = (txs: Iterable<StoredTx>) => [...txs].sort((a, b) => (a.hash < b.hash ? -1 : 1));

describe('PoolStore', () => {
  test('adds, state changes and removals read back after a reopen', async () => {
    const name = stores.name();
    const env = stores.open(name);
    const store = new PoolStore(env);
    assert.equal(store.readNextArrival(), 0);
    const [a, b, c] = [stored(0), stored(1), stored(2)];
    for (const t of [a, b, c]) store.add(t, []);
    const minedB = { ...b, blockNumber: 4 };
    store.put([minedB]);
    store.remove([a.hash]);
    await env.close();

    const reopened = new PoolStore(stores.open(name));
    assert.equal(reopened.readNextArrival(), 3);
    assert.deepEqual(byHash(reopened.readAll()), byHash([minedB, c]));
  });

  test('an add deletes the txs it displaced in the same write', async () => {
    const env = stores.open();
    const store = new PoolStore(env);
    const [a, b] = [stored(0), stored(1)];
    store.add(a, []);
    store.add(b, [a.hash]);
    assert.deepEqual(byHash(store.readAll()), [b]);
    assert.equal(store.readNextArrival(), 2);
    await env.close();
  });

  test('replaceAll leaves exactly the given txs', async () => {
    const env = stores.open();
    const store = new PoolStore(env);
    store.add(stored(0), []);
    const kept = [stored(5), stored(6, 2)];
    store.replaceAll(kept);
    assert.deepEqual(byHash(store.readAll()), byHash(kept));
    await env.close();
  });

  test('a write that fails stores none of its changes', async () => {
    const env = stores.open();
    const store = new PoolStore(env);
    const a = stored(0);
    store.add(a, []);
    assert.throws(
      () =>
        store.write(() => {
          store.add(stored(1), [a.hash]);
          throw new Error('stop');
        }),
      /stop/,
    );
    assert.deepEqual(byHash(store.readAll()), [a]);
    assert.equal(store.readNextArrival(), 1);
    await env.close();
  });
});
