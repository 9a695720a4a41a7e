// TxPool.setMaxTxCount (svcAdmin_setConfig's maxPendingTxCount): lowering the cap evicts the
// lowest pending txs in pool order, durably; raising it evicts nothing; later adds use the new cap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allNullifiers } from '../../src/core/tx-view.js';
import { TxPool, type TxPoolOptions } from '../../src/mempool/tx-pool.js';
import type { StoreEnvironment } from '../../src/store/environment.js';
import { add, addOk, freshTxMaker, hashes, type MadeTx, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-tx-pool-cap-test-');

const freshTx = freshTxMaker(5_000_000n);

const options = (maxTxCount: number): TxPoolOptions => ({
  maxTxCount,
  maxBytes: Number.POSITIVE_INFINITY,
});

/** A pool of txs with fees 5, 3, 7, 3, 9, 1 (in arrival order a..f); pool order e c a b d f. */
function filledPool(env: StoreEnvironment, maxTxCount = 10) {
  const pool = TxPool.open(env, options(maxTxCount));
  const [a, b, c, d, e, f] = [5n, 3n, 7n, 3n, 9n, 1n].map((fee) => freshTx(fee)) as [
    MadeTx,
    MadeTx,
    MadeTx,
    MadeTx,
    MadeTx,
    MadeTx,
  ];
  for (const t of [a, b, c, d, e, f]) addOk(pool, t);
  assert.deepEqual(
    hashes(pool.pendingInOrder()),
    [e, c, a, b, d, f].map((t) => t.hash),
  );
  return { pool, a, b, c, d, e, f };
}

describe('TxPool.setMaxTxCount', () => {
  test('lowering evicts the lowest in pool order down to the cap and returns their hashes', async () => {
    const env = stores.open();
    const { pool, a, b, c, d, e, f } = filledPool(env);
    // The last three in pool order leave, returned in pool order.
    assert.deepEqual(pool.setMaxTxCount(3), [b.hash, d.hash, f.hash]);
    assert.deepEqual(hashes(pool.pendingInOrder()), [e.hash, c.hash, a.hash]);
    assert.equal(pool.pendingCount, 3);
    assert.equal(pool.pendingBytes, a.size + c.size + e.size);
    for (const t of [b, d, f]) {
      assert.equal(pool.status(t.hash), undefined);
      assert.equal(pool.get(t.hash), undefined);
    }
    // The evicted txs' nullifiers are free again.
    assert.deepEqual(pool.conflictsOf(allNullifiers(b.tx)), []);
    // One more eviction takes the lowest of those left.
    assert.deepEqual(pool.setMaxTxCount(2), [a.hash]);
    assert.deepEqual(hashes(pool.pendingInOrder()), [e.hash, c.hash]);
    await env.close();
  });

  test('ties on fee: the later arrival is evicted first', async () => {
    const env = stores.open();
    const { pool, b, d } = filledPool(env);
    pool.setMaxTxCount(4);
    assert.equal(pool.status(d.hash), undefined);
    assert.equal(pool.status(b.hash), 'pending');
    await env.close();
  });

  test('the evictions are durable: after a reopen the evicted txs are gone', async () => {
    const name = stores.name();
    let env = stores.open(name);
    const { pool, a, b, c, d, e, f } = filledPool(env);
    pool.setMaxTxCount(2);
    const before = hashes(pool.pendingInOrder());
    await env.close();

    env = stores.open(name);
    const reopened = TxPool.open(env, options(10));
    assert.deepEqual(hashes(reopened.pendingInOrder()), before);
    assert.deepEqual(before, [e.hash, c.hash]);
    for (const t of [a, b, d, f]) assert.equal(reopened.status(t.hash), undefined);
    await env.close();
  });

  test('mined txs are neither counted nor evicted', async () => {
    const env = stores.open();
    const { pool, a, b, c, d, e, f } = filledPool(env);
    pool.markMined([f.hash, e.hash], 12);
    assert.equal(pool.pendingCount, 4);
    assert.deepEqual(pool.setMaxTxCount(4), []);
    assert.deepEqual(pool.setMaxTxCount(2), [b.hash, d.hash]);
    assert.deepEqual(hashes(pool.pendingInOrder()), [c.hash, a.hash]);
    assert.deepEqual(hashes(pool.minedEntries()).sort(), [e.hash, f.hash].sort());
    assert.equal(pool.status(e.hash), 'mined');
    await env.close();
  });

  test('raising evicts nothing; later adds use the new cap', async () => {
    const env = stores.open();
    const { pool, b, d, f } = filledPool(env, 6);
    const g = freshTx(2n);
    // At 6 the pool is full: g (fee 2) displaces f (fee 1).
    assert.deepEqual(add(pool, g), { kind: 'added', replaced: [], evicted: [f.hash] });
    assert.deepEqual(pool.setMaxTxCount(8), []);
    assert.equal(pool.pendingCount, 6);
    const h = freshTx(1n);
    const i = freshTx(1n);
    addOk(pool, h);
    addOk(pool, i);
    assert.equal(pool.pendingCount, 8);
    // Full again at 8: a lowest newcomer is refused, a higher one evicts the lowest.
    assert.deepEqual(add(pool, freshTx(1n)), { kind: 'full' });
    const j = freshTx(4n);
    assert.deepEqual(add(pool, j), { kind: 'added', replaced: [], evicted: [i.hash] });
    assert.equal(pool.status(b.hash), 'pending');
    assert.equal(pool.status(d.hash), 'pending');
    await env.close();
  });

  test('after lowering, adds are held to the lower cap', async () => {
    const env = stores.open();
    const { pool, a, c, e } = filledPool(env);
    pool.setMaxTxCount(3);
    assert.deepEqual(add(pool, freshTx(2n)), { kind: 'full' });
    const k = freshTx(6n);
    assert.deepEqual(add(pool, k), { kind: 'added', replaced: [], evicted: [a.hash] });
    assert.deepEqual(hashes(pool.pendingInOrder()), [e.hash, c.hash, k.hash]);
    await env.close();
  });

  test('a cap at or above the pending count evicts nothing; 0 evicts every pending tx', async () => {
    const env = stores.open();
    const { pool } = filledPool(env);
    const all = hashes(pool.pendingInOrder());
    assert.deepEqual(pool.setMaxTxCount(6), []);
    assert.deepEqual(pool.setMaxTxCount(Number.POSITIVE_INFINITY), []);
    assert.deepEqual(pool.pendingCount, 6);
    assert.deepEqual(pool.setMaxTxCount(0), all);
    assert.equal(pool.pendingCount, 0);
    assert.equal(pool.pendingBytes, 0);
    assert.deepEqual(add(pool, freshTx(100n)), { kind: 'full' });
    await env.close();
  });

  test('an invalid cap throws RangeError and changes nothing', async () => {
    const env = stores.open();
    const { pool } = filledPool(env, 7);
    const before = hashes(pool.pendingInOrder());
    for (const bad of [-1, Number.NaN, Number.NEGATIVE_INFINITY]) {
      assert.throws(() => pool.setMaxTxCount(bad), RangeError, String(bad));
    }
    assert.deepEqual(hashes(pool.pendingInOrder()), before);
    // The cap is still 7: room for one more tx, then a low newcomer is refused.
    addOk(pool, freshTx(0n));
    assert.deepEqual(add(pool, freshTx(0n)), { kind: 'full' });
    await env.close();
  });
});
