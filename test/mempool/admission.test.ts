// Admission: a tx already in the pool or the chain is refused before its validation result counts,
// an invalid one is refused with its reasons, and the pool's answer (through the admission queue)
// becomes the node's error or the accepted hash.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { IndexedTxEffect } from '../../src/archiver/types.js';
import { NodeError } from '../../src/core/errors.js';
import { type Fr, toHex32 } from '../../src/core/field.js';
import { computeTxHash } from '../../src/core/kernel/tx-hash.js';
import { TxAdmission } from '../../src/mempool/admission.js';
import { TxPool, type TxPoolOptions } from '../../src/mempool/tx-pool.js';
import type { ValidationContext } from '../../src/mempool/validator.js';
import { TX_ERROR, type TxValidationResult, type ValidationOptions } from '../../src/mempool/validator.js';
import { silentLogger } from '../helpers/rpc.js';
import { freshTxMaker, makeTx, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-admission-test-');
const freshTx = freshTxMaker(13_000_000n);
const CONTEXT = { chainId: 31337 } as ValidationContext;

/** An admission over a real pool, a chain holding `mined`, and a validator answering `verdict`. */
function admission(options: Partial<TxPoolOptions> = {}, mined = new Map<Fr, number>()) {
  const pool = TxPool.open(stores.open(), {
    maxTxCount: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
    ...options,
  });
  const validations: { hash?: Fr; context: ValidationContext }[] = [];
  /** `withPool` of every context asked for. */
  const contexts: boolean[] = [];
  const state = { verdict: { result: 'valid' } as TxValidationResult };
  const admit = new TxAdmission({
    pool,
    chain: {
      getTxEffect: (h) => (mined.has(h) ? ({ l2BlockNumber: mined.get(h)! } as IndexedTxEffect) : undefined),
    },
    validator: {
      validate: (tx, _claimed, context, opts: ValidationOptions = {}) => {
        validations.push({ ...(opts.hash !== undefined ? { hash: opts.hash } : {}), context });
        // Admission hands over the calldata and class-log hashes it computed off the event loop.
        assert.equal(opts.commitments?.calldata.length, tx.publicFunctionCalldata.length);
        assert.equal(opts.commitments?.classLogs.length, tx.contractClassLogFields.length);
        opts.commitments!.calldata.forEach((h, i) => {
          assert.equal(h, tx.publicFunctionCalldata[i]!.hash);
        });
        return { ...state.verdict, hash: opts.hash ?? computeTxHash(tx.data) };
      },
    },
    contexts: {
      latest: async (withPool) => {
        contexts.push(withPool);
        return CONTEXT;
      },
    },
    logger: silentLogger(),
  });
  return { pool, admit, validations, state, contexts };
}

const fresh = (fee: bigint) => freshTx(fee);

/** Asserts `promise` fails with a NodeError of `kind` whose message matches. */
async function refusedWith(promise: Promise<unknown>, kind: NodeError['kind'], message: string | RegExp) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof NodeError);
    assert.equal(err.kind, kind);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

describe('TxAdmission.admit', () => {
  test('a valid tx enters the pool and its hash, computed off the event loop, is returned', async () => {
    const { pool, admit, validations, contexts } = admission();
    const a = fresh(3n);
    assert.equal(await admit.admit(a.tx, a.hash), a.hash);
    assert.equal(pool.status(a.hash), 'pending');
    const b = fresh(4n);
    assert.equal(await admit.admit(b.tx, undefined), b.hash);
    assert.deepEqual(
      validations.map((v) => [v.hash, v.context]),
      [
        [a.hash, CONTEXT],
        [b.hash, CONTEXT],
      ],
    );
    // Pending conflicts are the pool's to judge when the tx is added, not the validator's.
    assert.deepEqual(contexts, [false, false]);
  });

  test('a tx the pool has is refused as known, even if it is now invalid', async () => {
    const { admit, state } = admission();
    const a = fresh(3n);
    await admit.admit(a.tx, a.hash);
    state.verdict = { result: 'invalid', reason: ['Transaction size above size limit'] };
    await refusedWith(admit.admit(a.tx, a.hash), 'refused', `tx ${toHex32(a.hash)} is already known`);
  });

  test('a tx the chain has is refused with its block', async () => {
    const a = fresh(3n);
    const { pool, admit } = admission({}, new Map([[a.hash, 12]]));
    await refusedWith(
      admit.admit(a.tx, a.hash),
      'refused',
      `tx ${toHex32(a.hash)} is already known: it is in block 12`,
    );
    assert.equal(pool.status(a.hash), undefined);
  });

  test('an invalid tx is rejected with every reason and not pooled', async () => {
    const { pool, admit, state } = admission();
    const a = fresh(3n);
    state.verdict = { result: 'invalid', reason: ['Incorrect tx hash', 'Insufficient fee payer balance'] };
    await assert.rejects(admit.admit(a.tx, a.hash), (err) => {
      assert.ok(err instanceof NodeError);
      assert.equal(err.kind, 'tx-rejected');
      assert.equal(err.message, 'Invalid tx: Incorrect tx hash, Insufficient fee payer balance');
      assert.deepEqual(err.data, { reasons: ['Incorrect tx hash', 'Insufficient fee payer balance'] });
      return true;
    });
    assert.equal(pool.status(a.hash), undefined);
  });

  test('a validation that failed unexpectedly (its block unwound under it) runs again on a fresh latest block, twice at most', async () => {
    const { pool, admit, validations, state, contexts } = admission();
    const unexpected = { result: 'invalid', reason: [TX_ERROR.UNEXPECTED] } as TxValidationResult;
    // Fails once, then the chain has settled: the tx is valid and pooled.
    const a = fresh(5n);
    let failures = 1;
    const verdicts = () => (failures-- > 0 ? unexpected : ({ result: 'valid' } as TxValidationResult));
    Object.defineProperty(state, 'verdict', { get: verdicts, configurable: true });
    assert.equal(await admit.admit(a.tx, a.hash), a.hash);
    assert.equal(pool.status(a.hash), 'pending');
    assert.equal(validations.length, 2);
    assert.equal(contexts.length, 2, 'a new context for the second try');
    // Always unexpected: three tries, then the refusal says so.
    Object.defineProperty(state, 'verdict', { value: unexpected, writable: true, configurable: true });
    const b = fresh(6n);
    await refusedWith(admit.admit(b.tx, b.hash), 'tx-rejected', /Unexpected error during validation/);
    assert.equal(validations.length, 5);
    assert.equal(pool.status(b.hash), undefined);
    // Other reasons are final at once.
    state.verdict = { result: 'invalid', reason: ['Insufficient fee payer balance'] };
    const c = fresh(7n);
    await refusedWith(admit.admit(c.tx, c.hash), 'tx-rejected', /Insufficient fee payer balance/);
    assert.equal(validations.length, 6);
  });

  test('a tx whose checks were skipped is rejected too', async () => {
    const { pool, admit, state } = admission();
    const a = fresh(3n);
    state.verdict = { result: 'skipped', reason: ['Proof verification skipped'] };
    await refusedWith(admit.admit(a.tx, a.hash), 'tx-rejected', 'Invalid tx: Proof verification skipped');
    assert.equal(pool.status(a.hash), undefined);
  });

  test('a pending nullifier with an equal or higher fee is a rejection', async () => {
    const { admit } = admission();
    const first = makeTx([0x5150n], 10n);
    const rival = makeTx([0x5150n, 0x5151n], 10n);
    await admit.admit(first.tx, first.hash);
    await refusedWith(
      admit.admit(rival.tx, rival.hash),
      'tx-rejected',
      `Invalid tx: ${TX_ERROR.PENDING_NULLIFIER}`,
    );
  });

  test('a full pool refuses a tx that pays no more than every pending one', async () => {
    const { admit } = admission({ maxTxCount: 1 });
    const a = fresh(5n);
    await admit.admit(a.tx, a.hash);
    await refusedWith(
      admit.admit(fresh(5n).tx, undefined),
      'refused',
      'the mempool is full and the tx does not pay a higher priority fee than any pending tx',
    );
  });

  test('the same tx twice in one turn: the queue takes one, the other is known', async () => {
    const { pool, admit } = admission();
    const a = fresh(3n);
    // Their hashes may come back from different hash workers in either order: which one is taken
    // does not matter, that exactly one is does.
    const both = await Promise.allSettled([admit.admit(a.tx, a.hash), admit.admit(a.tx, a.hash)]);
    const taken = both.filter((r) => r.status === 'fulfilled');
    const refused = both.filter((r) => r.status === 'rejected');
    assert.deepEqual(taken, [{ status: 'fulfilled', value: a.hash }]);
    assert.equal(refused.length, 1);
    assert.equal(
      (refused[0] as PromiseRejectedResult).reason.message,
      `tx ${toHex32(a.hash)} is already known`,
    );
    assert.equal(pool.pendingCount, 1);
  });
});

describe('TxAdmission.check', () => {
  test('gives the validation result without its hash, judged with the pending txs, and pools nothing', async () => {
    const { pool, admit, state, contexts } = admission();
    const a = fresh(3n);
    state.verdict = { result: 'skipped', reason: ['Proof verification skipped'] };
    assert.deepEqual(await admit.check(a.tx, a.hash, {}), {
      result: 'skipped',
      reason: ['Proof verification skipped'],
    });
    assert.deepEqual(contexts, [true]);
    assert.equal(pool.status(a.hash), undefined);
  });
});
