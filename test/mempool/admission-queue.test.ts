// The admission queue's group commit: the admissions of one event-loop turn enter the pool in one
// LMDB transaction, each hears its own result only once that is committed, and a failed commit
// fails every admission of the turn and leaves none in the pool.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allNullifiers } from '../../src/core/tx-view.js';
import { AdmissionQueue } from '../../src/mempool/admission-queue.js';
import { TxPool, type TxPoolOptions } from '../../src/mempool/tx-pool.js';
import type { StoreEnvironment } from '../../src/store/environment.js';
import { freshTxMaker, makeTx, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-admission-queue-test-');
const freshTx = freshTxMaker(7_000_000n);
const UNLIMITED: TxPoolOptions = { maxTxCount: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

/** `env` with a count of its outermost write transactions (nested writes join them). */
function countingWrites(env: StoreEnvironment): { env: StoreEnvironment; commits: () => number } {
  let depth = 0;
  let commits = 0;
  const write: StoreEnvironment['write'] = (fn) => {
    if (depth === 0) commits++;
    depth++;
    try {
      return env.write(fn);
    } finally {
      depth--;
    }
  };
  return { env: { ...env, write }, commits: () => commits };
}

describe('AdmissionQueue', () => {
  test('the admissions of one turn share one commit and each gets its own result, in order', async () => {
    const base = stores.open();
    const { env, commits } = countingWrites(base);
    const pool = TxPool.open(env, UNLIMITED);
    const queue = new AdmissionQueue(pool);
    const a = freshTx(5n);
    const b = freshTx(6n);
    const rival = makeTx([allNullifiers(a.tx)[0]!], 1n);
    const before = commits();
    const results = Promise.all([
      queue.add(a.tx, a.hash, a.size),
      queue.add(b.tx, b.hash, b.size),
      queue.add(rival.tx, rival.hash, rival.size),
      queue.add(a.tx, a.hash, a.size),
    ]);
    // Nothing is in the pool before the turn ends.
    assert.equal(pool.status(a.hash), undefined);
    assert.deepEqual(await results, [
      { kind: 'added', replaced: [], evicted: [] },
      { kind: 'added', replaced: [], evicted: [] },
      { kind: 'conflict', with: [a.hash] },
      { kind: 'known' },
    ]);
    await new Promise(setImmediate);
    assert.equal(commits() - before, 1);
    assert.equal(pool.status(a.hash), 'pending');
    assert.equal(pool.status(b.hash), 'pending');
    // A later turn is a commit of its own.
    const c = freshTx(7n);
    await queue.add(c.tx, c.hash, c.size);
    assert.equal(commits() - before, 2);
    await base.close();
  });

  test('a failed commit rejects every admission of the turn and leaves none in the pool', async () => {
    const name = stores.name('fail');
    const base = stores.open(name);
    let fail = true;
    const env: StoreEnvironment = {
      ...base,
      write: (fn) =>
        base.write(() => {
          const result = fn();
          if (fail) throw new Error('disk full');
          return result;
        }),
    };
    const pool = TxPool.open(env, UNLIMITED);
    const queue = new AdmissionQueue(pool);
    const [a, b] = [freshTx(1n), freshTx(2n)];
    const settled = await Promise.allSettled([
      queue.add(a.tx, a.hash, a.size),
      queue.add(b.tx, b.hash, b.size),
    ]);
    assert.deepEqual(
      settled.map((s) => s.status === 'rejected' && (s.reason as Error).message),
      ['disk full', 'disk full'],
    );
    assert.equal(pool.status(a.hash), undefined);
    assert.equal(pool.status(b.hash), undefined);
    assert.deepEqual(TxPool.open(base, UNLIMITED).entries(), []);
    // The queue goes on with the next turn.
    fail = false;
    assert.equal((await queue.add(a.tx, a.hash, a.size)).kind, 'added');
    await base.close();
  });
});
