import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { L1BlockClock } from '../../src/sequencer/l1-clock.js';

const BLOCK_MS = 1000;
/** An L1 that mines a block every second, at `phase` ms past each wall-clock second. */
const minedAtOf = (timestamp: number, phase: number) => timestamp * 1000 + phase;

describe('L1BlockClock', () => {
  test('learns when blocks are mined from the earliest sightings, whatever the phase', () => {
    for (const phase of [0, 130, 870]) {
      const clock = new L1BlockClock();
      // Passes every 450 ms see the latest block between 0 and ~1 s after it was mined.
      for (let wall = 100_000 * 1000; wall < 100_010 * 1000; wall += 450) {
        const latest = Math.floor((wall - phase) / 1000);
        clock.observe(BigInt(latest), wall);
      }
      // A block seen 900 ms after it was mined: its mining time, not its sighting, comes back.
      const seen = minedAtOf(100_011, phase) + 900;
      const minedAt = clock.minedAt(100_011n, seen, BLOCK_MS);
      assert.ok(minedAt <= seen - 800, `phase ${phase}: mined at ${minedAt - seen} ms from the sighting`);
      assert.ok(minedAt >= minedAtOf(100_011, phase), `phase ${phase}: not before it was mined`);
    }
  });

  test('a block is never taken as mined after it was seen, nor more than a block time before', () => {
    const clock = new L1BlockClock();
    // An L1 clock far ahead of the wall clock (a warp): the estimate would be in the future.
    assert.equal(clock.minedAt(5_000_000n, 1_000_000, BLOCK_MS), 1_000_000);
    // Then far behind (a stall): the history would put it long before; one block time at most.
    const fresh = new L1BlockClock();
    fresh.observe(2_000n, 2_000_000);
    assert.equal(fresh.minedAt(2_001n, 2_060_000, BLOCK_MS), 2_060_000 - BLOCK_MS);
  });

  test('an old sighting ages out: a later, steadier offset takes over', () => {
    const clock = new L1BlockClock();
    clock.observe(1_000n, 1_000_000 - 5_000); // once, 5 s "early" (a jump of the L1 clock)
    for (let i = 1; i <= 40; i++) clock.observe(BigInt(1_000 + i), (1_000 + i) * 1000 + 200);
    assert.equal(clock.minedAt(1_041n, 1_041_000 + 700, BLOCK_MS), 1_041_000 + 200);
  });
});
