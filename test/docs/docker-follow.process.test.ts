// scripts/follow.mjs, which compose.yaml's follower runs (docs/docker.md), against a real node on
// loopback — as the follower shares the followed node's network in compose: it finds the node's
// embedded L1 through the URL file in the node's data directory, starts a node on that L1 with the
// contracts, chain id and rollup version the node reports, joins its P2P network, follows its chain,
// passes on a tx it is sent, and stops cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEPLOYED_CONTRACTS, followerArgs } from '../../scripts/follow.mjs';
import { devAccounts, NodeClient, prepareTx, randomFr } from '../../src/client/index.js';
import { type CairnProcess, slotStepper, startCairn } from '../helpers/process.js';
import { result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'cairn-follow-'));
const [payer] = devAccounts(1);

describe('followerArgs', () => {
  const info = {
    l1ChainId: 31337,
    rollupVersion: 3,
    l1ContractAddresses: Object.fromEntries(
      [...DEPLOYED_CONTRACTS, 'slashFactoryAddress', 'governanceAddress'].map((k, i) => [k, `0x${i}`]),
    ),
  };

  test('the L1, the deployed contracts only, chain id, version and bootstrap record, then the extra flags', () => {
    const args = followerArgs(info, 'http://127.0.0.1:9545', 'enr:-abc', ['--sequencer', 'false']);
    assert.equal(args[0], 'start');
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    assert.equal(value('--l1-rpc-url'), 'http://127.0.0.1:9545');
    assert.deepEqual(Object.keys(JSON.parse(value('--l1-contract-addresses')!)), DEPLOYED_CONTRACTS);
    assert.equal(value('--l1-chain-id'), '31337');
    assert.equal(value('--rollup-version'), '3');
    assert.equal(value('--p2p-bootstrap-nodes'), 'enr:-abc');
    assert.deepEqual(args.slice(-2), ['--sequencer', 'false']);
  });

  test('no bootstrap flag when the node runs no P2P; a missing address is an error', () => {
    assert.ok(!followerArgs(info, 'http://l1', null).includes('--p2p-bootstrap-nodes'));
    assert.throws(
      () => followerArgs({ ...info, l1ContractAddresses: { rollupAddress: '0x1' } }, 'http://l1', null),
      /registryAddress/,
    );
  });
});

describe('a follower started by scripts/follow.mjs', () => {
  let node: CairnProcess;
  let follower: ChildProcess;
  let followerUrl: string;
  let output = '';
  let exited: Promise<number | null>;
  const nodeData = join(dir, 'node');

  before(async () => {
    node = await startCairn(
      [
        '--ephemeral',
        'false',
        '--data-dir',
        nodeData,
        '--clock',
        'manual',
        '--p2p',
        '--p2p-port',
        '0',
        '--p2p-listen-host',
        '127.0.0.1',
      ],
      {},
      [],
      60_000,
    );
    const readyFile = join(dir, 'follower-ready.json');
    follower = spawn(
      process.execPath,
      [
        join(root, 'scripts', 'follow.mjs'),
        '--ephemeral',
        '--port',
        '0',
        '--admin-port',
        '0',
        '--ready-file',
        readyFile,
        '--sequencer',
        'false',
        '--p2p',
        '--p2p-port',
        '0',
        '--p2p-listen-host',
        '127.0.0.1',
      ],
      {
        env: {
          ...process.env,
          FOLLOW_NODE_URL: node.publicUrl,
          FOLLOW_L1_URL_FILE: join(nodeData, 'l1', 'anvil.url'),
          FOLLOW_TIMEOUT_S: '60',
        },
      },
    );
    follower.stdout?.on('data', (d) => (output += d));
    follower.stderr?.on('data', (d) => (output += d));
    exited = new Promise((r) => follower.on('exit', (code) => r(code)));
    await until(
      'the follower to listen',
      async () => {
        if (follower.exitCode !== null) throw new Error(`the follower exited:\n${output}`);
        return existsSync(readyFile) ? true : undefined;
      },
      90_000,
    );
    followerUrl = (JSON.parse(readFileSync(readyFile, 'utf8')) as { public: string }).public;
  });
  after(async () => {
    if (follower?.exitCode === null) follower.kill('SIGKILL');
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('says what it follows, and runs on the node’s L1 with its contracts', async () => {
    assert.match(
      output,
      /follow: following the node at http:\/\/127\.0\.0\.1:\d+: L1 http:\/\/127\.0\.0\.1:\d+ \(chain 31337\)/,
    );
    assert.deepEqual(
      await result(followerUrl, 'svc_getL1ContractAddresses'),
      await result(node.publicUrl, 'svc_getL1ContractAddresses'),
    );
  });

  test('peers with the node and follows its chain', { timeout: 120_000 }, async () => {
    await until('the follower to connect to the node', async () => {
      const peers = (await result(followerUrl, 'svc_getPeers')) as { status: string }[];
      return peers.some((p) => p.status === 'connected') ? true : undefined;
    });
    const step = slotStepper(() => node);
    let tip = 0;
    while (tip < 2) tip = await step();
    await until('the follower to reach the node’s block', async () =>
      ((await result(followerUrl, 'svc_getBlockNumber')) as number) >= tip ? true : undefined,
    );
    assert.equal(
      ((await result(followerUrl, 'svc_getBlock', [tip])) as { hash: string }).hash,
      ((await result(node.publicUrl, 'svc_getBlock', [tip])) as { hash: string }).hash,
    );
  });

  test('a tx sent to the follower reaches the node, which includes it', { timeout: 120_000 }, async () => {
    const { wire, hash } = await prepareTx(new NodeClient(followerUrl), {
      feePayer: payer!.address,
      noteHashes: [randomFr()],
    });
    await result(followerUrl, 'svc_sendTx', [wire]);
    await until('the node to have the tx', async () =>
      (await result(node.publicUrl, 'svc_getTxByHash', [hash])) ? true : undefined,
    );
    const step = slotStepper(() => node);
    await until(
      'the follower to see the tx in a block',
      async () => {
        const receipt = (await result(followerUrl, 'svc_getTxReceipt', [hash])) as { status: string };
        if (receipt.status !== 'pending' && receipt.status !== 'dropped') return receipt;
        await step();
        return undefined;
      },
      90_000,
    );
  });

  test('stops cleanly on SIGTERM, passing it on to the node', async () => {
    follower.kill('SIGTERM');
    assert.equal(await exited, 0, output);
  });
});
