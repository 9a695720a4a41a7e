// End to end: the node and an L1 that is not there. Start-up waits for it (and a signal ends the
// wait at once); a running node reports an L1 that stops answering (GET /status 503, svc_isReady
// false) and recovers when it answers again; an embedded L1 that dies stops the node.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { withAbsentContracts } from '../../src/l1/addresses.js';
import { startAnvil } from '../../src/l1/anvil.js';
import { deployOnExternalL1 } from '../helpers/l1.js';
import { CAIRN_BIN, FREE_PORTS, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-l1-health-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ADDRESSES = JSON.stringify({
  rollupAddress: '0x0000000000000000000000000000000000000001',
  registryAddress: '0x0000000000000000000000000000000000000002',
  inboxAddress: '0x0000000000000000000000000000000000000003',
  outboxAddress: '0x0000000000000000000000000000000000000004',
  feeJuiceAddress: '0x0000000000000000000000000000000000000005',
  feeJuicePortalAddress: '0x0000000000000000000000000000000000000006',
});

async function status(url: string): Promise<{ code: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/status`);
  return { code: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('L1 health', () => {
  test('start-up waits for an L1 that does not answer, saying so, and a signal ends the wait', async () => {
    const child = spawn(process.execPath, [
      CAIRN_BIN,
      'start',
      '--ephemeral',
      ...FREE_PORTS,
      '--log-format',
      'pretty',
      '--l1-rpc-url',
      'http://127.0.0.1:59997',
      '--l1-contract-addresses',
      ADDRESSES,
    ]);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await until('a second attempt', () => /\(attempt 2\)/.test(output));
      assert.match(output, /waiting for L1 at http:\/\/127\.0\.0\.1:59997 \(attempt 1\): ECONNREFUSED/);
      const signalledAt = Date.now();
      child.kill('SIGINT');
      assert.equal(await exited, 0, output);
      // Before: viem's own retries held start-up for ~45 s after the first signal.
      assert.ok(Date.now() - signalledAt < 5000, `exited ${Date.now() - signalledAt} ms after the signal`);
      assert.match(output, /SIGINT during start-up: stopping start-up/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('an external L1 that stops answering: 503 and not ready; 200 and ready once it is back', async () => {
    const stateFile = join(dir, 'external', 'state.json');
    let anvil = await startAnvil({ stateFile, chainId: 31337, stateIntervalSeconds: 1 });
    const port = anvil.port;
    const deployed = await deployOnExternalL1(anvil.rpcUrl);
    const {
      stakingAssetAddress,
      coinIssuerAddress,
      rewardDistributorAddress,
      governanceProposerAddress,
      governanceAddress,
      ...ours
    } = deployed;
    // The whole svc_getL1ContractAddresses form, zero addresses included, is accepted as it is.
    const node = await startCairn([
      '--log-format',
      'json',
      '--l1-rpc-url',
      anvil.rpcUrl,
      '--l1-contract-addresses',
      JSON.stringify(withAbsentContracts(ours)),
      '--l1-max-failed-polls',
      '2',
    ]);
    try {
      await until('L1 polled', async () => (await status(node.publicUrl)).body.l1 !== undefined);
      const healthy = await status(node.publicUrl);
      assert.equal(healthy.code, 200, JSON.stringify(healthy.body));
      assert.deepEqual(Object.keys(healthy.body.l1 as object).sort(), [
        'failedPolls',
        'head',
        'lastOkAt',
        'reachable',
        'rpcUrl',
        'syncedBlock',
      ]);
      assert.equal((healthy.body.l1 as { rpcUrl: string }).rpcUrl, anvil.rpcUrl);
      assert.equal(await result(node.publicUrl, 'svc_isReady'), true);

      await anvil.stop();
      await until('503', async () => (await status(node.publicUrl)).code === 503);
      const down = await status(node.publicUrl);
      const l1 = down.body.l1 as { reachable: boolean; failedPolls: number; lastOkAt: string };
      assert.equal(l1.reachable, false);
      assert.ok(l1.failedPolls >= 2);
      assert.ok(Date.parse(l1.lastOkAt) > 0);
      assert.match(String((down.body.problems as string[])[0]), /L1 unreachable/);
      assert.equal(await result(node.publicUrl, 'svc_isReady'), false);
      assert.match(node.output(), /L1 at http:\/\/127\.0\.0\.1:\d+ unreachable: 2 polls failed in a row/);

      anvil = await startAnvil({ stateFile, chainId: 31337, port });
      await until('200 again', async () => (await status(node.publicUrl)).code === 200);
      assert.equal(await result(node.publicUrl, 'svc_isReady'), true);
      assert.match(node.output(), /answers again/);
    } finally {
      await node.stop();
      await anvil.stop();
    }
  });

  test('an embedded L1 that dies stops the node, which says why', async () => {
    const node = await startCairn(['--log-format', 'json']);
    const facts = node
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { facts?: { dataDir: string } })
      .find((r) => r.facts !== undefined)?.facts;
    assert.ok(facts, node.output());
    const pid = Number(readFileSync(join(facts.dataDir, 'l1', 'anvil.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    await until('the node to exit', () => node.child.exitCode !== null);
    assert.equal(await node.stop(), 1, node.output());
    assert.match(node.output(), /the embedded L1 \(anvil\) was killed \(SIGKILL\): stopping the node/);
    assert.match(node.output(), /"msg":"bye"/);
  });
});
