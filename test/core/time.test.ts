import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { epochAt, epochOfSlot, epochSlots, slotAt, slotStart } from '../../src/core/time.js';

const c = { l1GenesisTime: 1_700_000_000n, slotDuration: 8, epochDuration: 4 };

describe('L2 time', () => {
  test('slots and epochs from L1 timestamps', () => {
    assert.equal(slotAt(c.l1GenesisTime, c), 0);
    assert.equal(slotAt(c.l1GenesisTime - 100n, c), 0);
    assert.equal(slotAt(c.l1GenesisTime + 7n, c), 0);
    assert.equal(slotAt(c.l1GenesisTime + 8n, c), 1);
    assert.equal(slotAt(c.l1GenesisTime + 33n, c), 4);
    assert.equal(epochAt(c.l1GenesisTime + 31n, c), 0);
    assert.equal(epochAt(c.l1GenesisTime + 32n, c), 1);
    assert.deepEqual(epochSlots(2, c), [8, 11]);
  });

  test('a slot starts at its own time and every timestamp inside it maps back to it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 7 }), (slot, offset) => {
        const start = slotStart(slot, c);
        assert.equal(slotAt(start + BigInt(offset), c), slot);
        const [first, last] = epochSlots(epochOfSlot(slot, c), c);
        assert.ok(first <= slot && slot <= last);
      }),
    );
  });
});
