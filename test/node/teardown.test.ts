// The node's one teardown order: steps registered in any order run in TEARDOWN_ORDER, each once,
// only those registered; a failing step does not keep the others (the stores) from closing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEARDOWN_ORDER, Teardown } from '../../src/node/teardown.js';

test('registered steps run in the teardown order, each once', async () => {
  const ran: string[] = [];
  const teardown = new Teardown();
  // Registered as a start opens them: data directory first, timers last.
  for (const step of [
    'dataDir',
    'nodeStore',
    'worldState',
    'l1',
    'mempoolStore',
    'consensus',
    'driver',
    'l1Health',
  ] as const)
    teardown.add(step, () => void ran.push(step));
  await teardown.run();
  assert.deepEqual(ran, [
    'l1Health',
    'driver',
    'consensus',
    'l1',
    'worldState',
    'mempoolStore',
    'nodeStore',
    'dataDir',
  ]);
  assert.deepEqual(
    ran,
    TEARDOWN_ORDER.filter((s) => ran.includes(s)),
  );
  await teardown.run();
  assert.equal(ran.length, 8, 'a second run closes nothing twice');
});

test('a step that fails does not keep the rest from running; the first failure is thrown after them', async () => {
  const ran: string[] = [];
  const teardown = new Teardown();
  teardown.add('l1', () => {
    throw new Error('L1 save failed');
  });
  teardown.add('worldState', async () => void ran.push('worldState'));
  teardown.add('dataDir', () => void ran.push('dataDir'));
  await assert.rejects(teardown.run(), /L1 save failed/);
  assert.deepEqual(ran, ['worldState', 'dataDir']);
});
