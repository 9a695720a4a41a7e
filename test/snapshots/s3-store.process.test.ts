import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { openFileStore, readUrl } from '../../src/snapshots/file-store.js';
import { downloadFile, uploadFile } from '../../src/snapshots/transfer.js';
import { type LocalS3, startS3 } from './servers.js';

async function bytesOf(stream: NodeJS.ReadableStream | undefined): Promise<Buffer | undefined> {
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

let root: string;
let s3: LocalS3;
const BUCKET = 'snapshots';

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-s3-store-'));
  s3 = await startS3(join(root, 's3rver'));
  await s3.createBucket(BUCKET);
});
after(async () => {
  await s3.close();
  await rm(root, { recursive: true, force: true });
});

describe('s3 store', () => {
  test('round trips under a prefix, with content type and cache control', async () => {
    const store = openFileStore(`s3://${BUCKET}/base/dir?endpoint=${s3.endpoint}`, s3.settings);
    assert.equal(store.writable, true);
    const url = await store.write('folder/index.json', '{"a":1}', {
      contentType: 'application/json',
      cacheControl: 'no-store',
    });
    assert.equal(
      url,
      `s3://${BUCKET}/base/dir/folder/index.json?endpoint=${encodeURIComponent(s3.endpoint)}`,
    );
    assert.equal(await store.readText('folder/index.json'), '{"a":1}');

    const head = await s3.head(BUCKET, 'base/dir/folder/index.json');
    assert.equal(head.ContentType, 'application/json');
    assert.equal(head.CacheControl, 'no-store');

    await store.write('stream.bin', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    assert.deepEqual(await bytesOf(await store.read('stream.bin')), Buffer.from('abcd'));

    // The returned URL is enough to read the object back on its own.
    assert.equal((await bytesOf(await readUrl(url, s3.settings)))?.toString(), '{"a":1}');
  });

  test('the endpoint can come from the settings instead of the location', async () => {
    const store = openFileStore(`s3://${BUCKET}/from-settings`, s3.settings);
    await store.write('x.txt', 'x');
    assert.equal(await store.readText('x.txt'), 'x');
    assert.ok(s3.events.includes('ObjectCreated:Put from-settings/x.txt'));
  });

  test('missing objects read as undefined; a missing bucket is an error', async () => {
    const store = openFileStore(`s3://${BUCKET}?endpoint=${s3.endpoint}`, s3.settings);
    assert.equal(await store.read('nope/index.json'), undefined);
    assert.equal(await store.readText('nope.json'), undefined);
    assert.equal(await readUrl(`s3://${BUCKET}/nope.gz?endpoint=${s3.endpoint}`, s3.settings), undefined);

    const noBucket = openFileStore(`s3://no-such-bucket?endpoint=${s3.endpoint}`, s3.settings);
    await assert.rejects(noBucket.read('index.json'), /bucket/i);
  });

  test('credentials come from the settings', async () => {
    const store = openFileStore(`s3://${BUCKET}?endpoint=${s3.endpoint}`, {
      region: 'us-east-1',
      accessKeyId: 'WRONG',
      secretAccessKey: 'WRONG',
    });
    await assert.rejects(store.write('denied.txt', 'x'));
    // A refused upload must not leave uploadFile waiting on its compression pipeline.
    const source = join(root, 'small.db');
    await writeFile(source, randomBytes(300 * 1024));
    await assert.rejects(uploadFile(store, 'denied.gz', source), /access key/i);
    assert.ok(!s3.events.some((e) => e.endsWith(' denied.txt') || e.endsWith(' denied.gz')));
    assert.throws(
      () => openFileStore(`s3://${BUCKET}`, { region: 'us-east-1', accessKeyId: 'only-half' }),
      /both accessKeyId and secretAccessKey/,
    );
  });

  test('publicBaseUrl makes written objects point at the public URL', async () => {
    const publicBase = 'https://cdn.example.com/snapshots';
    const store = openFileStore(
      `s3://${BUCKET}/pub?endpoint=${s3.endpoint}&publicBaseUrl=${encodeURIComponent(publicBase)}`,
      s3.settings,
    );
    assert.equal(await store.write('a b/c.gz', 'c'), `${publicBase}/pub/a%20b/c.gz`);
    assert.equal(await store.readText('a b/c.gz'), 'c');
  });

  test('a multi-MiB file goes up in parts and comes back identical', async () => {
    // Random bytes do not compress, so the gzip stream stays above the 5 MiB part size.
    const original = randomBytes(12 * 1024 * 1024 + 12345);
    const source = join(root, 'big.db');
    await writeFile(source, original);
    const store = openFileStore(`s3://${BUCKET}/multi?endpoint=${s3.endpoint}`, s3.settings);

    const progress: number[] = [];
    const up = await uploadFile(store, 'cairn-1/world-state.gz', source, {
      onProgress: (done, total) => {
        assert.equal(total, original.length);
        progress.push(done);
      },
    });
    assert.equal(up.bytes, original.length);
    assert.ok(up.compressedBytes > 10 * 1024 * 1024);
    assert.equal(progress.at(-1), original.length);
    // s3rver reports a completed multipart upload as a Post, a single PutObject as a Put.
    assert.ok(s3.events.includes('ObjectCreated:Post multi/cairn-1/world-state.gz'), s3.events.join('\n'));
    assert.ok(!s3.events.includes('ObjectCreated:Put multi/cairn-1/world-state.gz'));

    const target = join(root, 'restored', 'big.db');
    const down = await downloadFile(up.url, target, { s3: s3.settings, expectedSha256: up.sha256 });
    assert.deepEqual(down, { sha256: up.sha256, bytes: original.length });
    assert.ok((await readFile(target)).equals(original));
  });
});

describe('AWS SDK Node version warning', () => {
  test('opening an s3 store prints no NodeVersionSupportWarning and leaves the env alone', () => {
    const script = `
      const { openFileStore } = await import('./src/snapshots/file-store.ts');
      openFileStore('s3://bucket?endpoint=http://127.0.0.1:9', { region: 'us-east-1' });
      openFileStore('s3://bucket', { region: 'us-east-1' });
      console.log(JSON.stringify(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ?? null));
    `;
    const env = { ...process.env };
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    delete env.NODE_NO_WARNINGS;
    delete env.NODE_OPTIONS;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'null');
    assert.doesNotMatch(run.stderr, /NodeVersionSupportWarning/);
  });
});
