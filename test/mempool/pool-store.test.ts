// The pool's store: what it writes reads back the same after a reopen, each change is one write,
// and the next arrival number moves with every add. Records hold the reference's binary form of
// the tx; a record of the earlier format (the tx as a JSON string) is refused with what to do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyBlockHeader } from '../../src/core/block-header.js';
import { toBytes32, toHex32 } from '../../src/core/field.js';
import { decodeTx, encodeTx } from '../../src/core/kernel/tx-codec.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { txSize } from '../../src/core/tx-view.js';
import { PoolFormatError, PoolStore, type StoredTx } from '../../src/mempool/pool-store.js';
import { TxPool } from '../../src/mempool/tx-pool.js';
import { freshTxMaker, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-pool-store-test-');
const freshTx = freshTxMaker(9_000_000n);

const stored = (arrival: number, blockNumber?: number): StoredTx => {
  const t = freshTx(BigInt(arrival + 1));
  return { hash: t.hash, tx: t.tx, size: t.size, arrival, blockNumber };
};

const byHash = (txs: Iterable<StoredTx>) => [...txs].sort((a, b) => (a.hash < b.hash ? -1 : 1));

/** The store's record of a tx, read directly from its database. */
interface RawRecord {
  tx: unknown;
  size: number;
  arrival: number;
  blockNumber: number | null;
}
const TXS_DB = 'txs';

/** Txs with side effects of every kind, private-only and with calls in all three phases. */
function richTxs(): StoredTx[] {
  const base = {
    feePayer: 0x1234n,
    anchorBlockHeader: { ...emptyBlockHeader(), totalFees: 9n },
    chainId: 31337,
    version: 1,
    expirationTimestamp: 1_700_000_000n,
    maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
    maxPriorityFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 4n },
  };
  const privateOnly = buildTx({
    ...base,
    protocolNullifier: 0x9_100n,
    noteHashes: [0x9_101n, 0x9_102n],
    nullifiers: [0x9_103n],
    privateLogs: [[1n, 2n, 3n]],
    l2ToL1Msgs: [{ recipient: `0x${'ab'.repeat(20)}`, content: 5n, sender: 6n }],
    contractClassLogs: [{ contractAddress: 7n, fields: [8n, 9n, 10n] }],
  });
  const withCalls = buildTx({
    ...base,
    protocolNullifier: 0x9_200n,
    nonRevertible: { noteHashes: [0x9_201n] },
    nullifiers: [0x9_202n],
    publicCalls: [
      { phase: 'setup', contractAddress: 11n, selector: 1, args: [12n] },
      { contractAddress: 13n, selector: 2, args: [14n, 15n], isStaticCall: true },
      { phase: 'teardown', contractAddress: 16n, selector: 3 },
    ],
  });
  return [
    { ...privateOnly, arrival: 0, blockNumber: undefined },
    { ...withCalls, arrival: 1, blockNumber: 4 },
  ].map((t) => ({
    hash: t.hash,
    tx: t.tx,
    size: txSize(t.tx),
    arrival: t.arrival,
    blockNumber: t.blockNumber,
  }));
}

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

  test("the tx's bytes are the reference's binary form, kept apart from its state, and read back the same", async () => {
    const name = stores.name();
    const env = stores.open(name);
    const store = new PoolStore(env);
    const txs = richTxs();
    for (const t of txs) store.add(t, []);
    const raw = env.database<RawRecord>(TXS_DB);
    const bodies = env.binaryDatabase('tx-bodies');
    for (const t of txs) {
      const body = bodies.get(Buffer.from(toBytes32(t.hash)))!;
      assert.deepEqual(Buffer.from(body), encodeTx({ txHash: t.hash, ...t.tx }));
      assert.equal(decodeTx(body).txHash, t.hash);
      assert.deepEqual(store.readTx(t.hash), t.tx);
      const record = raw.get(toHex32(t.hash))!;
      assert.equal(record.tx, undefined, 'the state record does not repeat the tx');
      assert.deepEqual(
        { size: record.size, arrival: record.arrival, blockNumber: record.blockNumber },
        { size: t.size, arrival: t.arrival, blockNumber: t.blockNumber ?? null },
      );
    }
    // A change of state rewrites the state only; the tx stays as stored.
    const [first] = txs;
    store.put([{ ...first!, blockNumber: 9 }]);
    assert.equal(raw.get(toHex32(first!.hash))!.blockNumber, 9);
    assert.deepEqual(store.readTx(first!.hash), first!.tx);
    store.remove([first!.hash]);
    assert.equal(store.readTx(first!.hash), undefined);
    assert.equal(bodies.get(Buffer.from(toBytes32(first!.hash))), undefined, 'removed with its state');
    await env.close();
    const reopened = new PoolStore(stores.open(name));
    assert.deepEqual(byHash(reopened.readAll()), byHash(txs.slice(1)));
  });

  test('a record of the earlier format (the tx as a JSON string) is refused with how to start afresh', async () => {
    const name = stores.name();
    const env = stores.open(name);
    const store = new PoolStore(env);
    store.add(stored(0), []);
    // What the earlier cairn wrote: the tx as its JSON text.
    env.write(() =>
      env.database<RawRecord>(TXS_DB).putSync(toHex32(0x77n), {
        tx: JSON.stringify({ data: { constants: { anchorBlockHash: '0x07' } }, proof: '0x' }),
        size: 300,
        arrival: 1,
        blockNumber: null,
      }),
    );
    const refused = (err: unknown) => {
      assert.ok(err instanceof PoolFormatError, `a PoolFormatError, not ${err}`);
      assert.match(err.message, /earlier tx format/);
      assert.match(err.message, /start afresh with another --data-dir \(or after removing this one\)/);
      return true;
    };
    assert.throws(() => [...store.readAll()], refused);
    await env.close();
    // A pool opened on it (as a node starts) refuses it too, rather than starting without those txs.
    const again = stores.open(name);
    assert.throws(() => TxPool.open(again, { maxTxCount: 10, maxBytes: Number.POSITIVE_INFINITY }), refused);
    await again.close();
  });
});
