import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { openFileStore } from '../../src/snapshots/file-store.js';
import {
  downloadFile,
  SnapshotIntegrityError,
  SnapshotNotFoundError,
  uploadFile,
} from '../../src/snapshots/transfer.js';
import { type StaticServer, serveDirectory } from './servers.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let root: string;
let storeDir: string;
let original: Buffer;
let source: string;
let server: StaticServer;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-transfer-'));
  storeDir = join(root, 'store');
  // Compressible but not trivial: repeated random blocks.
  const block = randomBytes(4096);
  original = Buffer.concat([...Array.from({ length: 300 }, () => block), randomBytes(777)]);
  source = join(root, 'archiver.db');
  await writeFile(source, original);
  server = await serveDirectory(storeDir);
});
after(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('uploadFile', () => {
  test('gzips the file and reports the sha256 of the uncompressed bytes', async () => {
    const store = openFileStore(pathToFileURL(storeDir).href);
    const progress: [number, number][] = [];
    const up = await uploadFile(store, 'cairn-1/archiver.gz', source, {
      onProgress: (done, total) => progress.push([done, total]),
    });
    assert.equal(up.url, pathToFileURL(join(storeDir, 'cairn-1/archiver.gz')).href);
    assert.equal(up.sha256, sha256(original));
    assert.match(up.sha256, /^[0-9a-f]{64}$/);
    assert.equal(up.bytes, original.length);

    const stored = await readFile(join(storeDir, 'cairn-1/archiver.gz'));
    assert.equal(up.compressedBytes, stored.length);
    assert.ok(stored.length < original.length / 10, 'stored file should be compressed');
    assert.ok(gunzipSync(stored).equals(original));

    assert.ok(progress.length > 0);
    assert.deepEqual(progress.at(-1), [original.length, original.length]);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]![0] > progress[i - 1]![0]);
  });

  test('a missing local file fails without writing anything', async () => {
    const dir = join(root, 'nothing-here');
    const store = openFileStore(pathToFileURL(dir).href);
    await assert.rejects(uploadFile(store, 'x.gz', join(root, 'absent.db')), { code: 'ENOENT' });
    assert.equal(await exists(dir), false);
  });

  test('a read-only store fails the upload', async () => {
    const store = openFileStore(server.baseUrl);
    await assert.rejects(uploadFile(store, 'x.gz', source), /read-only/);
  });
});

describe('downloadFile', () => {
  let fileUrl: string;
  let digest: string;
  before(async () => {
    const up = await uploadFile(openFileStore(pathToFileURL(storeDir).href), 'dl/archiver.gz', source);
    fileUrl = up.url;
    digest = up.sha256;
  });

  test('restores the file from a file URL and verifies it', async () => {
    const target = join(root, 'restored', 'a', 'archiver.db');
    const seen: number[] = [];
    const down = await downloadFile(fileUrl, target, {
      expectedSha256: digest.toUpperCase(),
      onProgress: (n) => seen.push(n),
    });
    assert.deepEqual(down, { sha256: digest, bytes: original.length });
    assert.ok((await readFile(target)).equals(original));
    assert.equal(seen.at(-1), original.length);
    // Only the file itself: no temp file beside it.
    assert.deepEqual(await readdir(join(root, 'restored', 'a')), ['archiver.db']);
  });

  test('restores the file over http and without an expected digest', async () => {
    const target = join(root, 'restored-http', 'archiver.db');
    const down = await downloadFile(`${server.baseUrl}/dl/archiver.gz`, target);
    assert.equal(down.sha256, digest);
    assert.ok((await readFile(target)).equals(original));
  });

  test('a digest mismatch throws SnapshotIntegrityError and leaves no file', async () => {
    // Valid gzip of different content: only the sha256 can tell.
    const tampered = Buffer.from(original);
    tampered[1000] = tampered[1000]! ^ 0xff;
    const path = join(storeDir, 'bad', 'archiver.gz');
    await openFileStore(pathToFileURL(storeDir).href).write('bad/archiver.gz', gzipSync(tampered));
    const url = pathToFileURL(path).href;
    const target = join(root, 'restored-bad', 'archiver.db');
    await assert.rejects(downloadFile(url, target, { expectedSha256: digest }), (err: any) => {
      assert.ok(err instanceof SnapshotIntegrityError);
      assert.equal(err.url, url);
      assert.equal(err.expectedSha256, digest);
      assert.equal(err.actualSha256, sha256(tampered));
      assert.ok(
        err.message.includes(url) && err.message.includes(digest) && err.message.includes(sha256(tampered)),
      );
      return true;
    });
    assert.equal(await exists(target), false);
    assert.deepEqual(await readdir(join(root, 'restored-bad')), []);
  });

  test('corrupted gzip bytes throw SnapshotIntegrityError and leave no file', async () => {
    const good = await readFile(fileURLToPath(fileUrl));
    const corrupt = Buffer.from(good);
    // Inside the deflate data: either the inflater or the gzip CRC32 trailer notices.
    corrupt[Math.floor(corrupt.length / 2)] = corrupt[Math.floor(corrupt.length / 2)]! ^ 0x55;
    const path = join(root, 'corrupt.gz');
    await writeFile(path, corrupt);
    const target = join(root, 'restored-corrupt', 'archiver.db');
    await assert.rejects(
      downloadFile(pathToFileURL(path).href, target, { expectedSha256: digest }),
      SnapshotIntegrityError,
    );
    assert.equal(await exists(target), false);
    assert.deepEqual(await readdir(join(root, 'restored-corrupt')), []);

    // A truncated download is corrupt too.
    await writeFile(path, good.subarray(0, good.length - 100));
    await assert.rejects(downloadFile(pathToFileURL(path).href, target), SnapshotIntegrityError);
    assert.equal(await exists(target), false);
  });

  test('a missing file throws SnapshotNotFoundError naming the url', async () => {
    const url = `${server.baseUrl}/dl/missing.gz`;
    const target = join(root, 'restored-missing', 'x.db');
    await assert.rejects(downloadFile(url, target), (err: any) => {
      assert.ok(err instanceof SnapshotNotFoundError);
      assert.match(err.message, new RegExp(url.replace(/[.]/g, '\\.')));
      return true;
    });
    assert.equal(await exists(target), false);
  });

  test('a malformed expected digest is refused before downloading', async () => {
    const before = server.requests.length;
    await assert.rejects(
      downloadFile(`${server.baseUrl}/dl/archiver.gz`, join(root, 'never.db'), { expectedSha256: '0x1234' }),
      /not 64 hex digits/,
    );
    assert.equal(server.requests.length, before);
  });
});
