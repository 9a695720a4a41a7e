// End to end: the built `cairn` command, started as a user would, answering over HTTP.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CairnProcess, runCairn, startCairn } from '../helpers/process.js';
import { call, post, result } from '../helpers/rpc.js';

const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };

describe('cairn start (child process)', () => {
  let node: CairnProcess;
  before(async () => {
    node = await startCairn(['--log-format', 'json', '--admin-api-key', 'e2e-admin-key-0123456789']);
  });
  after(async () => {
    await node.stop();
  });

  test('writes the ready file with both URLs and logs one line per listener', () => {
    assert.match(node.publicUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(node.adminUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(node.publicUrl, node.adminUrl);
    const lines = node
      .output()
      .split('\n')
      .filter((l) => l.includes('listening on'));
    assert.equal(lines.length, 2);
    assert.ok(lines.some((l) => l.includes(node.publicUrl)));
    assert.ok(lines.some((l) => l.includes(node.adminUrl)));
  });

  test('answers the info methods with real values', async () => {
    const info = (await result(node.publicUrl, 'svc_getNodeInfo', [])) as Record<string, unknown>;
    assert.equal(info.nodeVersion, pkg.version);
    assert.equal(info.l1ChainId, 31337);
    assert.equal(info.rollupVersion, 1);
    assert.equal(info.realProofs, false);
    assert.equal(await result(node.publicUrl, 'node_getNodeVersion'), pkg.version);
    assert.equal(await result(node.publicUrl, 'svc_isReady'), true);
  });

  test('speaks strict JSON-RPC over HTTP: batches, errors, HTTP statuses', async () => {
    const batch = await post(node.publicUrl, [
      { jsonrpc: '2.0', id: 1, method: 'svc_getChainId' },
      { jsonrpc: '2.0', id: 2, method: 'svcAdmin_getConfig' },
      { jsonrpc: '2.0', method: 'svc_getVersion' },
    ]);
    const replies = JSON.parse(batch.text);
    assert.equal(replies.length, 2);
    assert.equal(replies[0].result, 31337);
    assert.equal(replies[1].error.code, -32601);
    assert.equal((await post(node.publicUrl, '{oops')).text.includes('-32700'), true);
    assert.equal((await fetch(node.publicUrl)).status, 405);
    assert.equal((await post(node.publicUrl, '{}', { 'content-type': 'text/plain' })).status, 415);
  });

  test('the admin port requires its key and serves rpc.discover', async () => {
    assert.equal((await post(node.adminUrl, { jsonrpc: '2.0', id: 1, method: 'rpc.discover' })).status, 401);
    const doc = await call(node.adminUrl, 'rpc.discover', [], { 'x-api-key': 'e2e-admin-key-0123456789' });
    assert.equal((doc.result as { openrpc: string }).openrpc, '1.2.6');
  });

  test('GET /status reports health', async () => {
    const res = await fetch(`${node.publicUrl}/status`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { status: string }).status, 'running');
  });
});

describe('cairn start: configuration and lifecycle', () => {
  test('SIGTERM and SIGINT shut down cleanly: exit 0, ready file and ephemeral data removed', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const node = await startCairn(['--log-format', 'json']);
      const started = node
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; dataDir?: string })
        .find((r) => r.msg === 'node started');
      assert.ok(started?.dataDir && existsSync(started.dataDir));
      const code = await node.stop(signal);
      assert.equal(code, 0, node.output());
      assert.equal(existsSync(node.readyFile), false);
      assert.equal(existsSync(started.dataDir), false);
      assert.match(node.output(), /shutting down/);
    }
  });

  test('flags win over environment variables, which win over the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-config-'));
    try {
      const configFile = join(dir, 'cairn.json');
      writeFileSync(configFile, JSON.stringify({ l1ChainId: 1, rollupVersion: 2, txMaxL2Gas: 1000 }));
      const node = await startCairn(['--config', configFile, '--l1-chain-id', '3'], {
        CAIRN_L1_CHAIN_ID: '4',
        CAIRN_ROLLUP_VERSION: '5',
      });
      try {
        assert.equal(await result(node.publicUrl, 'svc_getChainId'), 3);
        assert.equal(await result(node.publicUrl, 'svc_getVersion'), 5);
        const info = (await result(node.publicUrl, 'node_getNodeInfo')) as {
          txsLimits: { gas: { l2Gas: number } };
        };
        assert.equal(info.txsLimits.gas.l2Gas, 1000);
      } finally {
        await node.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an invalid setting stops the node at start with a message naming it', async () => {
    const bad = await runCairn(['start', '--ephemeral', '--port', '99999']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid setting port \(from --port\)/);
    const env = await runCairn(['start', '--ephemeral'], { CAIRN_RPC_MAX_BATCH_SIZE: 'lots' });
    assert.equal(env.code, 2);
    assert.match(env.stderr, /invalid setting rpcMaxBatchSize \(from CAIRN_RPC_MAX_BATCH_SIZE\)/);
  });

  test('refuses a non-loopback admin host without an API key', async () => {
    const res = await runCairn(['start', '--ephemeral', '--port', '0', '--admin-host', '0.0.0.0']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /adminHost.*not a loopback address/);
  });

  test('a port already in use stops the node with a clear message', async () => {
    const first = await startCairn();
    try {
      const port = new URL(first.publicUrl).port;
      const second = await runCairn([
        'start',
        '--ephemeral',
        '--port',
        port,
        '--admin-port',
        '0',
        '--log-format',
        'json',
      ]);
      assert.equal(second.code, 1);
      assert.match(second.stdout, /EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });

  test('start --help lists every setting with its default and variable', async () => {
    const help = await runCairn(['start', '--help']);
    assert.equal(help.code, 0);
    const { SETTINGS, envOf, flagOf } = await import('../../src/config/settings.js');
    for (const key of Object.keys(SETTINGS)) {
      assert.ok(help.stdout.includes(flagOf(key)), key);
      assert.ok(help.stdout.includes(envOf(key)), key);
    }
    assert.match(help.stdout, /--port <number>.*\[default: 8080; env CAIRN_PORT\]/);
    assert.match(help.stdout, /--admin-port <number>.*\[default: 8880/);
  });
});
