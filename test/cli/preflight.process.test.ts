// Start-up's preflight: a data directory another live node holds is the first thing it says,
// before any port that node also holds; the lock is only looked at, never taken or removed.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PreflightError, preflight } from '../../src/cli/preflight.js';
import { loadConfig } from '../../src/config/load.js';
import { openDataDir } from '../../src/node/data-dir.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-preflight-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('preflight', () => {
  let holder: ChildProcess;
  let busy: Server;
  let port: number;
  before(async () => {
    // A live process that holds a data directory, and a port in use.
    holder = spawn('sleep', ['60']);
    busy = createServer().listen({ host: '127.0.0.1', port: 0 });
    await once(busy, 'listening');
    port = (busy.address() as AddressInfo).port;
  });
  after(() => {
    holder.kill('SIGKILL');
    busy.close();
  });

  const config = (dataDir: string) =>
    loadConfig({
      flags: { dataDir, host: '127.0.0.1', port: String(port), adminPort: '0', l1Port: '0' },
      env: {},
    }).config;

  const locked = (name: string, pid: number) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cairn.lock'), String(pid));
    return dir;
  };

  test('a data directory in use is said first, in one line, and its lock is left as it was', async () => {
    const dir = locked('in-use', holder.pid!);
    await assert.rejects(
      preflight(config(dir)),
      (err: Error) =>
        err instanceof PreflightError &&
        err.message ===
          `data directory ${dir} is in use by another cairn process (pid ${holder.pid}): stop that node, or give this one another --data-dir`,
    );
    assert.equal(readFileSync(join(dir, 'cairn.lock'), 'utf8'), String(holder.pid));
  });

  test('a lock left by a process that is gone is no conflict: the port is the problem', async () => {
    const dir = locked('stale', 999_999_999);
    await assert.rejects(preflight(config(dir)), /public port 127\.0\.0\.1:\d+ is in use by another process/);
    assert.equal(readFileSync(join(dir, 'cairn.lock'), 'utf8'), '999999999', 'taken over only on open');
  });

  test('a directory this process holds is refused as such; once released it is free', async () => {
    const dir = join(root, 'here');
    const held = openDataDir(dir, false);
    await assert.rejects(
      preflight(config(dir)),
      /^PreflightError: data directory .* is already in use by this process$/,
    );
    held.release();
    await assert.rejects(preflight(config(dir)), /public port/);
  });
});
