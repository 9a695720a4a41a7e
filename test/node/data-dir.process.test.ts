import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openDataDir } from '../../src/node/data-dir.js';
import { until } from '../helpers/until.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-datadir-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('data directory', () => {
  test('is created, locked against a second user, and unlocked on release', () => {
    const path = join(root, 'a', 'b');
    const dir = openDataDir(path, false);
    assert.ok(existsSync(join(path, 'cairn.lock')));
    // Another live process holds the lock: pid 1 always exists.
    const other = join(root, 'other');
    openDataDir(other, false).release();
    writeFileSync(join(other, 'cairn.lock'), '1');
    assert.throws(() => openDataDir(other, false), /in use by another cairn process \(pid 1\)/);
    assert.throws(() => openDataDir(path, false), /already in use by this process/);
    dir.release();
    assert.equal(existsSync(join(path, 'cairn.lock')), false);
    assert.ok(existsSync(path));
  });

  test('a stale lock from a process that is gone is taken over, and names that unclean shutdown', () => {
    const path = join(root, 'stale');
    const clean = openDataDir(path, false);
    assert.equal(clean.uncleanShutdownOf, undefined);
    clean.release();
    assert.equal(openDataDir(path, false).uncleanShutdownOf, undefined, 'after a release');
    // Not released (the process was killed): the lock stays; a pid that no longer runs.
    const reopened = join(root, 'stale-killed');
    openDataDir(reopened, false).release();
    writeFileSync(join(reopened, 'cairn.lock'), '999999999');
    const dir = openDataDir(reopened, false);
    assert.equal(dir.uncleanShutdownOf, 999999999);
    dir.release();
  });

  test('a lock held by a killed process its parent has not reaped yet (a zombie) is stale', async (t) => {
    if (!existsSync('/proc/self/stat')) return t.skip('no /proc on this system');
    // The shell starts a child, kills it and becomes a sleep that never reaps it: a zombie, which
    // answers kill(pid, 0) though it holds nothing (so after a kill -9 in a container whose init
    // does not reap, the node could not start again).
    const parent = spawn('sh', ['-c', 'sleep 30 & pid=$!; kill -9 $pid; echo $pid; exec sleep 10']);
    t.after(() => parent.kill('SIGKILL'));
    const [line] = await once(parent.stdout, 'data');
    const zombie = Number.parseInt(String(line), 10);
    await until(
      'the child to be a zombie',
      () => /\) Z /.test(readFileSync(`/proc/${zombie}/stat`, 'utf8')),
      5_000,
      20,
    );
    const path = join(root, 'zombie');
    openDataDir(path, false).release();
    writeFileSync(join(path, 'cairn.lock'), String(zombie));
    const dir = openDataDir(path, false);
    assert.equal(dir.uncleanShutdownOf, zombie);
    dir.release();
  });

  test('an ephemeral directory is fresh and removed on release', () => {
    const a = openDataDir('/ignored', true);
    const b = openDataDir('/ignored', true);
    assert.notEqual(a.path, b.path);
    assert.ok(existsSync(a.path));
    a.release();
    b.release();
    assert.equal(existsSync(a.path), false);
  });
});
