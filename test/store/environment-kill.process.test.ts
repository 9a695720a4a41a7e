// A store's write survives the process being killed right after the write returns (the unit
// tests of the environment are in environment.test.ts; this one starts a process to kill).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEnvironment } from '../../src/store/environment.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-store-kill-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('store environment, killed', () => {
  test('a write survives the process being killed right after it returns, before any flush', async () => {
    // A child writes and SIGKILLs itself in the same turn: no flush can have run.
    const script = `
      const { openEnvironment } = await import(${JSON.stringify(join(import.meta.dirname, '..', '..', 'src', 'store', 'environment.ts'))});
      const env = openEnvironment(${JSON.stringify(dir)}, 'killed');
      const db = env.database('kv');
      for (let i = 0; i < 100; i++) env.write(() => db.putSync('k' + i, i));
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(child.signal, 'SIGKILL', child.stderr);
    const env = openEnvironment(dir, 'killed');
    const db = env.database<number>('kv');
    for (let i = 0; i < 100; i++) assert.equal(db.get(`k${i}`), i);
    await env.close();
  });
});
