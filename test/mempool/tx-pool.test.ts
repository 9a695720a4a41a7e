import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Fr } from '../../src/core/field.js';
import { txView, withoutProof } from '../../src/core/tx-view.js';
import { type AddResult, TxPool, type TxPoolOptions } from '../../src/mempool/tx-pool.js';
import type { StoreEnvironment } from '../../src/store/environment.js';
import { add, addOk, freshTxMaker, hashes, type MadeTx, makeTx, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-tx-pool-test-');
const freshEnv = (): StoreEnvironment => stores.open();

const UNLIMITED: TxPoolOptions = { maxTxCount: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

/** A tx with fresh nullifiers (never shared with another tx) and the given priority fee. */
const freshTx = freshTxMaker(1_000_000n);

const sortedSet = (values: readonly Fr[]): Fr[] => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('TxPool ordering', () => {
  test('pending txs come by priority fee descending, then arrival', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    const a = freshTx(5n);
    const b = freshTx(9n);
    const c = freshTx(5n);
    const d = freshTx(1n);
    const e = freshTx(9n);
    for (const t of [a, b, c, d, e]) addOk(pool, t);
    assert.deepEqual(hashes(pool.pendingInOrder()), [b.hash, e.hash, a.hash, c.hash, d.hash]);
    assert.deepEqual(hashes(pool.pendingEntries()), [a.hash, b.hash, c.hash, d.hash, e.hash]);
    assert.equal(pool.pendingCount, 5);
    assert.equal(pool.pendingBytes, a.size + b.size + c.size + d.size + e.size);
    const entry = pool.getEntry(c.hash)!;
    assert.equal(entry.priorityFee, 5n);
    assert.equal(entry.size, c.size);
    assert.deepEqual(entry.nullifiers, [
      ...txView(c.tx).nonRevertible.nullifiers,
      ...txView(c.tx).revertible.nullifiers,
    ]);
    assert.equal(entry.blockNumber, undefined);
    await env.close();
  });

  test('ties on fee go by arrival even when the later tx has the smaller hash', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    const pair = [freshTx(3n), freshTx(3n)].sort((x, y) => (x.hash > y.hash ? -1 : 1));
    const [bigHash, smallHash] = pair as [MadeTx, MadeTx];
    addOk(pool, bigHash);
    addOk(pool, smallHash);
    assert.deepEqual(hashes(pool.pendingInOrder()), [bigHash.hash, smallHash.hash]);
    await env.close();
  });

  test('getPending pages through the order; an unknown or mined `after` gives []', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    const txs = [4n, 8n, 2n, 6n, 8n, 1n].map((fee) => freshTx(fee));
    for (const t of txs) addOk(pool, t);
    const order = hashes(pool.pendingInOrder());
    assert.deepEqual(
      order,
      [txs[1]!, txs[4]!, txs[3]!, txs[0]!, txs[2]!, txs[5]!].map((t) => t.hash),
    );

    assert.deepEqual(hashes(pool.getPending(2)), order.slice(0, 2));
    assert.deepEqual(hashes(pool.getPending(2, order[1])), order.slice(2, 4));
    assert.deepEqual(hashes(pool.getPending(10, order[3])), order.slice(4));
    assert.deepEqual(pool.getPending(10, order[5]), []);
    assert.deepEqual(pool.getPending(0), []);
    const paged: Fr[] = [];
    let cursor: Fr | undefined;
    for (;;) {
      const page = pool.getPending(4, cursor);
      if (page.length === 0) break;
      paged.push(...hashes(page));
      cursor = page.at(-1)!.hash;
    }
    assert.deepEqual(paged, order);

    assert.deepEqual(pool.getPending(10, 12345n), []);
    pool.markMined([order[0]!], 3);
    assert.deepEqual(pool.getPending(10, order[0]), []);
    await env.close();
  });

  test('maxPriorityFees is the first pending tx’s, zero when empty', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    assert.deepEqual(pool.maxPriorityFees(), { feePerDaGas: 0n, feePerL2Gas: 0n });
    const low = freshTx(10n);
    const high = freshTx(20n);
    addOk(pool, low);
    assert.deepEqual(pool.maxPriorityFees(), { feePerDaGas: 3n, feePerL2Gas: 7n });
    addOk(pool, high);
    assert.deepEqual(pool.maxPriorityFees(), { feePerDaGas: 6n, feePerL2Gas: 14n });
    pool.markMined([high.hash], 1);
    assert.deepEqual(pool.maxPriorityFees(), { feePerDaGas: 3n, feePerL2Gas: 7n });
    pool.remove([low.hash]);
    assert.deepEqual(pool.maxPriorityFees(), { feePerDaGas: 0n, feePerL2Gas: 0n });
    await env.close();
  });
});

describe('TxPool add', () => {
  test('a hash already pending or mined is known and changes nothing', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    const t = freshTx(5n);
    const m = freshTx(6n);
    addOk(pool, t);
    addOk(pool, m);
    pool.markMined([m.hash], 4);
    assert.deepEqual(add(pool, t), { kind: 'known' });
    assert.deepEqual(add(pool, m), { kind: 'known' });
    assert.equal(pool.pendingCount, 1);
    assert.equal(pool.getEntry(t.hash)!.arrival, 0);
    assert.equal(pool.status(m.hash), 'mined');
    await env.close();
  });

  test('a nullifier conflict is rejected unless the newcomer pays strictly more than each', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    const a = makeTx([1n, 2n], 10n);
    const b = makeTx([3n, 4n], 20n);
    const other = makeTx([5n], 1n);
    for (const t of [a, b, other]) addOk(pool, t);
    assert.deepEqual(pool.conflictsOf([4n, 2n, 99n]), [b.hash, a.hash]);
    assert.deepEqual(pool.conflictsOf([99n]), []);

    const equal = makeTx([2n, 9n], 10n);
    assert.deepEqual(add(pool, equal), { kind: 'conflict', with: [a.hash] });
    const lower = makeTx([9n, 2n], 9n);
    assert.deepEqual(add(pool, lower), { kind: 'conflict', with: [a.hash] });
    // Beats a but not b: conflicts with both, nothing replaced.
    const between = makeTx([1n, 3n], 15n);
    assert.deepEqual(add(pool, between), { kind: 'conflict', with: [b.hash, a.hash] });
    assert.equal(pool.status(equal.hash), undefined);
    assert.equal(pool.status(between.hash), undefined);
    assert.deepEqual(hashes(pool.pendingInOrder()), [b.hash, a.hash, other.hash]);

    const higher = makeTx([4n, 2n], 21n);
    assert.deepEqual(add(pool, higher), { kind: 'added', replaced: [b.hash, a.hash], evicted: [] });
    assert.equal(pool.status(a.hash), undefined);
    assert.equal(pool.get(b.hash), undefined);
    assert.deepEqual(hashes(pool.pendingInOrder()), [higher.hash, other.hash]);
    assert.equal(pool.pendingBytes, higher.size + other.size);
    // The replaced txs' nullifiers are free again; the newcomer's are indexed.
    assert.deepEqual(pool.conflictsOf([1n, 3n]), []);
    assert.deepEqual(pool.conflictsOf([2n]), [higher.hash]);
    addOk(pool, makeTx([1n], 0n));
    await env.close();
  });

  test('over the count cap the lowest is evicted; a lowest newcomer is rejected as full', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, { maxTxCount: 3, maxBytes: Number.POSITIVE_INFINITY });
    const a = freshTx(5n);
    const b = freshTx(3n);
    const c = freshTx(7n);
    for (const t of [a, b, c]) addOk(pool, t);
    const d = freshTx(4n);
    assert.deepEqual(add(pool, d), { kind: 'added', replaced: [], evicted: [b.hash] });
    assert.equal(pool.status(b.hash), undefined);
    assert.deepEqual(hashes(pool.pendingInOrder()), [c.hash, a.hash, d.hash]);

    // Equal to the lowest: it arrives later, so it would be the lowest itself.
    const tie = freshTx(4n);
    assert.deepEqual(add(pool, tie), { kind: 'full' });
    const low = freshTx(1n);
    assert.deepEqual(add(pool, low), { kind: 'full' });
    assert.equal(pool.status(tie.hash), undefined);
    assert.deepEqual(hashes(pool.pendingInOrder()), [c.hash, a.hash, d.hash]);
    await env.close();
  });

  test('over the byte cap the lowest are evicted until it fits', async () => {
    const small = [freshTx(5n), freshTx(2n), freshTx(3n)];
    const big = freshTx(4n, 500);
    const cap = small.reduce((n, t) => n + t.size, 0) + 10;
    // big needs the room of two small txs (all smalls are the same size) but fits beside one.
    assert.ok(
      big.size > small[0]!.size + 10 && small[0]!.size + big.size <= cap,
      'the sizes fit the scenario',
    );
    const env = freshEnv();
    const pool = TxPool.open(env, { maxTxCount: 100, maxBytes: cap });
    for (const t of small) addOk(pool, t);
    // Needs the room of more than one small tx: both lower ones go, lowest first.
    assert.deepEqual(add(pool, big), {
      kind: 'added',
      replaced: [],
      evicted: [small[1]!.hash, small[2]!.hash],
    });
    assert.deepEqual(hashes(pool.pendingInOrder()), [small[0]!.hash, big.hash]);
    assert.equal(pool.pendingBytes, small[0]!.size + big.size);
    assert.ok(pool.pendingBytes <= cap);

    // A big one below everything would have to evict itself.
    const bigLow = freshTx(1n, 500);
    assert.deepEqual(add(pool, bigLow), { kind: 'full' });
    // One larger than the cap can never fit, whatever it pays.
    const huge = freshTx(100n, cap);
    assert.deepEqual(add(pool, huge), { kind: 'full' });
    assert.deepEqual(hashes(pool.pendingInOrder()), [small[0]!.hash, big.hash]);
    await env.close();
  });

  test('replaced txs free room before evicting', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, { maxTxCount: 2, maxBytes: Number.POSITIVE_INFINITY });
    const a = makeTx([11n], 5n);
    const b = makeTx([12n], 1n);
    addOk(pool, a);
    addOk(pool, b);
    const r = makeTx([11n, 13n], 6n);
    assert.deepEqual(add(pool, r), { kind: 'added', replaced: [a.hash], evicted: [] });
    assert.deepEqual(hashes(pool.pendingInOrder()), [r.hash, b.hash]);
    await env.close();
  });
});

describe('TxPool mined state', () => {
  test('markMined, markPending and remove move txs between states', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, { maxTxCount: 3, maxBytes: Number.POSITIVE_INFINITY });
    const a = makeTx([21n], 5n);
    const b = makeTx([22n], 3n);
    const c = makeTx([23n], 7n);
    for (const t of [a, b, c]) addOk(pool, t);

    pool.markMined([a.hash, c.hash, 424242n], 9);
    assert.equal(pool.status(a.hash), 'mined');
    assert.equal(pool.status(b.hash), 'pending');
    assert.equal(pool.status(424242n), undefined);
    assert.equal(pool.getEntry(c.hash)!.blockNumber, 9);
    assert.deepEqual(pool.getWithProof(a.hash), a.tx);
    assert.deepEqual(pool.get(a.hash), withoutProof(a.tx), 'kept in memory without its proof');
    assert.equal(pool.pendingCount, 1);
    assert.equal(pool.pendingBytes, b.size);
    assert.deepEqual(hashes(pool.pendingInOrder()), [b.hash]);
    assert.deepEqual(
      pool.minedEntries().map((e) => ({ hash: e.hash, blockNumber: e.blockNumber })),
      [
        { hash: a.hash, blockNumber: 9 },
        { hash: c.hash, blockNumber: 9 },
      ],
    );
    // Mined nullifiers are not pending conflicts; a mined tx still counts as known.
    assert.deepEqual(pool.conflictsOf([21n]), []);
    assert.deepEqual(add(pool, a), { kind: 'known' });

    // Mined txs free the count: three more fit next to b.
    const more = [freshTx(1n), freshTx(2n)];
    for (const t of more) addOk(pool, t);
    assert.equal(pool.pendingCount, 3);

    // Pruned: back to pending with their arrival order, over the cap (not enforced here).
    pool.markPending([a.hash, c.hash, b.hash]);
    assert.equal(pool.status(a.hash), 'pending');
    assert.equal(pool.getEntry(a.hash)!.blockNumber, undefined);
    assert.equal(pool.pendingCount, 5);
    assert.deepEqual(hashes(pool.pendingInOrder()), [c.hash, a.hash, b.hash, more[1]!.hash, more[0]!.hash]);
    assert.deepEqual(pool.minedEntries(), []);
    assert.deepEqual(pool.conflictsOf([21n, 23n]), [c.hash, a.hash]);
    assert.deepEqual(add(pool, makeTx([21n], 4n)), { kind: 'conflict', with: [a.hash] });

    pool.markMined([b.hash], 10);
    pool.remove([a.hash, b.hash, 424242n]);
    assert.equal(pool.status(a.hash), undefined);
    assert.equal(pool.status(b.hash), undefined);
    assert.equal(pool.get(b.hash), undefined);
    assert.deepEqual(pool.minedEntries(), []);
    assert.deepEqual(pool.conflictsOf([21n]), []);
    assert.deepEqual(hashes(pool.pendingInOrder()), [c.hash, more[1]!.hash, more[0]!.hash]);
    assert.equal(pool.pendingBytes, c.size + more[0]!.size + more[1]!.size);
    await env.close();
  });

  test('a nullifier of several pending txs is a conflict of each until the last leaves', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    // Each is added while the others with nullifier 41 are mined, then their blocks are pruned:
    // three pending txs emit 41.
    const a = makeTx([41n, 42n], 5n);
    const c = makeTx([41n], 7n);
    const b = makeTx([41n, 43n], 3n);
    addOk(pool, a);
    pool.markMined([a.hash], 3);
    addOk(pool, c);
    pool.markMined([c.hash], 3);
    addOk(pool, b);
    pool.markPending([a.hash, c.hash]);
    assert.deepEqual(pool.conflictsOf([41n]), [c.hash, a.hash, b.hash]);
    assert.deepEqual(pool.conflictsOf([42n, 43n]), [a.hash, b.hash]);
    pool.remove([c.hash]);
    assert.deepEqual(pool.conflictsOf([41n]), [a.hash, b.hash]);
    pool.remove([a.hash]);
    assert.deepEqual(pool.conflictsOf([41n, 42n]), [b.hash]);
    pool.markMined([b.hash], 4);
    assert.deepEqual(pool.conflictsOf([41n, 42n, 43n]), []);
    pool.markPending([b.hash]);
    assert.deepEqual(pool.conflictsOf([41n]), [b.hash]);
    assert.deepEqual(add(pool, makeTx([41n], 2n)), { kind: 'conflict', with: [b.hash] });
    await env.close();
  });
});

describe('TxPool persistence', () => {
  test('reopening restores pending and mined txs, order, arrival and statuses', async () => {
    const name = stores.name('persist');
    let env = stores.open(name);
    const options = { maxTxCount: 4, maxBytes: Number.POSITIVE_INFINITY };
    let pool = TxPool.open(env, options);
    const a = makeTx([31n, 2n ** 200n], 5n, 33);
    const b = makeTx([32n], 5n);
    const c = makeTx([33n], 9n);
    const d = makeTx([34n], 1n);
    const e = makeTx([35n], 2n);
    for (const t of [a, b, c, d]) addOk(pool, t);
    pool.markMined([c.hash], 17);
    addOk(pool, e);
    const f = makeTx([36n], 3n);
    assert.deepEqual(add(pool, f), { kind: 'added', replaced: [], evicted: [d.hash] });
    const replacement = makeTx([32n], 6n);
    assert.deepEqual(add(pool, replacement), { kind: 'added', replaced: [b.hash], evicted: [] });

    const snapshot = (p: TxPool) => ({
      order: p.pendingInOrder(),
      mined: p.minedEntries(),
      bytes: p.pendingBytes,
      statuses: [a, b, c, d, e, f, replacement].map((t) => p.status(t.hash)),
    });
    const before = snapshot(pool);
    await env.close();

    env = stores.open(name);
    pool = TxPool.open(env, options);
    const reopened = snapshot(pool);
    assert.deepEqual(reopened, before);
    assert.deepEqual(reopened.statuses, [
      'pending',
      undefined,
      'mined',
      undefined,
      'pending',
      'pending',
      'pending',
    ]);
    assert.deepEqual(pool.getWithProof(a.hash), a.tx);
    assert.deepEqual(pool.get(a.hash), withoutProof(a.tx), 'kept in memory without its proof');
    assert.deepEqual(pool.getEntry(c.hash)!.blockNumber, 17);

    // The arrival counter survived: a newcomer with the same fee as a comes after it.
    const g = makeTx([37n], 5n);
    assert.deepEqual(add(pool, g), { kind: 'added', replaced: [], evicted: [e.hash] });
    assert.ok(pool.getEntry(g.hash)!.arrival > pool.getEntry(replacement.hash)!.arrival);
    assert.deepEqual(hashes(pool.pendingInOrder()), [replacement.hash, a.hash, g.hash, f.hash]);
    // The nullifier index was rebuilt.
    assert.deepEqual(pool.conflictsOf([2n ** 200n, 32n]), [replacement.hash, a.hash]);
    pool.markPending([c.hash]);
    await env.close();

    env = stores.open(name);
    pool = TxPool.open(env, options);
    assert.deepEqual(hashes(pool.pendingInOrder()), [c.hash, replacement.hash, a.hash, g.hash, f.hash]);
    assert.deepEqual(pool.minedEntries(), []);
    await env.close();
  });

  test('arrival numbers are never reused, even after the latest tx is gone and the pool reopened', async () => {
    const name = stores.name('arrival');
    let env = stores.open(name);
    let pool = TxPool.open(env, UNLIMITED);
    const x = freshTx(1n);
    const y = freshTx(1n);
    addOk(pool, x);
    addOk(pool, y);
    const yArrival = pool.getEntry(y.hash)!.arrival;
    pool.remove([y.hash]);
    await env.close();
    env = stores.open(name);
    pool = TxPool.open(env, UNLIMITED);
    const z = freshTx(1n);
    addOk(pool, z);
    assert.ok(pool.getEntry(z.hash)!.arrival > yArrival);
    assert.deepEqual(hashes(pool.pendingInOrder()), [x.hash, z.hash]);
    await env.close();
  });

  test('a failed write changes nothing in memory or on disk', async () => {
    const name = stores.name('fail');
    const env = stores.open(name);
    const pool = TxPool.open(env, UNLIMITED);
    const a = freshTx(2n);
    addOk(pool, a);
    const failing: StoreEnvironment = {
      ...env,
      write: (fn) =>
        env.write(() => {
          fn();
          throw new Error('disk full');
        }),
    };
    const flaky = TxPool.open(failing, { maxTxCount: 1, maxBytes: Number.POSITIVE_INFINITY });
    const b = freshTx(3n);
    assert.throws(() => add(flaky, b), /disk full/);
    assert.throws(() => flaky.markMined([a.hash], 1), /disk full/);
    assert.equal(flaky.status(a.hash), 'pending');
    assert.equal(flaky.status(b.hash), undefined);
    assert.deepEqual(hashes(flaky.pendingInOrder()), [a.hash]);
    const reopened = TxPool.open(env, UNLIMITED);
    assert.deepEqual(hashes(reopened.pendingInOrder()), [a.hash]);
    assert.equal(reopened.status(a.hash), 'pending');
    await env.close();
  });

  test('a batch commits all its changes at once, or none of them', async () => {
    const env = freshEnv();
    const pool = TxPool.open(env, UNLIMITED);
    const [a, b, c] = [freshTx(1n), freshTx(2n), freshTx(3n)];
    const results = pool.batch(() => [add(pool, a), add(pool, b)]);
    assert.deepEqual(
      results.map((r) => r.kind),
      ['added', 'added'],
    );
    assert.throws(
      () =>
        pool.batch(() => {
          addOk(pool, c);
          pool.markMined([a.hash], 1);
          throw new Error('stop');
        }),
      /stop/,
    );
    // The failed batch left nothing, in memory or on disk.
    assert.equal(pool.status(c.hash), undefined);
    assert.equal(pool.status(a.hash), 'pending');
    assert.deepEqual(hashes(pool.pendingInOrder()), [b.hash, a.hash]);
    const reopened = TxPool.open(env, UNLIMITED);
    assert.deepEqual(hashes(reopened.pendingInOrder()), [b.hash, a.hash]);
    await env.close();
  });
});

// ---------------------------------------------------------------------------------------------
// Property: the pool against a model that keeps a plain array and re-sorts it on every query.

interface ModelEntry {
  hash: Fr;
  fee: bigint;
  size: number;
  nullifiers: Fr[];
  arrival: number;
  block: number | undefined;
}

class PoolModel {
  entries: ModelEntry[] = [];
  arrival = 0;
  constructor(readonly options: TxPoolOptions) {}

  static order(a: ModelEntry, b: ModelEntry): number {
    if (a.fee !== b.fee) return a.fee > b.fee ? -1 : 1;
    return a.arrival - b.arrival;
  }

  pending(): ModelEntry[] {
    return this.entries.filter((e) => e.block === undefined).sort(PoolModel.order);
  }

  add(t: MadeTx, fee: bigint, nullifiers: Fr[]): AddResult {
    if (this.entries.some((e) => e.hash === t.hash)) return { kind: 'known' };
    const conflicts = this.pending().filter((e) => e.nullifiers.some((n) => nullifiers.includes(n)));
    if (conflicts.some((e) => e.fee >= fee)) return { kind: 'conflict', with: conflicts.map((e) => e.hash) };
    const entry: ModelEntry = {
      hash: t.hash,
      fee,
      size: t.size,
      nullifiers,
      arrival: this.arrival,
      block: undefined,
    };
    const next = [...this.pending().filter((e) => !conflicts.includes(e)), entry].sort(PoolModel.order);
    const evicted: ModelEntry[] = [];
    const bytes = () => next.reduce((n, e) => n + e.size, 0);
    while (next.length > this.options.maxTxCount || bytes() > this.options.maxBytes) {
      const lowest = next.pop()!;
      if (lowest === entry) return { kind: 'full' };
      evicted.push(lowest);
    }
    this.arrival++;
    const gone = new Set([...conflicts, ...evicted]);
    this.entries = [...this.entries.filter((e) => !gone.has(e)), entry];
    return { kind: 'added', replaced: conflicts.map((e) => e.hash), evicted: evicted.map((e) => e.hash) };
  }

  markMined(hashes: Fr[], block: number): void {
    for (const e of this.entries) if (hashes.includes(e.hash)) e.block = block;
  }

  markPending(hashes: Fr[]): void {
    for (const e of this.entries) if (hashes.includes(e.hash)) e.block = undefined;
  }

  remove(hashes: Fr[]): void {
    this.entries = this.entries.filter((e) => !hashes.includes(e.hash));
  }
}

type Op =
  | { op: 'add'; tx: number }
  | { op: 'mine'; txs: number[]; block: number }
  | { op: 'unmine'; txs: number[] }
  | { op: 'remove'; txs: number[] };

/** The size of a fixture tx without padding: the byte caps below are in units of it. */
const BASE_SIZE = makeTx([1n], 0n).size;

const candidateArb = fc.record({
  fee: fc.bigInt({ min: 0n, max: 6n }),
  nullifiers: fc.uniqueArray(fc.bigInt({ min: 1n, max: 10n }), { minLength: 1, maxLength: 3 }),
  extraBytes: fc.integer({ min: 0, max: 300 }),
  salt: fc.bigInt({ min: 1000n, max: 10n ** 40n }),
});

const opArb = (n: number): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.record({ op: fc.constant('add' as const), tx: fc.nat(n - 1) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('mine' as const),
        txs: fc.array(fc.nat(n - 1), { maxLength: 3 }),
        block: fc.nat(50),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('unmine' as const),
        txs: fc.array(fc.nat(n - 1), { maxLength: 3 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('remove' as const),
        txs: fc.array(fc.nat(n - 1), { maxLength: 2 }),
      }),
    },
  );

const scenarioArb = fc.array(candidateArb, { minLength: 2, maxLength: 12 }).chain((candidates) =>
  fc.record({
    candidates: fc.constant(candidates),
    ops: fc.array(opArb(candidates.length), { minLength: 1, maxLength: 40 }),
    maxTxCount: fc.integer({ min: 1, max: 6 }),
    // Room for one to about six txs.
    maxBytes: fc.integer({ min: BASE_SIZE, max: 6 * BASE_SIZE + 300 }),
  }),
);

/** Orders the hash lists in a result as a set, so the comparison does not depend on their order. */
function normalize(result: AddResult): AddResult {
  if (result.kind === 'conflict') return { kind: 'conflict', with: sortedSet(result.with) };
  return result;
}

describe('TxPool property', () => {
  test('matches a sort-everything model for random adds, mines, prunes and removes under caps', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ candidates, ops, maxTxCount, maxBytes }) => {
        const made = candidates.map((c) => {
          // The salt as an extra nullifier makes every candidate a distinct tx.
          const nullifiers = [...c.nullifiers, c.salt];
          return { ...makeTx(nullifiers, c.fee, c.extraBytes), fee: c.fee, nullifiers };
        });
        const options = { maxTxCount, maxBytes };
        const name = stores.name('prop');
        let env = stores.open(name);
        try {
          const pool = TxPool.open(env, options);
          const model = new PoolModel(options);
          const pick = (ids: number[]) => ids.map((i) => made[i]!.hash);
          for (const op of ops) {
            if (op.op === 'add') {
              const t = made[op.tx]!;
              assert.deepEqual(normalize(add(pool, t)), normalize(model.add(t, t.fee, t.nullifiers)));
            } else if (op.op === 'mine') {
              // Pending txs become mined; mined ones are re-stamped with the new block.
              pool.markMined(pick(op.txs), op.block);
              model.markMined(pick(op.txs), op.block);
            } else if (op.op === 'unmine') {
              pool.markPending(pick(op.txs));
              model.markPending(pick(op.txs));
            } else {
              pool.remove(pick(op.txs));
              model.remove(pick(op.txs));
            }
            const expected = model.pending();
            assert.deepEqual(hashes(pool.pendingInOrder()), hashes(expected));
            assert.equal(
              pool.pendingBytes,
              expected.reduce((n, e) => n + e.size, 0),
            );
            for (const t of made) {
              const m = model.entries.find((e) => e.hash === t.hash);
              assert.equal(
                pool.status(t.hash),
                m === undefined ? undefined : m.block === undefined ? 'pending' : 'mined',
              );
              assert.equal(pool.getEntry(t.hash)?.blockNumber, m?.block);
            }
          }
          const before = { order: hashes(pool.pendingInOrder()), mined: pool.minedEntries() };
          await env.close();
          env = stores.open(name);
          const reopened = TxPool.open(env, options);
          assert.deepEqual(
            { order: hashes(reopened.pendingInOrder()), mined: reopened.minedEntries() },
            before,
          );
        } finally {
          await env.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
