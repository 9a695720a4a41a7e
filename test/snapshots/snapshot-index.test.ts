import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openFileStore } from '../../src/snapshots/file-store.js';
import {
  addToIndex,
  readIndex,
  type SnapshotEntry,
  type SnapshotIndex,
  snapshotFolder,
  snapshotIndexSchema,
  writeIndex,
} from '../../src/snapshots/snapshot-index.js';
import { type LocalS3, startS3 } from './servers.js';

const meta = {
  l1ChainId: 31337,
  rollupVersion: 7,
  rollupAddress: '0xAbCdEf0123456789abcdef0123456789ABCDEF01',
};
const folder = 'cairn-31337-7-0xabcdef0123456789abcdef0123456789abcdef01';

function entry(n: number, overrides: Partial<SnapshotEntry> = {}): SnapshotEntry {
  return {
    l2BlockNumber: n,
    l2BlockHash: `0x${n.toString(16).padStart(64, '0')}`,
    l1BlockNumber: 1000 + n,
    timestamp: 1_700_000_000_000 + n,
    schemaVersions: { archiver: 1, worldState: 2 },
    dataUrls: {
      archiver: `s3://bkt/${folder}/${n}/archiver.gz`,
      'world-state': `https://cdn.example.com/${folder}/${n}/world-state.gz`,
    },
    sha256: { archiver: 'a'.repeat(64), 'world-state': 'b'.repeat(64) },
    ...overrides,
  };
}

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-index-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('snapshotFolder', () => {
  test('names the deployment with a lowercase rollup address', () => {
    assert.equal(snapshotFolder(meta), folder);
  });
});

describe('addToIndex', () => {
  test('starts a new index and puts newer entries first', () => {
    const one = addToIndex(undefined, meta, entry(10));
    assert.deepEqual(one, {
      l1ChainId: 31337,
      rollupVersion: 7,
      rollupAddress: meta.rollupAddress.toLowerCase(),
      snapshots: [entry(10)],
    });
    const two = addToIndex(one, meta, entry(20));
    assert.deepEqual(
      two.snapshots.map((s) => s.l2BlockNumber),
      [20, 10],
    );
    // The input index is not modified.
    assert.equal(one.snapshots.length, 1);
  });

  test('a re-upload of the same block replaces the older entry', () => {
    const index = addToIndex(addToIndex(undefined, meta, entry(10)), meta, entry(20));
    const again = addToIndex(index, meta, entry(10, { timestamp: 5 }));
    assert.deepEqual(
      again.snapshots.map((s) => [s.l2BlockNumber, s.timestamp]),
      [
        [10, 5],
        [20, 1_700_000_000_020],
      ],
    );
  });

  test('refuses an index of another deployment', () => {
    const index = addToIndex(undefined, meta, entry(10));
    assert.throws(
      () => addToIndex(index, { ...meta, l1ChainId: 1 }, entry(11)),
      /chain 31337.*not to chain 1,/,
    );
    assert.throws(
      () => addToIndex(index, { ...meta, rollupVersion: 8 }, entry(11)),
      /version 7.*not to.*version 8/,
    );
    assert.throws(
      () => addToIndex(index, { ...meta, rollupAddress: `0x${'1'.repeat(40)}` }, entry(11)),
      /rollup 0xabcdef.*not to.*rollup 0x1111/,
    );
    // Address case alone is not a difference.
    assert.equal(
      addToIndex(
        index,
        { ...meta, rollupAddress: meta.rollupAddress.toUpperCase().replace('0X', '0x') },
        entry(11),
      ).snapshots.length,
      2,
    );
  });

  test('refuses invalid entries', () => {
    assert.throws(() => addToIndex(undefined, meta, entry(1, { l2BlockHash: '0x1234' })));
    assert.throws(
      () => addToIndex(undefined, meta, entry(1, { sha256: { archiver: 'a'.repeat(64) } })),
      /same databases/,
    );
  });
});

describe('snapshotIndexSchema', () => {
  const valid: SnapshotIndex = addToIndex(undefined, meta, entry(3));

  test('accepts a valid index', () => {
    assert.deepEqual(snapshotIndexSchema.parse(valid), valid);
    assert.deepEqual(snapshotIndexSchema.parse({ ...valid, snapshots: [] }).snapshots, []);
  });

  const e = valid.snapshots[0]!;
  const broken: [string, unknown][] = [
    ['uppercase rollup address', { ...valid, rollupAddress: meta.rollupAddress }],
    ['short rollup address', { ...valid, rollupAddress: '0x1234' }],
    ['zero chain id', { ...valid, l1ChainId: 0 }],
    ['fractional version', { ...valid, rollupVersion: 1.5 }],
    ['unknown top-level field', { ...valid, extra: 1 }],
    ['missing snapshots', { l1ChainId: 1, rollupVersion: 1, rollupAddress: valid.rollupAddress }],
    ['negative block number', { ...valid, snapshots: [{ ...e, l2BlockNumber: -1 }] }],
    ['block number as string', { ...valid, snapshots: [{ ...e, l2BlockNumber: '3' }] }],
    ['block hash without 0x', { ...valid, snapshots: [{ ...e, l2BlockHash: e.l2BlockHash.slice(2) }] }],
    ['unknown entry field', { ...valid, snapshots: [{ ...e, size: 3 }] }],
    ['missing schema version', { ...valid, snapshots: [{ ...e, schemaVersions: { archiver: 1 } }] }],
    [
      'extra schema version',
      { ...valid, snapshots: [{ ...e, schemaVersions: { archiver: 1, worldState: 1, x: 1 } }] },
    ],
    [
      'sha256 with 0x',
      { ...valid, snapshots: [{ ...e, sha256: { ...e.sha256, archiver: `0x${'a'.repeat(64)}` } }] },
    ],
    [
      'data url not a location',
      { ...valid, snapshots: [{ ...e, dataUrls: { ...e.dataUrls, archiver: '/tmp/x.gz' } }] },
    ],
    ['no databases', { ...valid, snapshots: [{ ...e, dataUrls: {}, sha256: {} }] }],
    [
      'uppercase database name',
      {
        ...valid,
        snapshots: [{ ...e, dataUrls: { Archiver: 'file:///x' }, sha256: { Archiver: 'a'.repeat(64) } }],
      },
    ],
  ];
  for (const [name, value] of broken) {
    test(`refuses ${name}`, () => {
      assert.equal(snapshotIndexSchema.safeParse(value).success, false);
    });
  }
});

describe('readIndex / writeIndex', () => {
  test('round trip through a file store', async () => {
    const store = openFileStore(pathToFileURL(join(root, 'store')).href);
    assert.equal(await readIndex(store, folder), undefined);
    const index = addToIndex(addToIndex(undefined, meta, entry(1)), meta, entry(2));
    const url = await writeIndex(store, folder, index);
    assert.equal(url, pathToFileURL(join(root, 'store', folder, 'index.json')).href);
    assert.deepEqual(JSON.parse(await readFile(join(root, 'store', folder, 'index.json'), 'utf8')), index);
    assert.deepEqual(await readIndex(store, folder), index);
  });

  test('refuses to write an invalid index', async () => {
    const store = openFileStore(pathToFileURL(join(root, 'store-invalid')).href);
    await assert.rejects(
      writeIndex(store, folder, { ...addToIndex(undefined, meta, entry(1)), l1ChainId: -1 }),
    );
    assert.equal(await readIndex(store, folder), undefined);
  });

  test('invalid JSON or content is an error naming the location', async () => {
    const dir = join(root, 'store-broken');
    const store = openFileStore(pathToFileURL(dir).href);
    const where = pathToFileURL(join(dir, folder, 'index.json')).href;
    await mkdir(join(dir, folder), { recursive: true });

    await writeFile(join(dir, folder, 'index.json'), '{"l1ChainId": 1,');
    await assert.rejects(readIndex(store, folder), (err: any) => {
      assert.ok(err.message.includes(where), err.message);
      assert.match(err.message, /not valid JSON/);
      return true;
    });

    await writeFile(
      join(dir, folder, 'index.json'),
      JSON.stringify({ ...addToIndex(undefined, meta, entry(1)), rollupVersion: 'x' }),
    );
    await assert.rejects(readIndex(store, folder), (err: any) => {
      assert.ok(err.message.includes(where), err.message);
      assert.match(err.message, /is invalid/);
      assert.match(err.message, /rollupVersion/);
      return true;
    });
  });

  describe('on s3', () => {
    let s3: LocalS3;
    before(async () => {
      s3 = await startS3(join(root, 's3rver'));
      await s3.createBucket('index-bucket');
    });
    after(() => s3.close());

    test('writes with application/json and no-store, and reads back', async () => {
      const store = openFileStore(`s3://index-bucket/snaps?endpoint=${s3.endpoint}`, s3.settings);
      assert.equal(await readIndex(store, folder), undefined);
      const index = addToIndex(undefined, meta, entry(5));
      await writeIndex(store, folder, index);
      const head = await s3.head('index-bucket', `snaps/${folder}/index.json`);
      assert.equal(head.ContentType, 'application/json');
      assert.equal(head.CacheControl, 'no-store');
      assert.deepEqual(await readIndex(store, folder), index);
    });
  });
});
