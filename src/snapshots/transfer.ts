// Moving database files to and from a store: gzip on the wire, sha256 over the uncompressed bytes
// so the digest identifies the database file itself, whatever the compression.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { type FileStore, readUrl, type S3Settings } from './file-store.js';

/** A downloaded file's content does not match what the index promised (or is not valid gzip). */
export class SnapshotIntegrityError extends Error {
  override readonly name = 'SnapshotIntegrityError';

  constructor(
    readonly url: string,
    readonly expectedSha256: string | undefined,
    readonly actualSha256: string | undefined,
    detail?: string,
    options?: ErrorOptions,
  ) {
    super(
      detail === undefined
        ? `snapshot file ${url} failed verification: expected sha256 ${expectedSha256}, got ${actualSha256}`
        : `snapshot file ${url} is corrupt (${detail}); expected sha256 ${expectedSha256 ?? '(none given)'}`,
      options,
    );
  }
}

export class SnapshotNotFoundError extends Error {
  override readonly name = 'SnapshotNotFoundError';

  constructor(readonly url: string) {
    super(`snapshot file ${url} does not exist`);
  }
}

export interface UploadResult {
  url: string;
  /** sha256 of the uncompressed file, lowercase hex without 0x. */
  sha256: string;
  bytes: number;
  compressedBytes: number;
}

export interface UploadOptions {
  /** Called as the file is read and compressed; bytes are uncompressed. */
  onProgress?(bytesDone: number, bytesTotal: number): void;
}

export async function uploadFile(
  store: FileStore,
  key: string,
  localPath: string,
  options: UploadOptions = {},
): Promise<UploadResult> {
  const source = await open(localPath, 'r');
  let bytesTotal: number;
  try {
    bytesTotal = (await source.stat()).size;
  } catch (err) {
    await source.close();
    throw err;
  }
  const hash = createHash('sha256');
  let bytes = 0;
  let compressedBytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      options.onProgress?.(bytes, bytesTotal);
      done(null, chunk);
    },
  });
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      compressedBytes += chunk.length;
      done(null, chunk);
    },
  });
  const compressing = pipeline(source.createReadStream(), hashing, createGzip(), counting);
  const writing = store.write(key, counting, { contentType: 'application/gzip' }).catch((err: unknown) => {
    // Stops the read side too; otherwise it would wait forever on a consumer that gave up.
    counting.destroy(err as Error);
    throw err;
  });
  const [compressed, written] = await Promise.allSettled([compressing, writing]);
  // A read failure also breaks the write, so its error is the cause worth reporting.
  if (compressed.status === 'rejected') throw compressed.reason;
  if (written.status === 'rejected') throw written.reason;
  return { url: written.value, sha256: hash.digest('hex'), bytes, compressedBytes };
}

export interface DownloadOptions {
  s3?: S3Settings;
  /** sha256 of the uncompressed file (hex); the file is only put in place when it matches. */
  expectedSha256?: string;
  /** Called as the file is written; bytes are uncompressed. */
  onProgress?(bytesDone: number): void;
}

export async function downloadFile(
  url: string,
  localPath: string,
  options: DownloadOptions = {},
): Promise<{ sha256: string; bytes: number }> {
  const expected = options.expectedSha256?.toLowerCase();
  if (expected !== undefined && !/^[0-9a-f]{64}$/.test(expected)) {
    throw new Error(`expected sha256 '${options.expectedSha256}' is not 64 hex digits`);
  }
  await mkdir(dirname(localPath), { recursive: true });
  const body = await readUrl(url, options.s3);
  if (body === undefined) throw new SnapshotNotFoundError(url);

  // Nothing appears at localPath until the content is known to be right.
  const temp = `${localPath}.${randomBytes(6).toString('hex')}.tmp`;
  const hash = createHash('sha256');
  let bytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      options.onProgress?.(bytes);
      done(null, chunk);
    },
  });
  try {
    try {
      // flush: fsync before close, so a crash cannot leave a short file under the final name.
      await pipeline(body, createGunzip(), hashing, createWriteStream(temp, { flags: 'wx', flush: true }));
    } catch (err) {
      // zlib errors (bad header, CRC mismatch, truncation) mean the bytes are damaged.
      const code = (err as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && code.startsWith('Z_')) {
        throw new SnapshotIntegrityError(url, expected, undefined, (err as Error).message, { cause: err });
      }
      throw err;
    }
    const actual = hash.digest('hex');
    if (expected !== undefined && actual !== expected) {
      throw new SnapshotIntegrityError(url, expected, actual);
    }
    await rename(temp, localPath);
    return { sha256: actual, bytes };
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
