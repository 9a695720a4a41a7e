import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Hold } from '../../src/core/hold.js';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('Hold', () => {
  test('waiters wait while any hold is taken; holds nest; a second release of one hold counts once', async () => {
    const hold = new Hold();
    let woke = 0;
    await hold.whenReleased(); // none taken: at once
    const outer = hold.take();
    const inner = hold.take();
    const waiting = [hold.whenReleased(), hold.whenReleased()].map((p) => p.then(() => woke++));
    inner();
    inner();
    await turns(5);
    assert.equal(woke, 0, 'the outer hold is still taken');
    assert.equal(hold.held, true);
    outer();
    await Promise.all(waiting);
    assert.equal(woke, 2);
    assert.equal(hold.held, false);
  });

  test('a waiter woken by a release waits again for a hold taken before it runs', async () => {
    const hold = new Hold();
    const first = hold.take();
    let woke = false;
    const waiting = hold.whenReleased().then(() => {
      woke = true;
    });
    first();
    const second = hold.take();
    await turns(5);
    assert.equal(woke, false);
    second();
    await waiting;
    assert.equal(woke, true);
  });
});
