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

  test('believes a slower checkpoint at once and a faster one gradually', () => {
    const e = new FinishTimeEstimate();
    e.observe(100, 300); // 2 ms per tx
    e.observe(100, 600); // 5 ms per tx: taken as it is
    assert.equal(e.predict(100), (100 + 500) * 1.25);
    e.observe(100, 100); // 0 ms per tx: 30 % of the way there
    assert.equal(e.predict(100), (100 + 350) * 1.25);
  });
});
