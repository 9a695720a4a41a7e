import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openFileStore, readUrl } from '../../src/snapshots/file-store.js';
import { SnapshotLocationError } from '../../src/snapshots/location.js';
import { type StaticServer, serveDirectory } from './servers.js';

async function text(stream: NodeJS.ReadableStream | undefined): Promise<string | undefined> {
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Every file below dir, relative, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as any).path, e.name).slice(dir.length + 1))
    .sort();
}

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-file-store-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('file store', () => {
  test('round trips strings, buffers and streams, creating directories', async () => {
    const dir = join(root, 'round-trip');
    const store = openFileStore(pathToFileURL(dir).href);
    assert.equal(store.writable, true);
    assert.equal(store.location, pathToFileURL(dir).href);

    const url = await store.write('a/b/c.txt', 'hello');
    assert.equal(url, pathToFileURL(join(dir, 'a/b/c.txt')).href);
    assert.equal(await readFile(join(dir, 'a/b/c.txt'), 'utf8'), 'hello');
    assert.equal(await store.readText('a/b/c.txt'), 'hello');

    await store.write('bin', Buffer.from([0, 1, 2, 255]));
    assert.deepEqual(await readFile(join(dir, 'bin')), Buffer.from([0, 1, 2, 255]));

    await store.write('streamed.txt', Readable.from(['one ', 'two ', 'three']));
    assert.equal(await text(await store.read('streamed.txt')), 'one two three');

    // Overwriting replaces the content; no temp files remain beside the objects.
    await store.write('a/b/c.txt', 'again');
    assert.equal(await store.readText('a/b/c.txt'), 'again');
    assert.deepEqual(await listFiles(dir), ['a/b/c.txt', 'bin', 'streamed.txt']);
  });

  test('missing objects read as undefined', async () => {
    const store = openFileStore(pathToFileURL(join(root, 'empty')).href);
    assert.equal(await store.read('nope.gz'), undefined);
    assert.equal(await store.readText('deeper/nope.json'), undefined);
  });

  test('a failing stream leaves neither the object nor a temp file', async () => {
    const dir = join(root, 'failing');
    const store = openFileStore({ kind: 'file', path: dir });
    async function* broken() {
      yield Buffer.from('partial');
      throw new Error('disk on fire');
    }
    await assert.rejects(store.write('x/obj.bin', Readable.from(broken())), /disk on fire/);
    assert.deepEqual(await listFiles(dir), []);
  });

  test('keys cannot leave the store', async () => {
    const store = openFileStore(pathToFileURL(join(root, 'jail')).href);
    await assert.rejects(store.write('../escaped.txt', 'x'), SnapshotLocationError);
    await assert.rejects(store.read('a/../../escaped.txt'), SnapshotLocationError);
    await assert.rejects(store.write('', 'x'), /empty object key/);
  });

  test('readUrl reads file URLs', async () => {
    const path = join(root, 'direct.txt');
    await writeFile(path, 'direct');
    assert.equal(await text(await readUrl(pathToFileURL(path).href)), 'direct');
    assert.equal(await readUrl(pathToFileURL(join(root, 'absent.txt')).href), undefined);
  });
});

describe('http store', () => {
  let served: string;
  let server: StaticServer;
  before(async () => {
    served = join(root, 'served');
    await mkdir(join(served, 'folder'), { recursive: true });
    await writeFile(join(served, 'folder', 'index.json'), '{"ok":true}');
    server = await serveDirectory(served);
  });
  after(() => server.close());

  test('reads existing objects and maps 404 to undefined', async () => {
    const store = openFileStore(`${server.baseUrl}/`);
    assert.equal(store.writable, false);
    assert.equal(await store.readText('folder/index.json'), '{"ok":true}');
    assert.equal(await store.read('folder/missing.json'), undefined);
    assert.equal(await store.readText('missing/index.json'), undefined);
    assert.ok(server.requests.includes('GET /folder/index.json'));
  });

  test('a base path is kept in front of keys', async () => {
    const store = openFileStore(`${server.baseUrl}/folder`);
    assert.equal(store.location, `${server.baseUrl}/folder`);
    assert.equal(await store.readText('index.json'), '{"ok":true}');
  });

  test('writes are refused', async () => {
    const store = openFileStore(server.baseUrl);
    await assert.rejects(store.write('folder/new.json', '{}'), /http\(s\) snapshot locations are read-only/);
    assert.ok(!server.requests.some((r) => !r.startsWith('GET')));
  });

  test('server errors are errors, not missing objects', async () => {
    const store = openFileStore(server.baseUrl);
    await assert.rejects(store.read('error/x.json'), /500/);
  });

  test('readUrl reads http URLs', async () => {
    assert.equal(await text(await readUrl(`${server.baseUrl}/folder/index.json`)), '{"ok":true}');
    assert.equal(await readUrl(`${server.baseUrl}/folder/nothing.gz`), undefined);
  });
});
