// The pending txs' indexes: pool order kept on insert and delete, the byte total, and which
// entries spend a nullifier while one or several of them do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type IndexedEntry, PendingIndex } from '../../src/mempool/pending-index.js';

const entry = (hash: bigint, priorityFee: bigint, nullifiers: bigint[], size = 10): IndexedEntry => ({
  hash,
  priorityFee,
  arrival: Number(hash),
  size,
  nullifiers,
});

describe('PendingIndex', () => {
  test('keeps entries in pool order with their total size', () => {
    const index = new PendingIndex<IndexedEntry>();
    const [a, b, c] = [entry(1n, 3n, [], 5), entry(2n, 7n, [], 6), entry(3n, 3n, [], 7)];
    for (const e of [a, b, c]) index.insert(e);
    assert.deepEqual(
      index.ordered.map((e) => e.hash),
      [2n, 1n, 3n],
    );
    assert.equal(index.count, 3);
    assert.equal(index.bytes, 18);
    assert.equal(index.indexAfter(a), 2);
    index.delete(a);
    assert.deepEqual(
      index.ordered.map((e) => e.hash),
      [2n, 3n],
    );
    assert.equal(index.bytes, 13);
  });

  test('a nullifier spent by several entries is found until the last of them leaves', () => {
    const index = new PendingIndex<IndexedEntry>();
    const [a, b, c] = [entry(1n, 1n, [100n, 101n]), entry(2n, 2n, [100n]), entry(3n, 3n, [100n, 102n])];
    for (const e of [a, b, c]) index.insert(e);
    assert.deepEqual([...index.spending([100n])].sort(), [1n, 2n, 3n]);
    assert.deepEqual([...index.spending([101n, 102n, 999n])].sort(), [1n, 3n]);
    index.delete(b);
    index.delete(a);
    assert.deepEqual([...index.spending([100n, 101n])], [3n]);
    index.delete(c);
    assert.deepEqual([...index.spending([100n, 102n])], []);
    assert.equal(index.count, 0);
    assert.equal(index.bytes, 0);
  });

  test('clear forgets every entry', () => {
    const index = new PendingIndex<IndexedEntry>();
    index.insert(entry(1n, 1n, [5n]));
    index.clear();
    assert.equal(index.count, 0);
    assert.equal(index.bytes, 0);
    assert.deepEqual([...index.spending([5n])], []);
  });
});
