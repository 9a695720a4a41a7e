// End to end: the built `cairn` command, started as a user would, answering over HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CAIRN_BIN, type CairnProcess, FREE_PORTS, runCairn, startCairn } from '../helpers/process.js';
import { call, post, result } from '../helpers/rpc.js';

/** The JSON log records of a node's output. */
function records(output: string) {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map(
      (l) =>
        JSON.parse(l) as {
          level: number;
          msg: string;
          err?: unknown;
          facts?: {
            public: string;
            admin: string;
            l1: string;
            l1ChainId: number;
            dataDir: string;
            devAccounts: string[];
          };
        },
    );
}

const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };

describe('cairn start (child process)', () => {
  let node: CairnProcess;
  before(async () => {
    node = await startCairn(['--log-format', 'json', '--admin-api-key', 'e2e-admin-key-0123456789']);
  });
  after(async () => {
    await node.stop();
  });

  test('writes the ready file with the three URLs and prints one banner with them', () => {
    assert.match(node.publicUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(node.adminUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(node.publicUrl, node.adminUrl);
    const ready = JSON.parse(readFileSync(node.readyFile, 'utf8')) as { l1: string };
    assert.match(ready.l1, /^http:\/\/127\.0\.0\.1:\d+$/);
    const banners = records(node.output()).filter((r) => r.facts !== undefined);
    assert.equal(banners.length, 1);
    const { facts, msg } = banners[0]!;
    assert.equal(facts!.public, node.publicUrl);
    assert.equal(facts!.admin, node.adminUrl);
    assert.equal(facts!.l1, ready.l1);
    assert.equal(facts!.l1ChainId, 31337);
    assert.equal(facts!.devAccounts.length, 10);
    for (const text of [
      node.publicUrl,
      node.adminUrl,
      ready.l1,
      'chain id 31337',
      '1,000,000 FJ each',
      facts!.dataDir,
    ])
      assert.ok(msg.includes(text), `${text} in the banner:\n${msg}`);
    // In JSON logs the message is one line (the block of rows is for terminals, and the README
    // shows it: test/cli/banner-style.test.ts).
    assert.doesNotMatch(msg, /\n/);
    // The banner is the one summary: no separate lines per listener or for the dev accounts.
    assert.equal(records(node.output()).filter((r) => /listening on|dev accounts/.test(r.msg)).length, 1);
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
    assert.equal((await fetch(node.publicUrl, { method: 'PUT' })).status, 405);
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
      const started = records(node.output()).find((r) => r.facts !== undefined)?.facts;
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
      const fatal = records(second.stdout).filter((r) => r.level === 60);
      assert.equal(fatal.length, 1, second.stdout);
      assert.match(
        fatal[0]!.msg,
        /^cannot start: public port 0\.0\.0\.0:\d+ is in use by another process \(EADDRINUSE\); --port sets another port/,
      );
      assert.equal(fatal[0]!.err, undefined, 'no stack for an expected error');
      // Checked before anything else: no data directory, no L1.
      assert.doesNotMatch(second.stdout, /keystore|L1 contracts|anvil/);
    } finally {
      await first.stop();
    }
  });

  test('a ready file in a folder that does not exist is refused before start-up', async () => {
    const res = await runCairn([
      'start',
      '--ephemeral',
      ...FREE_PORTS,
      '--ready-file',
      '/nonexistent-dir/ready.json',
      '--log-format',
      'pretty',
    ]);
    assert.equal(res.code, 1);
    assert.match(
      res.stdout,
      /cannot start: the ready file's folder \/nonexistent-dir does not exist \(--ready-file/,
    );
    assert.doesNotMatch(res.stdout, /keystore|L1 contracts|\n\s+at /);
  });

  for (const format of ['pretty', 'json'] as const) {
    test(`a log reader that quits (${format}) neither stops nor hangs the node`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-pipe-'));
      const readyFile = join(dir, 'ready.json');
      const child = spawn(process.execPath, [
        CAIRN_BIN,
        'start',
        '--ephemeral',
        ...FREE_PORTS,
        '--log-format',
        format,
        '--ready-file',
        readyFile,
      ]);
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      // The reader takes the first chunk and goes away, as `| head -1` does.
      child.stdout.once('data', () => child.stdout.destroy());
      try {
        while (!existsSync(readyFile)) {
          assert.equal(child.exitCode, null, stderr);
          await new Promise((r) => setTimeout(r, 50));
        }
        const { public: url } = JSON.parse(readFileSync(readyFile, 'utf8')) as { public: string };
        assert.equal(await result(url, 'svc_isReady'), true);
        const cpu = process.hrtime.bigint();
        const before = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(' ');
        await new Promise((r) => setTimeout(r, 1000));
        const after = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(' ');
        // utime + stime, in clock ticks (100 a second): a spinning process uses ~100 a second.
        const ticks = Number(after[13]) + Number(after[14]) - Number(before[13]) - Number(before[14]);
        const seconds = Number(process.hrtime.bigint() - cpu) / 1e9;
        assert.ok(
          ticks / seconds < 50,
          `the node is busy (${ticks} ticks in ${seconds} s) with its log closed`,
        );
        child.kill('SIGTERM');
        assert.equal(await exited, 0, stderr);
        assert.match(stderr, /the log output closed \(EPIPE\); logging stops, the node runs on/);
        assert.equal(existsSync(readyFile), false);
      } finally {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

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
