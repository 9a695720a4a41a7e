// End to end: the node on its embedded L1 (anvil), across restarts and early signals.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPublicClient, http } from 'viem';
import { startAnvil } from '../../src/l1/anvil.js';
import { deployOnExternalL1 } from '../helpers/l1.js';
import { CAIRN_BIN, FREE_PORTS, runCairn, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-l1-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Processes whose command line mentions `text` (anvil's mentions its state file, under the data dir). */
function processesMentioning(text: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', text], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('embedded L1', () => {
  test('deploys on the first start, finds the same contracts after a restart', async () => {
    const dataDir = join(dir, 'persistent');
    const args = ['--ephemeral', 'false', '--data-dir', dataDir, '--log-format', 'json'];
    const first = await startCairn(args);
    const addresses = (await result(first.publicUrl, 'svc_getL1ContractAddresses')) as Record<string, string>;
    assert.match(first.output(), /L1 contracts deployed/);
    const l1Url = /embedded L1 (http:\/\/127\.0\.0\.1:\d+)/.exec(first.output())![1]!;
    const client = createPublicClient({ transport: http(l1Url) });
    assert.equal(await client.getChainId(), 31337);
    assert.ok(await client.getCode({ address: addresses.rollupAddress as `0x${string}` }));
    const info = (await result(first.publicUrl, 'node_getNodeInfo')) as { l1ContractAddresses: unknown };
    assert.deepEqual(info.l1ContractAddresses, addresses);
    assert.equal(await first.stop(), 0);
    assert.deepEqual(processesMentioning(dataDir), [], 'the embedded L1 stopped with the node');
    assert.ok(existsSync(join(dataDir, 'l1', 'anvil-state.json')));

    const second = await startCairn(args);
    try {
      assert.match(second.output(), /L1 contracts found/);
      assert.doesNotMatch(second.output(), /L1 contracts deployed/);
      assert.deepEqual(await result(second.publicUrl, 'svc_getL1ContractAddresses'), addresses);
    } finally {
      assert.equal(await second.stop(), 0);
    }
    assert.deepEqual(processesMentioning(dataDir), []);
  });

  test('a signal while the node is starting leaves no embedded L1 behind', async () => {
    const dataDir = join(dir, 'early-signal');
    const child = spawn(process.execPath, [
      CAIRN_BIN,
      'start',
      '--data-dir',
      dataDir,
      ...FREE_PORTS,
      '--log-format',
      'json',
    ]);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    while (!/validators:/.test(output)) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    assert.deepEqual(processesMentioning(dataDir), [], output);
  });

  test('an external L1: its chain and the configured contracts', async () => {
    const anvil = await startAnvil({ stateFile: join(dir, 'external', 'state.json'), chainId: 31337 });
    try {
      const deployed = await deployOnExternalL1(anvil.rpcUrl);
      const {
        stakingAssetAddress,
        coinIssuerAddress,
        rewardDistributorAddress,
        governanceProposerAddress,
        governanceAddress,
        ...ours
      } = deployed;
      const node = await startCairn([
        '--l1-rpc-url',
        anvil.rpcUrl,
        '--l1-contract-addresses',
        JSON.stringify(ours),
      ]);
      try {
        const served = (await result(node.publicUrl, 'svc_getL1ContractAddresses')) as Record<string, string>;
        assert.equal(served.rollupAddress, deployed.rollupAddress.toLowerCase());
        assert.equal(served.inboxAddress, deployed.inboxAddress.toLowerCase());
        // The slasher is read from the rollup.
        assert.equal(served.slashFactoryAddress, deployed.slashFactoryAddress?.toLowerCase());
      } finally {
        assert.equal(await node.stop(), 0);
      }
      const wrongChain = await runCairn([
        'start',
        '--ephemeral',
        '--l1-chain-id',
        '5',
        '--l1-rpc-url',
        anvil.rpcUrl,
        '--l1-contract-addresses',
        JSON.stringify(ours),
      ]);
      assert.equal(wrongChain.code, 1);
      assert.match(wrongChain.stdout, /chain id 31337, but l1ChainId is 5/);
      const wrongSlasher = await runCairn([
        'start',
        '--ephemeral',
        '--l1-rpc-url',
        anvil.rpcUrl,
        '--l1-contract-addresses',
        JSON.stringify({ ...ours, slashFactoryAddress: deployed.inboxAddress }),
      ]);
      assert.equal(wrongSlasher.code, 1);
      assert.match(
        wrongSlasher.stdout,
        /slashFactoryAddress 0x[0-9a-fA-F]{40} is not the slasher of the rollup/,
      );
    } finally {
      await anvil.stop();
    }
  });

  test('an external L1 needs the contract addresses', async () => {
    const res = await runCairn(['start', '--ephemeral', '--l1-rpc-url', 'http://127.0.0.1:1']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /l1ContractAddresses.*required/);
  });
});
