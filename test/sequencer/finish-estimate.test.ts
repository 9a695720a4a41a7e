// The sequencer's estimate of how long finishing a checkpoint takes, which decides where realtime
// building stops.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FinishTimeEstimate } from '../../src/sequencer/finish-estimate.js';

describe('finish time estimate', () => {
  test('knows nothing until a checkpoint of at least 20 txs was finished', () => {
    const e = new FinishTimeEstimate();
    assert.equal(e.predict(100), undefined);
    e.observe(19, 5_000);
    assert.equal(e.predict(100), undefined, 'a small checkpoint teaches nothing per tx');
    e.observe(20, Number.NaN);
    assert.equal(e.predict(100), undefined);
  });

  test('predicts a fixed part plus a part per tx, with a safety margin', () => {
    const e = new FinishTimeEstimate();
    e.observe(400, 1_100); // 100 ms fixed, 2.5 ms per tx
    assert.equal(e.predict(400), 1_375);
    assert.equal(e.predict(0), 125);
    assert.ok(e.predict(200)! < e.predict(400)!);
  });

  test('a small checkpoint never raises the estimate, but one faster than it brings it down, so a slow checkpoint cannot keep blocks small for good', () => {
    const e = new FinishTimeEstimate();
    // One slow checkpoint of 22 txs under load: 132 ms per tx; building then stops near 12 txs.
    e.observe(22, 3_004);
    assert.equal(e.predict(22), (100 + 22 * 132) * 1.25);
    e.observe(12, 5_000); // slower still, but too small to say so per tx
    assert.equal(e.predict(22), (100 + 22 * 132) * 1.25);
    // The machine is quiet again: checkpoints of 12 txs finish in 220 ms (10 ms per tx at most).
    let stopsAt = 0;
    for (let i = 0; i < 12; i++) {
      e.observe(12, 220);
      stopsAt = 0;
      while (e.predict(stopsAt + 1)! <= 2_000) stopsAt++;
    }
    assert.ok(stopsAt >= 20, `blocks may grow past 20 txs again (now ${stopsAt})`);
    e.observe(0, 10_000); // an empty checkpoint says nothing
    e.observe(12, Number.NaN);
    assert.ok(e.predict(20)! <= 2_000);
  });

  test('believes a slower checkpoint at once and a faster one gradually', () => {
    const e = new FinishTimeEstimate();
    e.observe(100, 300); // 2 ms per tx
    e.observe(100, 600); // 5 ms per tx: taken as it is
    assert.equal(e.predict(100), (100 + 500) * 1.25);
    e.observe(100, 100); // 0 ms per tx: 30 % of the way there
    assert.equal(e.predict(100), (100 + 350) * 1.25);
  });
});
