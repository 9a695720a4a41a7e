// The pool's order: priority fee descending, then arrival, then hash; lowerBound finds an entry's
// place in a sorted array.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareRanked, lowerBound, type Ranked } from '../../src/mempool/pool-order.js';

const r = (priorityFee: bigint, arrival: number, hash: bigint): Ranked => ({ priorityFee, arrival, hash });

describe('pool order', () => {
  test('a higher fee comes first, then the earlier arrival, then the smaller hash', () => {
    assert.ok(compareRanked(r(5n, 9, 9n), r(4n, 0, 0n)) < 0);
    assert.ok(compareRanked(r(4n, 0, 9n), r(4n, 1, 0n)) < 0);
    assert.ok(compareRanked(r(4n, 1, 1n), r(4n, 1, 2n)) < 0);
    assert.equal(compareRanked(r(4n, 1, 1n), r(4n, 1, 1n)), 0);
    assert.ok(compareRanked(r(4n, 1, 2n), r(4n, 1, 1n)) > 0);
  });

  test('lowerBound is the first position not before the entry', () => {
    const sorted = [r(9n, 0, 1n), r(5n, 1, 2n), r(5n, 3, 3n), r(1n, 2, 4n)];
    assert.equal(lowerBound(sorted, sorted[2]!), 2);
    assert.equal(lowerBound(sorted, r(5n, 2, 7n)), 2);
    assert.equal(lowerBound(sorted, r(10n, 9, 0n)), 0);
    assert.equal(lowerBound(sorted, r(0n, 0, 0n)), 4);
    assert.equal(lowerBound([], r(1n, 0, 0n)), 0);
  });
});
