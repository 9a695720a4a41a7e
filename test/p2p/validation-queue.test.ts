import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ValidationJob, ValidationQueue } from '../../src/p2p/validation-queue.js';

/** A job whose handler waits until released; records when it ran. */
function job(priority: 'consensus' | 'bulk', peer: string, ran: string[], label: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const j: ValidationJob & { release: () => void } = {
    priority,
    peer,
    run: async () => {
      ran.push(label);
      await gate;
    },
    release: () => release(),
  };
  return j;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('gossip validation queue', () => {
  test('consensus messages run at once and are never refused, however full the bulk queue is', async () => {
    const ran: string[] = [];
    const q = new ValidationQueue({ maxPending: 2, concurrency: 1, ratePerPeer: 1000, burstPerPeer: 1000 });
    const bulk = Array.from({ length: 5 }, (_, i) => job('bulk', 'p', ran, `tx${i}`));
    const admissions = bulk.map((j) => q.offer(j));
    assert.deepEqual(admissions, ['run', 'queued', 'queued', 'full', 'full']);
    for (let i = 0; i < 10; i++) assert.equal(q.offer(job('consensus', 'p', ran, `c${i}`)), 'run');
    assert.deepEqual(ran.slice(0, 11), ['tx0', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
    assert.equal(q.counts.consensus, 10);
    assert.equal(q.counts.full, 2);
    for (const j of bulk) j.release();
    while (q.size > 0 || ran.length < 13) await tick();
    assert.deepEqual(ran.slice(11), ['tx1', 'tx2']);
    assert.equal(q.counts.highWater, 2);
  });

  test('the first bulk job after the queue was idle runs at once, however long it was idle', async () => {
    const ran: string[] = [];
    const q = new ValidationQueue({ maxPending: 10, concurrency: 1, ratePerPeer: 1000, burstPerPeer: 1000 });
    for (const round of [0, 1]) {
      // Idle for longer than a slice, without the event loop turning (a busy process).
      const until = performance.now() + 20;
      while (performance.now() < until);
      const j = job('bulk', 'p', ran, `tx${round}`);
      assert.equal(q.offer(j), 'run');
      assert.deepEqual(ran, round === 0 ? ['tx0'] : ['tx0', 'tx1']);
      j.release();
      while (q.size > 0 || q.counts.bulkRun <= round) await tick();
      await tick();
    }
  });

  test('while held, no bulk job starts (they wait, and are shed past maxPending); consensus runs; holds nest', async () => {
    const ran: string[] = [];
    const q = new ValidationQueue({ maxPending: 3, concurrency: 2, ratePerPeer: 1000, burstPerPeer: 1000 });
    const outer = q.hold();
    const inner = q.hold();
    const bulk = Array.from({ length: 4 }, (_, i) => job('bulk', 'p', ran, `tx${i}`));
    assert.deepEqual(
      bulk.map((j) => q.offer(j)),
      ['queued', 'queued', 'queued', 'full'],
    );
    assert.equal(q.offer(job('consensus', 'p', ran, 'c0')), 'run');
    for (let i = 0; i < 5; i++) await tick();
    assert.deepEqual(ran, ['c0']);
    inner();
    inner(); // a second release of the same hold changes nothing
    for (let i = 0; i < 5; i++) await tick();
    assert.deepEqual(ran, ['c0'], 'one hold is still taken');
    assert.equal(q.held, true);
    outer();
    assert.equal(q.held, false);
    for (const j of bulk) j.release();
    while (ran.length < 4) await tick();
    assert.deepEqual(ran, ['c0', 'tx0', 'tx1', 'tx2']);
  });

  test('the workers share one slice of each event-loop turn: a turn runs about a slice of jobs, not one per worker', async () => {
    const concurrency = 32;
    const q = new ValidationQueue({
      maxPending: 2000,
      concurrency,
      ratePerPeer: 10_000,
      burstPerPeer: 10_000,
    });
    let ran = 0;
    // Each job holds the thread for 1 ms, as a tx check does for about that long.
    const busy: ValidationJob = {
      priority: 'bulk',
      peer: 'p',
      run: async () => {
        const until = performance.now() + 1;
        while (performance.now() < until);
        ran++;
      },
    };
    for (let i = 0; i < 600; i++) q.offer({ ...busy });
    // A probe takes a turn of the event loop whenever it gets one, counting the jobs run in between.
    const perTurn: number[] = [];
    let last = 0;
    while (ran < 600) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      perTurn.push(ran - last);
      last = ran;
    }
    // A 4 ms slice takes about 4 jobs of 1 ms, plus the one each other worker had under way:
    // with a slice per worker a turn took up to 32 x 4.
    assert.ok(Math.max(...perTurn) <= concurrency + 8, `up to ${Math.max(...perTurn)} jobs in one turn`);
  });

  test('bulk jobs run `concurrency` at a time, in order, with the event loop served in between', async () => {
    const ran: string[] = [];
    const q = new ValidationQueue({ maxPending: 100, concurrency: 2 });
    const jobs = Array.from({ length: 6 }, (_, i) => job('bulk', `p${i}`, ran, `tx${i}`));
    for (const j of jobs) q.offer(j);
    await tick();
    assert.deepEqual(ran, ['tx0', 'tx1'], 'two running');
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    jobs[0]!.release();
    jobs[1]!.release();
    await new Promise((r) => setTimeout(r, 5));
    assert.ok(timerRan);
    assert.deepEqual(ran, ['tx0', 'tx1', 'tx2', 'tx3']);
    for (const j of jobs) j.release();
    while (ran.length < 6) await tick();
    assert.deepEqual(ran, ['tx0', 'tx1', 'tx2', 'tx3', 'tx4', 'tx5']);
    assert.equal(q.counts.bulkRun, 6);
  });

  test('a job taken while held is prepared when it runs, not when it is taken', async () => {
    const events: string[] = [];
    const q = new ValidationQueue({ maxPending: 10, concurrency: 1, ratePerPeer: 1000, burstPerPeer: 1000 });
    const release = q.hold();
    const j = { ...job('bulk', 'p', events, 'run0'), prepare: () => events.push('prepare0') };
    assert.equal(q.offer(j), 'queued');
    await tick();
    assert.deepEqual(events, []);
    release();
    j.release();
    while (events.length < 2) await tick();
    assert.deepEqual(events, ['prepare0', 'run0']);
  });

  test('prepare runs once, when a job is taken (before it waits), and never for a refused one', async () => {
    const events: string[] = [];
    const q = new ValidationQueue({ maxPending: 2, concurrency: 1, ratePerPeer: 1000, burstPerPeer: 1000 });
    const jobs = Array.from({ length: 4 }, (_, i) => {
      const j = job('bulk', 'p', events, `run${i}`);
      return { ...j, prepare: () => events.push(`prepare${i}`) };
    });
    assert.deepEqual(
      jobs.map((j) => q.offer(j)),
      ['run', 'queued', 'queued', 'full'],
    );
    // All taken jobs are prepared at once, while only the first runs.
    assert.deepEqual(events, ['prepare0', 'run0', 'prepare1', 'prepare2']);
    const consensus = { ...job('consensus', 'p', events, 'runC'), prepare: () => events.push('prepareC') };
    q.offer(consensus);
    assert.deepEqual(events.slice(4), ['prepareC', 'runC']);
    for (const j of [...jobs, consensus]) j.release();
    while (events.length < 8) await tick();
    assert.deepEqual(events.slice(6), ['run1', 'run2']);
    assert.ok(!events.includes('prepare3'));
  });

  test('a peer past its rate is refused; others are not; its bucket refills with time', () => {
    let now = 1_000_000;
    const q = new ValidationQueue(
      { maxPending: 1000, concurrency: 1, ratePerPeer: 10, burstPerPeer: 5 },
      () => now,
    );
    const ran: string[] = [];
    const offer = (peer: string) => q.offer(job('bulk', peer, ran, peer));
    const flood = Array.from({ length: 8 }, () => offer('flooder'));
    assert.equal(flood.filter((a) => a === 'rate-limited').length, 3, 'a burst of 5 allowed');
    assert.notEqual(offer('honest'), 'rate-limited');
    now += 200; // 10 a second: 2 more tokens
    assert.notEqual(offer('flooder'), 'rate-limited');
    assert.notEqual(offer('flooder'), 'rate-limited');
    assert.equal(offer('flooder'), 'rate-limited');
    assert.equal(q.counts.rateLimited, 4);
    // Consensus messages are not counted against the rate.
    assert.equal(q.offer(job('consensus', 'flooder', ran, 'c')), 'run');
  });

  test('property: admitted + refused = offered, waiting never exceeds maxPending, all admitted run', async () => {
    for (let round = 0; round < 20; round++) {
      const maxPending = 1 + Math.floor(Math.random() * 20);
      const q = new ValidationQueue({ maxPending, concurrency: 1 + Math.floor(Math.random() * 4) });
      let ran = 0;
      let admitted = 0;
      let refused = 0;
      const offers = Math.floor(Math.random() * 200);
      for (let i = 0; i < offers; i++) {
        const a = q.offer({
          priority: Math.random() < 0.1 ? 'consensus' : 'bulk',
          peer: `p${i % 3}`,
          run: async () => {
            ran++;
            if (Math.random() < 0.5) await tick();
          },
        });
        if (a === 'full' || a === 'rate-limited') refused++;
        else admitted++;
        assert.ok(q.size <= maxPending);
        if (Math.random() < 0.2) await tick();
      }
      while (ran < admitted) await tick();
      assert.equal(admitted + refused, offers);
      assert.equal(ran, admitted);
      assert.equal(q.size, 0);
    }
  });
});
