import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { L1Health } from '../../src/node/l1-health.js';

/** A logger that keeps what it is told, as `LEVEL message`. */
function recordingLogger() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info', base: undefined },
    {
      write(text: string) {
        const r = JSON.parse(text) as { level: number; msg: string };
        lines.push(`${pino.levels.labels[r.level]} ${r.msg}`);
      },
    },
  );
  return { logger, lines };
}

describe('L1 health', () => {
  test('unreachable after maxFailedPolls failures in a row, reachable again at the first answer', async () => {
    let answer: bigint | Error = 7n;
    const { logger, lines } = recordingLogger();
    const health = new L1Health({
      rpcUrl: 'http://l1',
      latestBlock: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
      syncedBlock: () => 5n,
      maxFailedPolls: 3,
      logger,
    });
    const before = health.report();
    assert.deepEqual(before, {
      rpcUrl: 'http://l1',
      reachable: true,
      head: null,
      syncedBlock: 5,
      lastOkAt: null,
      failedPolls: 0,
    });
    await health.poll();
    const ok = health.report();
    assert.equal(ok.head, 7);
    assert.ok(ok.lastOkAt !== null && Date.now() - Date.parse(ok.lastOkAt) < 60_000);

    answer = Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' });
    await health.poll();
    await health.poll();
    assert.equal(health.reachable, true, 'two failures of three allowed');
    assert.deepEqual(lines, ['warn L1 at http://l1 does not answer: ECONNREFUSED']);
    await health.poll();
    assert.equal(health.reachable, false);
    const down = health.report();
    assert.equal(down.failedPolls, 3);
    assert.equal(down.head, 7, 'the last head seen');
    assert.equal(down.lastOkAt, ok.lastOkAt);
    assert.match(lines[1]!, /^error L1 at http:\/\/l1 unreachable: 3 polls failed in a row \(ECONNREFUSED\)/);
    await health.poll();
    assert.equal(lines.length, 2, 'one error, not one per poll');

    answer = 9n;
    await health.poll();
    assert.equal(health.reachable, true);
    assert.equal(health.report().failedPolls, 0);
    assert.equal(health.report().head, 9);
    assert.equal(lines[2], 'info L1 at http://l1 answers again (block 9) after 4 failed polls');
  });

  test('polls on its own until stopped', async () => {
    let polls = 0;
    const health = new L1Health({
      rpcUrl: 'http://l1',
      latestBlock: async () => BigInt(++polls),
      syncedBlock: () => 0n,
      maxFailedPolls: 1,
      intervalMs: 10,
      logger: pino({ level: 'silent' }),
    });
    health.start();
    while (polls < 3) await new Promise((r) => setTimeout(r, 5));
    await health.stop();
    const stoppedAt = polls;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(polls, stoppedAt);
  });
});
