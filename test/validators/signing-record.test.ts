// The signing record: one digest per validator and slot, kept on disk, pruned to recent slots.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SigningRecord } from '../../src/validators/signing-record.js';
import { tempStores } from '../helpers/temp-stores.js';

const stores = tempStores('cairn-signing-record-');
const A = '0x00000000000000000000000000000000000000aA';
const B = '0x00000000000000000000000000000000000000bb';
const d = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const;

describe('SigningRecord', () => {
  test('one digest per validator and slot; the same digest may be claimed again', () => {
    const r = new SigningRecord(stores.fresh(), 64);
    assert.equal(r.claim(A, 5, d(1)), true);
    assert.equal(r.claim(A, 5, d(1)), true, 'the same digest again');
    assert.equal(r.claim(A.toLowerCase(), 5, d(2)), false, 'another digest, whatever the address case');
    assert.equal(r.signedIn(A, 5), d(1), 'the refused claim recorded nothing');
    assert.equal(r.claim(B, 5, d(2)), true, 'another validator');
    assert.equal(r.claim(A, 6, d(2)), true, 'another slot');
    assert.equal(r.claim(A, 4, d(3)), true, 'an earlier slot not signed before');
    assert.equal(r.claim(A, 4, d(4)), false);
  });

  test('kept on disk: a reopened store refuses a second digest', async () => {
    const env = stores.open('durable');
    assert.equal(new SigningRecord(env, 64).claim(A, 9, d(1)), true);
    await env.close();
    const reopened = new SigningRecord(stores.open('durable'), 64);
    assert.equal(reopened.claim(A, 9, d(2)), false);
    assert.equal(reopened.signedIn(A, 9), d(1));
  });

  test('slots more than keepSlots below the newest claim are dropped, per validator', () => {
    const r = new SigningRecord(stores.fresh(), 4);
    for (const slot of [1, 2, 3, 4, 5]) r.claim(A, slot, d(slot));
    r.claim(B, 1, d(100));
    r.claim(A, 9, d(9)); // drops A's slots below 5
    assert.deepEqual(
      [1, 2, 3, 4, 5, 9].map((s) => r.signedIn(A, s)),
      [undefined, undefined, undefined, undefined, d(5), d(9)],
    );
    assert.equal(r.signedIn(B, 1), d(100), "B's record is its own");
    // Slot ordering is numeric, not textual (slot 10 > slot 9).
    r.claim(A, 10, d(10));
    assert.equal(r.signedIn(A, 9), d(9));
  });

  test('bad slots and sizes are refused', () => {
    assert.throws(() => new SigningRecord(stores.fresh(), 0), RangeError);
    const r = new SigningRecord(stores.fresh(), 4);
    assert.throws(() => r.claim(A, -1, d(1)), RangeError);
    assert.throws(() => r.claim(A, 1.5, d(1)), RangeError);
  });
});
