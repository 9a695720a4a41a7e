// End to end: the node killed (SIGKILL, no chance to save), alone or together with its
// embedded L1, then restarted on the same data directory.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPublicClient, http } from 'viem';
import { type AnvilStateJson, checkAnvilState, dumpAnvilState } from '../../src/l1/anvil-state.js';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-l1-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const argsFor = (dataDir: string) => [
  '--ephemeral',
  'false',
  '--data-dir',
  dataDir,
  '--clock',
  'manual',
  '--log-format',
  'json',
];

/** Kills the node and its anvil at once, as a power cut would. */
async function killBoth(node: CairnProcess, dataDir: string): Promise<void> {
  const anvilPid = Number(readFileSync(join(dataDir, 'l1', 'anvil.pid'), 'utf8'));
  node.child.kill('SIGKILL');
  process.kill(anvilPid, 'SIGKILL');
  await node.stop('SIGKILL');
}

const finalizedCheckpoint = async (node: CairnProcess): Promise<number> =>
  ((await result(node.publicUrl, 'svc_getChainTips')) as { finalized: { checkpoint: { number: number } } })
    .finalized.checkpoint.number;

/** The lines the node logged at error level (pino: 50). */
const errorLines = (node: CairnProcess): string[] =>
  node
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);

const l1UrlOf = (node: CairnProcess): string => /embedded L1 (http:\/\/[0-9.:]+)/.exec(node.output())![1]!;

describe('node and embedded L1 killed together', () => {
  test('the finalized tip does not move back: what the node called final is in the saved L1 state', async () => {
    const dataDir = join(dir, 'finality');
    const args = argsFor(dataDir);
    // A first run with a clean stop: the L1 has the checkpoints on disk.
    let node = await startCairn(args);
    for (const slot of [1, 2, 3]) await result(node.adminUrl, 'svcDev_advanceToSlot', [slot]);
    assert.equal(await node.stop(), 0);

    node = await startCairn(args);
    // Epoch 0 is proven when epoch 1 begins, and final two L1 blocks later.
    await result(node.adminUrl, 'svcDev_advanceToNextEpoch');
    await result(node.adminUrl, 'svcDev_mine', [2]);
    assert.match(node.output(), /checkpoint 3 is final/);
    const before = await finalizedCheckpoint(node);
    assert.equal(before, 3);
    await killBoth(node, dataDir);

    node = await startCairn(args);
    try {
      assert.ok((await finalizedCheckpoint(node)) >= before, 'the finalized tip moved back');
      assert.equal(await result(node.publicUrl, 'svc_getBlockNumber', ['finalized']), 3);
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });

  test('an L1 state whose storage is ahead of its blocks: the node says so and the chain moves again', async () => {
    const dataDir = join(dir, 'ahead');
    const args = argsFor(dataDir);
    let node = await startCairn(args);
    for (const slot of [1, 2]) await result(node.adminUrl, 'svcDev_advanceToSlot', [slot]);
    const l1Url = l1UrlOf(node);
    const atTwo = JSON.parse((await dumpAnvilState(l1Url)).toString()) as AnvilStateJson;
    await result(node.adminUrl, 'svcDev_advanceToSlot', [3]);
    assert.equal(await result(node.publicUrl, 'svc_getCheckpointNumber'), 3);
    const atThree = JSON.parse((await dumpAnvilState(l1Url)).toString()) as AnvilStateJson;
    await killBoth(node, dataDir);

    // What anvil's own periodic dump could write: the blocks as of checkpoint 2, the accounts
    // (the rollup's storage) as of checkpoint 3, whose proposal no saved block carries.
    const ahead = { ...atTwo, accounts: atThree.accounts };
    assert.equal(checkAnvilState(atTwo).consistent, true);
    assert.equal(checkAnvilState(ahead).consistent, false);
    // The newest saved state is that one; the one before it is consistent.
    writeFileSync(join(dataDir, 'l1', 'anvil-state.json'), JSON.stringify(ahead));
    writeFileSync(join(dataDir, 'l1', 'anvil-state.prev.json'), JSON.stringify(atTwo));

    node = await startCairn(args);
    try {
      const errors = errorLines(node);
      assert.ok(
        errors.some((line) => /saved state .*anvil-state\.json is inconsistent/.test(line)),
        `no error about the inconsistent L1 state:\n${node.output()}`,
      );
      const kept = (await result(node.publicUrl, 'svc_getCheckpointNumber')) as number;
      assert.equal(kept, 2);
      await result(node.adminUrl, 'svcDev_advanceToSlot', [4]);
      assert.equal(await result(node.publicUrl, 'svc_getCheckpointNumber'), 3);
      await result(node.adminUrl, 'svcDev_advanceToSlot', [5]);
      assert.equal(await result(node.publicUrl, 'svc_getCheckpointNumber'), 4);
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });
});

describe('node killed alone', () => {
  test('the L1 it left running is saved before it is stopped: no L1 block is lost', async () => {
    const dataDir = join(dir, 'orphan');
    const args = argsFor(dataDir);
    let node = await startCairn(args);
    for (const slot of [1, 2, 3]) await result(node.adminUrl, 'svcDev_advanceToSlot', [slot]);
    const l1Block = await createPublicClient({ transport: http(l1UrlOf(node)) }).getBlockNumber({
      cacheTime: 0,
    });
    await node.stop('SIGKILL');

    node = await startCairn(args);
    try {
      assert.match(node.output(), new RegExp(`saved its state at L1 block ${l1Block}\\b`));
      assert.doesNotMatch(node.output(), /L1 no longer has block/);
      assert.equal(await result(node.publicUrl, 'svc_getCheckpointNumber'), 3);
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });
});
