// The pool as the sequencer's TxSource: pending txs best first, a rejected tx leaves the pool, a
// reverted tx's reason is kept for its receipt.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withoutProof } from '../../src/core/tx-view.js';
import { RevertReasons } from '../../src/mempool/revert-reasons.js';
import { TxPool } from '../../src/mempool/tx-pool.js';
import { PoolTxSource } from '../../src/mempool/tx-source.js';
import { silentLogger } from '../helpers/rpc.js';
import { addOk, freshTxMaker, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-tx-source-test-');
const freshTx = freshTxMaker(11_000_000n);
const UNLIMITED = { maxTxCount: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

describe('PoolTxSource', () => {
  test('pending gives the pending txs best first; mined ones are not offered', async () => {
    const env = stores.open();
    const pool = TxPool.open(env, UNLIMITED);
    const source = new PoolTxSource(pool, new RevertReasons(env), silentLogger());
    const [low, high, mined] = [freshTx(1n), freshTx(9n), freshTx(5n)];
    for (const t of [low, high, mined]) addOk(pool, t);
    pool.markMined([mined.hash], 1);
    // As the pool keeps them: without their proofs, which a block does not carry.
    assert.deepEqual(
      [...source.pending()],
      [high, low].map((t) => ({ hash: t.hash, tx: withoutProof(t.tx) })),
    );
    await env.close();
  });

  test('a rejected tx leaves the pool', async () => {
    const env = stores.open();
    const pool = TxPool.open(env, UNLIMITED);
    const source = new PoolTxSource(pool, new RevertReasons(env), silentLogger());
    const [a, b] = [freshTx(1n), freshTx(2n)];
    for (const t of [a, b]) addOk(pool, t);
    source.reject(a.hash, 'setup call failed');
    assert.equal(pool.status(a.hash), undefined);
    assert.deepEqual(
      [...source.pending()].map((p) => p.hash),
      [b.hash],
    );
    await env.close();
  });

  test("a reverted tx's reason is kept, across a reopen of the store", async () => {
    const name = stores.name();
    const env = stores.open(name);
    const source = new PoolTxSource(TxPool.open(env, UNLIMITED), new RevertReasons(env), silentLogger());
    source.reverted(0xabcn, 'Assertion failed: not enough balance');
    await env.close();
    const reopened = new RevertReasons(stores.open(name));
    assert.equal(reopened.get(0xabcn), 'Assertion failed: not enough balance');
    assert.equal(reopened.get(0xabdn), undefined);
  });
});
