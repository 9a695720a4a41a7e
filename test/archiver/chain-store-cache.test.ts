// The chain store's cache of decoded blocks is bounded by count and by the encoded size of what it
// holds: full blocks (a few MB decoded each) must not pile up to gigabytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CACHE_BYTES, CACHE_ENTRIES, DecodedCache } from '../../src/archiver/chain-store.js';

test('the oldest entries go once the count or the encoded bytes would pass the bound', () => {
  const cache = new DecodedCache<string>();
  for (let n = 0; n < CACHE_ENTRIES + 10; n++) cache.remember(n, `block ${n}`, 1);
  assert.equal(cache.get(9), undefined);
  assert.equal(cache.get(10), 'block 10');
  assert.equal(cache.get(CACHE_ENTRIES + 9), `block ${CACHE_ENTRIES + 9}`);

  const big = new DecodedCache<number>();
  const size = CACHE_BYTES / 4;
  for (let n = 0; n < 6; n++) big.remember(n, n, size);
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((n) => big.get(n)),
    [undefined, undefined, 2, 3, 4, 5],
  );
  // One entry larger than the whole bound is still kept (alone), so a read never fails to cache.
  big.remember(6, 6, CACHE_BYTES * 2);
  assert.deepEqual(
    [5, 6].map((n) => big.get(n)),
    [undefined, 6],
  );
  // Remembering a key again replaces it without counting it twice.
  const again = new DecodedCache<number>();
  for (let i = 0; i < 10; i++) again.remember(1, i, CACHE_BYTES / 2);
  again.remember(2, 2, CACHE_BYTES / 2);
  assert.deepEqual([again.get(1), again.get(2)], [9, 2]);
  again.forgetFrom(2);
  assert.deepEqual([again.get(1), again.get(2)], [9, undefined]);
});

test('inside a write, touched numbers are read afresh and not cached; settling forgets them', () => {
  const cache = new DecodedCache<string>();
  const stored = new Map([
    [1, 'one'],
    [2, 'two'],
  ]);
  let loads = 0;
  const read = (n: number) =>
    cache.read(
      n,
      () => {
        loads++;
        const v = stored.get(n);
        return v === undefined ? undefined : Buffer.from(v);
      },
      (bytes) => Buffer.from(bytes).toString(),
    );
  assert.deepEqual([read(1), read(2), read(1), read(2)], ['one', 'two', 'one', 'two']);
  assert.equal(loads, 2);
  cache.touch(2); // a write changes block 2
  stored.set(2, 'TWO');
  assert.deepEqual([read(1), read(2), read(2)], ['one', 'TWO', 'TWO']);
  assert.equal(loads, 4, 'block 1 still cached, block 2 read afresh each time');
  cache.settle();
  assert.equal(cache.get(2), undefined);
  assert.equal(read(2), 'TWO');
  assert.equal(cache.get(2), 'TWO');
  assert.equal(read(3), undefined);
});
