// Which pending txs a newcomer evicts to fit the pool's caps: the lowest in pool order first,
// never a tx it replaces, and none at all when the newcomer would itself be the lowest.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { IndexedEntry } from '../../src/mempool/pending-index.js';
import { checkCap, evictionsToFit } from '../../src/mempool/pool-caps.js';

const entry = (hash: bigint, priorityFee: bigint, size = 10): IndexedEntry => ({
  hash,
  priorityFee,
  arrival: Number(hash),
  size,
  nullifiers: [],
});

/** Pending txs in pool order: fees 9, 7, 5, 3 of 10 bytes each. */
const ordered = [entry(1n, 9n), entry(2n, 7n), entry(3n, 5n), entry(4n, 3n)];
const pending = { ordered, bytes: 40 };
const unlimited = { maxTxCount: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

describe('evictionsToFit', () => {
  test('within the caps nothing leaves', () => {
    assert.deepEqual(evictionsToFit(entry(5n, 1n), pending, [], unlimited), []);
    assert.deepEqual(evictionsToFit(entry(5n, 1n), pending, [], { maxTxCount: 5, maxBytes: 50 }), []);
  });

  test('over the count cap the lowest leave, lowest first', () => {
    assert.deepEqual(evictionsToFit(entry(5n, 6n), pending, [], { ...unlimited, maxTxCount: 3 }), [4n, 3n]);
  });

  test('over the byte cap the lowest leave until the newcomer fits', () => {
    assert.deepEqual(evictionsToFit(entry(5n, 8n, 25), pending, [], { ...unlimited, maxBytes: 50 }), [
      4n,
      3n,
    ]);
  });

  test('a newcomer that would be the lowest is full', () => {
    assert.equal(evictionsToFit(entry(5n, 4n), pending, [], { ...unlimited, maxTxCount: 3 }), 'full');
    assert.equal(evictionsToFit(entry(5n, 1n), pending, [], { ...unlimited, maxTxCount: 4 }), 'full');
  });

  test('replaced txs free their room and are skipped by the walk', () => {
    const replaced = [ordered[3]!];
    assert.deepEqual(evictionsToFit(entry(5n, 4n), pending, replaced, { ...unlimited, maxTxCount: 4 }), []);
    assert.deepEqual(evictionsToFit(entry(5n, 8n), pending, [ordered[3]!], { ...unlimited, maxTxCount: 3 }), [
      3n,
    ]);
  });
});

describe('checkCap', () => {
  test('a negative or NaN cap is a RangeError; zero and infinity are caps', () => {
    assert.throws(() => checkCap('maxTxCount', -1), /maxTxCount must be a non-negative number/);
    assert.throws(() => checkCap('maxBytes', Number.NaN), RangeError);
    checkCap('maxTxCount', 0);
    checkCap('maxBytes', Number.POSITIVE_INFINITY);
  });
});
