import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEnvironment } from '../../src/store/environment.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-store-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('store environment', () => {
  test('a write batch is atomic: a throw inside it writes nothing', async () => {
    const env = openEnvironment(dir, 'atomic');
    const db = env.binaryDatabase('t');
    const meta = env.database<number>('m');
    env.write(() => {
      db.putSync(Buffer.from([1]), Buffer.from([1]));
      meta.putSync('n', 1);
    });
    assert.throws(() =>
      env.write(() => {
        db.putSync(Buffer.from([2]), Buffer.from([2]));
        meta.putSync('n', 2);
        throw new Error('half way');
      }),
    );
    assert.equal(db.get(Buffer.from([2])), undefined);
    assert.equal(meta.get('n'), 1);
    assert.deepEqual(db.get(Buffer.from([1])), Buffer.from([1]));
    await env.close();
  });

  test('a write in the background is atomic, resolves with its result once committed, and is kept', async () => {
    const env = openEnvironment(dir, 'background');
    const db = env.binaryDatabase('t');
    const meta = env.database<number>('m');
    const result = await env.writeInBackground(() => {
      db.putSync(Buffer.from([1]), Buffer.from([1]));
      meta.putSync('n', 1);
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal(meta.get('n'), 1);
    await assert.rejects(
      env.writeInBackground(() => {
        db.putSync(Buffer.from([2]), Buffer.from([2]));
        meta.putSync('n', 2);
        throw new Error('half way');
      }),
      /half way/,
    );
    assert.equal(db.get(Buffer.from([2])), undefined);
    assert.equal(meta.get('n'), 1);
    // Two in a row commit in order, and a synchronous write after them sees both.
    const first = env.writeInBackground(() => meta.putSync('n', 3));
    const second = env.writeInBackground(() => meta.putSync('n', 4));
    await Promise.all([first, second]);
    env.write(() => meta.putSync('after', meta.get('n')!));
    assert.equal(meta.get('after'), 4);
    await env.close();
    const reopened = openEnvironment(dir, 'background');
    assert.deepEqual(reopened.binaryDatabase('t').get(Buffer.from([1])), Buffer.from([1]));
    assert.equal(reopened.database<number>('m').get('after'), 4);
    await reopened.close();
  });

  test('writes are committed when they return, and kept when the store closes; writeFlushed is atomic too', async () => {
    const env = openEnvironment(dir, 'flush');
    const db = env.database<number>('kv');
    for (let i = 0; i < 20; i++) env.write(() => db.putSync(`k${i}`, i));
    assert.equal(db.get('k19'), 19);
    env.writeFlushed(() => db.putSync('flushed', 1));
    assert.throws(
      () =>
        env.writeFlushed(() => {
          db.putSync('half', 1);
          throw new Error('half way');
        }),
      /half way/,
    );
    assert.equal(db.get('half'), undefined);
    await env.close();
    await assert.rejects(async () => {
      env.write(() => undefined);
    });
    const reopened = openEnvironment(dir, 'flush');
    assert.equal(reopened.database<number>('kv').get('k19'), 19);
    assert.equal(reopened.database<number>('kv').get('flushed'), 1);
    await reopened.close();
  });

  test('a read snapshot keeps seeing one version while writes land', async () => {
    const env = openEnvironment(dir, 'snapshot');
    const db = env.database<string>('kv');
    env.write(() => db.putSync('a', 'old'));
    env.snapshot((txn) => {
      env.write(() => db.putSync('a', 'new'));
      assert.equal(db.get('a', { transaction: txn }), 'old');
      assert.equal(db.get('a'), 'new');
    });
    await env.close();
  });

  test('binary keys are ordered bytewise', async () => {
    const env = openEnvironment(dir, 'order');
    const db = env.binaryDatabase('o');
    env.write(() => {
      for (const k of [[2], [1, 255], [1], [0, 0, 1]]) db.putSync(Buffer.from(k), Buffer.from([0]));
    });
    assert.deepEqual(
      Array.from(db.getKeys({}), (k) => [...k]),
      [[0, 0, 1], [1], [1, 255], [2]],
    );
    await env.close();
  });

  // lmdb-js maps a growing file again at twice the size and keeps the old mappings until the
  // environment closes; pages read through each stay resident (docs/performance.md).
  test('the data file is mapped once as it grows, and grows with its data, not with the map', {
    skip: !existsSync('/proc/self/maps'),
  }, async () => {
    const env = openEnvironment(dir, 'one-map');
    const db = env.binaryDatabase('big');
    const value = Buffer.alloc(1500, 7);
    for (let batch = 0; batch < 40; batch++) {
      env.write(() => {
        for (let i = 0; i < 256; i++) db.putSync(Buffer.from(`${batch}:${i}`), value);
      });
      for (let i = 0; i < 256; i += 16) assert.equal(db.get(Buffer.from(`${batch}:${i}`))?.length, 1500);
    }
    const file = join(env.path, 'data.mdb');
    const mappings = readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .filter((line) => line.endsWith(file));
    assert.equal(mappings.length, 1);
    // 10,240 values of 1.5 KB: ~15 MB of data, two to a 4 KiB page; the map is far larger.
    assert.ok(statSync(file).size < 64 * 2 ** 20, `file of ${statSync(file).size} bytes`);
    await env.close();
  });
});
