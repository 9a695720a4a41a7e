// The embedded anvil's lifecycle and the deterministic deployment of the L1 contracts.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, createTestClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { GENESIS_ARCHIVE_ROOT } from '../../src/core/block-header.js';
import { type AnvilInstance, startAnvil } from '../../src/l1/anvil.js';
import {
  DEFAULT_DEPLOYER_PRIVATE_KEY,
  type DeployL1Params,
  deployL1Contracts,
  expectedL1ContractAddresses,
} from '../../src/l1/deploy.js';
import { artifacts } from '../../src/l1/generated/artifacts.js';

const CHAIN_ID = 31337;
const ZERO = '0x0000000000000000000000000000000000000000';
const PARAMS: DeployL1Params = {
  slotDuration: 12,
  epochDuration: 4,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 2,
  manaTarget: 1_000_000n,
  rollupVersion: 1,
  genesisArchiveRoot: GENESIS_ARCHIVE_ROOT,
  proverAddress: privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    .address,
  validators: [
    privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a').address,
  ],
};

let dir: string;
const running: AnvilInstance[] = [];

async function start(name: string, extra: { blockTime?: number } = {}): Promise<AnvilInstance> {
  const a = await startAnvil({
    stateFile: join(dir, name, 'l1', 'anvil-state.json'),
    chainId: CHAIN_ID,
    ...extra,
  });
  running.push(a);
  return a;
}

async function deploy(a: AnvilInstance) {
  const test = createTestClient({ mode: 'anvil', transport: http(a.rpcUrl) });
  return deployL1Contracts({ rpcUrl: a.rpcUrl, mine: () => test.mine({ blocks: 1 }) }, PARAMS);
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-l1-anvil-'));
});

after(async () => {
  await Promise.all(running.map((a) => a.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe('startAnvil', () => {
  it('listens on a free loopback port with the requested chain id and mines only on request', async () => {
    const a = await start('lifecycle-1');
    assert.match(a.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(a.port > 0);
    const client = createPublicClient({ transport: http(a.rpcUrl), cacheTime: 0 });
    assert.equal(await client.getChainId(), CHAIN_ID);
    assert.equal(await client.getBlockNumber(), 0n);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(await client.getBlockNumber(), 0n, 'no block without a request');
    const b = await start('lifecycle-2');
    assert.notEqual(a.port, b.port);
    await b.stop();
  });

  it('mines on an interval with blockTime', async () => {
    const a = await start('interval', { blockTime: 1 });
    const client = createPublicClient({ transport: http(a.rpcUrl), cacheTime: 0 });
    const deadline = Date.now() + 5000;
    while ((await client.getBlockNumber()) === 0n) {
      assert.ok(Date.now() < deadline, 'no block was mined within 5 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await a.stop();
  });

  it('keeps the chain in its state file across a stop and a restart', async () => {
    const a = await start('persist');
    const addresses = await deploy(a);
    const before = createPublicClient({ transport: http(a.rpcUrl), cacheTime: 0 });
    const height = await before.getBlockNumber();
    await a.stop();
    assert.ok(a.process.exitCode !== null || a.process.signalCode !== null, 'anvil exited');
    await a.stop(); // idempotent
    assert.ok(a.stateFile !== undefined && existsSync(a.stateFile));

    const b = await start('persist');
    const client = createPublicClient({ transport: http(b.rpcUrl), cacheTime: 0 });
    assert.equal(await client.getBlockNumber(), height);
    const code = await client.getCode({ address: addresses.rollupAddress });
    assert.ok(code && code.length > 2, 'the rollup still has code');
    const version = await client.readContract({
      address: addresses.rollupAddress,
      abi: artifacts.Rollup.abi,
      functionName: 'getVersion',
    });
    assert.equal(version, 1n);
    const canonical = await client.readContract({
      address: addresses.registryAddress,
      abi: artifacts.Registry.abi,
      functionName: 'getCanonicalRollup',
    });
    assert.equal(canonical, addresses.rollupAddress);
    await b.stop();
  });

  it('fails clearly when anvil cannot start', async () => {
    await assert.rejects(
      startAnvil({
        stateFile: join(dir, 'bad', 'state.json'),
        chainId: CHAIN_ID,
        binary: '/nonexistent/anvil',
      }),
      /anvil exited|ENOENT/,
    );
  });
});

describe('deployL1Contracts', () => {
  it('deploys to the same addresses on two fresh chains', async () => {
    const [a, b] = await Promise.all([start('fresh-a'), start('fresh-b')]);
    const [first, second] = await Promise.all([deploy(a), deploy(b)]);
    assert.deepEqual(first, second);
    const deployer = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY).address;
    assert.deepEqual(first, expectedL1ContractAddresses(deployer));
    assert.equal(first.rollupAddress, '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9');
    for (const name of [
      'stakingAssetAddress',
      'coinIssuerAddress',
      'rewardDistributorAddress',
      'governanceProposerAddress',
      'governanceAddress',
    ] as const) {
      assert.equal(first[name], ZERO);
    }
    const client = createPublicClient({ transport: http(a.rpcUrl), cacheTime: 0 });
    for (const [name, address] of Object.entries(first)) {
      if (address === ZERO) continue;
      const code = await client.getCode({ address });
      assert.ok(code && code.length > 2, `${name} has code`);
    }
    await Promise.all([a.stop(), b.stop()]);
  });
});
