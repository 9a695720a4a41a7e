// ChainDriver's sync pause (svcAdmin_pauseSync / resumeSync) and live polling interval, with fake
// archiver, rollup, sequencer and prover objects that record their calls.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino, { type Logger } from 'pino';
import { ChainDriver, type PassReport } from '../../src/node/chain-driver.js';
import { silentLogger } from '../helpers/rpc.js';

/** A promise with its resolve, to hold a fake call until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves once `condition` holds; fails after `timeoutMs` (generous: never a timing assertion). */
async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets pending promise callbacks and immediates run. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};

interface Fakes {
  calls: string[];
  /** While set, archiver.sync waits for it. */
  syncGate: Promise<void> | undefined;
  driver: ChainDriver;
}

function makeDriver(
  options: {
    pollingIntervalMs?: number;
    sequencer?: boolean;
    prover?: boolean;
    away?: { followedUntil: () => bigint | undefined; slotAt: (t: bigint) => number };
    logger?: Logger;
  } = {},
): Fakes {
  const fakes = { calls: [] as string[], syncGate: undefined as Promise<void> | undefined } as Fakes;
  const rollup = {
    latestL1Block: async () => {
      fakes.calls.push('latestL1Block');
      return { number: 42n, hash: `0x${'42'.repeat(32)}`, timestamp: 1000n };
    },
  };
  const archiver = {
    sync: async () => {
      fakes.calls.push('sync');
      if (fakes.syncGate) await fakes.syncGate;
      fakes.calls.push('sync done');
      return { checkpoints: 2, proven: 0, pruned: 0, l1Block: 41n };
    },
  };
  const sequencer = {
    work: async (now: bigint, deadline: bigint) => {
      fakes.calls.push(`sequencer ${now} ${deadline}`);
      return { kind: 'no-txs' as const, slot: 7 };
    },
  };
  const prover = {
    work: async (now: bigint) => {
      fakes.calls.push(`prover ${now}`);
      return { epoch: 3, toCheckpoint: 2, txHash: '0x01' };
    },
  };
  fakes.driver = new ChainDriver({
    rollup: rollup as any,
    archiver: archiver as any,
    sequencer: options.sequencer === false ? undefined : (sequencer as any),
    prover: options.prover === false ? undefined : (prover as any),
    nextBlockIn: () => 12,
    pollingIntervalMs: options.pollingIntervalMs ?? 60_000,
    afterSync: async () => {
      fakes.calls.push('afterSync');
    },
    attester: {
      attestPending: async (now: bigint) => {
        fakes.calls.push(`attestPending ${now}`);
      },
    },
    away: options.away,
    logger: options.logger ?? silentLogger(),
  });
  return fakes;
}

const syncs = (f: Fakes) => f.calls.filter((c) => c === 'sync').length;

describe('ChainDriver passes', () => {
  test('a pass syncs, attests, settles the mempool, then runs the sequencer and the prover at the latest L1 time', async () => {
    const f = makeDriver();
    assert.equal(f.driver.isSyncPaused, false);
    const report = await f.driver.pass();
    assert.deepEqual(report, {
      l1Block: 41n,
      checkpointsSynced: 2,
      sequencer: { kind: 'no-txs', slot: 7 },
      proofSent: 3,
    } satisfies PassReport);
    // Attesting before settling: a proposer is waiting for it, the mempool is not.
    assert.deepEqual(f.calls, [
      'sync',
      'sync done',
      'latestL1Block',
      'attestPending 1000',
      'afterSync',
      'sequencer 1000 1012',
      'prover 1000',
    ]);
  });
});

describe('ChainDriver sync pause', () => {
  test('while paused a pass neither syncs nor runs the sequencer or prover, and says so', async () => {
    const f = makeDriver();
    await f.driver.pauseSync();
    assert.equal(f.driver.isSyncPaused, true);
    const report = await f.driver.pass();
    assert.deepEqual(report, { syncPaused: true, l1Block: 42n, checkpointsSynced: 0 });
    assert.deepEqual(f.calls, ['latestL1Block']);
    // Still paused for the next pass.
    assert.equal((await f.driver.pass()).syncPaused, true);
    assert.equal(syncs(f), 0);
    assert.ok(!f.calls.some((c) => c.startsWith('sequencer') || c.startsWith('prover')));
  });

  test('resumeSync makes the next pass sync again', async () => {
    const f = makeDriver();
    await f.driver.pauseSync();
    await f.driver.pass();
    f.driver.resumeSync();
    assert.equal(f.driver.isSyncPaused, false);
    const report = await f.driver.pass();
    assert.equal(report.syncPaused, undefined);
    assert.equal(report.checkpointsSynced, 2);
    assert.equal(syncs(f), 1);
    assert.ok(f.calls.includes('sequencer 1000 1012'));
  });

  test('pauseSync resolves only after a pass already running has finished', async () => {
    const f = makeDriver();
    const syncGate = gate();
    f.syncGate = syncGate.promise;
    const order: string[] = [];
    const running = f.driver.pass().then((r) => {
      order.push('pass');
      return r;
    });
    await waitUntil(() => f.calls.includes('sync'), 'the pass to be in sync');
    let paused = false;
    const pausing = f.driver.pauseSync().then(() => {
      paused = true;
      order.push('paused');
    });
    // Paused at once for later passes, but the call waits for the running pass.
    assert.equal(f.driver.isSyncPaused, true);
    await settle();
    assert.equal(paused, false, 'pauseSync resolved while a pass was running');
    syncGate.open();
    await pausing;
    const report = await running;
    assert.deepEqual(order, ['pass', 'paused']);
    // The running pass had started before the pause: it ran to its end.
    assert.equal(report.syncPaused, undefined);
    assert.ok(f.calls.includes('prover 1000'));
    // Passes after it are paused.
    f.syncGate = undefined;
    assert.equal((await f.driver.pass()).syncPaused, true);
    assert.equal(syncs(f), 1);
  });

  test('pauseSync with no pass running resolves without running one', async () => {
    const f = makeDriver();
    await f.driver.pauseSync();
    assert.deepEqual(f.calls, []);
  });

  test('with the timer running, paused passes keep coming but do not sync', async () => {
    const f = makeDriver({ pollingIntervalMs: 50 });
    await f.driver.pauseSync();
    f.driver.start();
    try {
      await waitUntil(() => f.calls.filter((c) => c === 'latestL1Block').length >= 2, 'two paused passes');
      assert.equal(syncs(f), 0);
      f.driver.resumeSync();
      await waitUntil(() => syncs(f) >= 1, 'a pass that syncs after resumeSync');
    } finally {
      await f.driver.stop();
    }
  });
});

describe('ChainDriver polling interval', () => {
  test('setPollingInterval cuts a wait already under way to the new interval', async () => {
    const f = makeDriver({ pollingIntervalMs: 10_000 });
    f.driver.start();
    try {
      await waitUntil(() => f.calls.includes('prover 1000'), 'the first pass');
      assert.equal(syncs(f), 1);
      // Waiting 10 s for the next pass; the new interval brings it forward.
      f.driver.setPollingInterval(20);
      await waitUntil(() => syncs(f) >= 3, 'passes at the new interval', 4000);
    } finally {
      await f.driver.stop();
    }
    // Stopped: no more passes.
    const after = syncs(f);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(syncs(f), after);
  });

  test('an interval set during a pass applies to the wait that follows it', async () => {
    const f = makeDriver({ pollingIntervalMs: 10_000 });
    const syncGate = gate();
    f.syncGate = syncGate.promise;
    f.driver.start();
    try {
      await waitUntil(() => f.calls.includes('sync'), 'the first pass to be in sync');
      f.driver.setPollingInterval(20);
      f.syncGate = undefined;
      syncGate.open();
      await waitUntil(() => syncs(f) >= 2, 'a second pass at the new interval', 4000);
    } finally {
      await f.driver.stop();
    }
  });

  // With mocked timers (deterministic): every pass is counted exactly.
  test('the cut wait replaces the old one: no extra pass when the old interval would have ended', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const f = makeDriver({ pollingIntervalMs: 1000 });
    f.driver.start();
    try {
      await settle();
      assert.equal(syncs(f), 1);
      f.driver.setPollingInterval(20);
      for (let i = 1; i <= 60; i++) {
        t.mock.timers.tick(20);
        await settle();
        assert.equal(syncs(f), 1 + i, `after ${i * 20} ms`);
      }
    } finally {
      await f.driver.stop();
    }
  });

  test('an interval set during a pass starts no second chain of passes', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const f = makeDriver({ pollingIntervalMs: 1000 });
    const syncGate = gate();
    f.syncGate = syncGate.promise;
    f.driver.start();
    try {
      await settle();
      assert.deepEqual(f.calls, ['sync']);
      f.driver.setPollingInterval(20);
      t.mock.timers.tick(20);
      await settle();
      f.syncGate = undefined;
      syncGate.open();
      await settle();
      assert.equal(syncs(f), 1, 'only the pass under way');
      for (let i = 1; i <= 5; i++) {
        t.mock.timers.tick(20);
        await settle();
        assert.equal(syncs(f), 1 + i, `${i} waits of 20 ms after the pass`);
      }
    } finally {
      await f.driver.stop();
    }
  });

  test('setPollingInterval on a stopped driver starts nothing; lengthening it delays the next pass', async () => {
    const f = makeDriver({ pollingIntervalMs: 20 });
    f.driver.setPollingInterval(20);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(f.calls, []);

    f.driver.start();
    try {
      await waitUntil(() => syncs(f) >= 2, 'passes at 20 ms');
      f.driver.setPollingInterval(60_000);
      await settle();
      const now = syncs(f);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // At most a pass already under way ends; no new one starts for a minute.
      assert.ok(syncs(f) <= now + 1, `${syncs(f)} passes, was ${now}`);
    } finally {
      await f.driver.stop();
    }
  });
});

describe('ChainDriver after a time away from L1', () => {
  const capture = () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    return { lines, logger };
  };
  const slotAt = (t: bigint) => Number(t / 8n);

  test('the first pass says once how long L1 ran on without the node', async () => {
    const { lines, logger } = capture();
    // The node had read L1 up to t=900; L1 is at t=1000 (slots of 8 s: 112 -> 125).
    const f = makeDriver({ away: { followedUntil: () => 900n, slotAt }, logger });
    await f.driver.pass();
    await f.driver.pass();
    const away = lines.filter((l) => /L1 ran on/.test(l.msg));
    assert.equal(away.length, 1, JSON.stringify(lines));
    assert.equal(away[0]!.level, 40);
    assert.match(
      away[0]!.msg,
      /^L1 ran on for 1 min 40 s \(slots 113\.\.125\) while this node did not follow it/,
    );
  });

  test('nothing is said after a pause shorter than a slot, or on a first start', async () => {
    for (const followedUntil of [() => 995n, () => undefined]) {
      const { lines, logger } = capture();
      await makeDriver({ away: { followedUntil, slotAt }, logger }).driver.pass();
      assert.deepEqual(
        lines.filter((l) => /L1 ran on/.test(l.msg)),
        [],
      );
    }
  });
});

describe('ChainDriver: a slow pass', () => {
  test('a pass of a second or more is logged with the time of each step; a quick one is not', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const f = makeDriver({ logger });
    await f.driver.pass();
    assert.deepEqual(
      lines.filter((l) => /chain pass took/.test(l.msg)),
      [],
    );
    let open!: () => void;
    f.syncGate = new Promise<void>((resolve) => (open = resolve));
    setTimeout(() => open(), 1050);
    await f.driver.pass();
    const slow = lines.filter((l) => /chain pass took/.test(l.msg));
    assert.equal(slow.length, 1, JSON.stringify(lines));
    assert.match(
      slow[0]!.msg,
      /^chain pass took \d+ ms: sync (1\d{3}), attest \d+, settle \d+, sequencer \(no-txs\) \d+, prover \d+, monitor \d+$/,
    );
  });
});
