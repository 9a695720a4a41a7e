import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openDataDir } from '../../src/node/data-dir.js';

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
