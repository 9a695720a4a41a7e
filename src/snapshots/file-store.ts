// Object storage behind snapshot locations: a local directory, an S3 bucket or a read-only web
// server, all addressed by '/'-separated keys below the location they were opened on.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { GetObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  formatLocation,
  joinKey,
  joinLocation,
  parseLocation,
  type SnapshotLocation,
  splitKey,
} from './location.js';

export interface S3Settings {
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export interface WriteOptions {
  contentType?: string;
  cacheControl?: string;
}

export interface FileStore {
  /** The base URL it was opened on. */
  readonly location: string;
  readonly writable: boolean;
  /** Writes an object under key (relative, '/'-separated); returns its full URL. */
  write(key: string, body: Buffer | string | NodeJS.ReadableStream, options?: WriteOptions): Promise<string>;
  /** Reads an object; undefined when it does not exist. */
  read(key: string): Promise<NodeJS.ReadableStream | undefined>;
  readText(key: string): Promise<string | undefined>;
}

export function openFileStore(location: string | SnapshotLocation, s3?: S3Settings): FileStore {
  const loc = typeof location === 'string' ? parseLocation(location) : location;
  switch (loc.kind) {
    case 'file':
      return new LocalFileStore(loc);
    case 's3':
      return new S3FileStore(loc, s3);
    case 'http':
      return new HttpFileStore(loc);
  }
}

/** Reads one full URL of any supported scheme, e.g. a data file listed in a snapshot index. */
export async function readUrl(url: string, s3?: S3Settings): Promise<NodeJS.ReadableStream | undefined> {
  const loc = parseLocation(url);
  switch (loc.kind) {
    case 'file':
      return readLocalFile(loc.path);
    case 's3': {
      if (loc.prefix === '') throw new Error(`${url} names a bucket, not an object`);
      const client = createS3Client(loc, s3);
      const body = await readS3Object(client, loc.bucket, loc.prefix).catch((err: unknown) => {
        client.destroy();
        throw err;
      });
      // The client exists for this one read only; free its sockets once the body is done.
      if (body === undefined) client.destroy();
      else body.once('close', () => client.destroy());
      return body;
    }
    case 'http':
      return fetchUrl(loc.baseUrl);
  }
}

async function streamToText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function isNodeError(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

async function readLocalFile(path: string): Promise<Readable | undefined> {
  // Opening first turns a missing file into undefined instead of a later stream error.
  try {
    const handle = await open(path, 'r');
    return handle.createReadStream();
  } catch (err) {
    if (isNodeError(err, 'ENOENT')) return undefined;
    throw err;
  }
}

/** What every store shares: text reads go through `read`. */
abstract class BaseFileStore implements FileStore {
  abstract readonly location: string;
  abstract readonly writable: boolean;
  abstract write(
    key: string,
    body: Buffer | string | NodeJS.ReadableStream,
    options?: WriteOptions,
  ): Promise<string>;
  abstract read(key: string): Promise<NodeJS.ReadableStream | undefined>;

  async readText(key: string): Promise<string | undefined> {
    const stream = await this.read(key);
    return stream === undefined ? undefined : streamToText(stream);
  }
}

class LocalFileStore extends BaseFileStore {
  readonly location: string;
  readonly writable = true;

  constructor(private readonly loc: SnapshotLocation & { kind: 'file' }) {
    super();
    this.location = formatLocation(loc);
  }

  private pathOf(key: string): string {
    const parts = splitKey(key);
    if (parts.length === 0) throw new Error(`empty object key '${key}'`);
    return join(this.loc.path, ...parts);
  }

  async write(key: string, body: Buffer | string | NodeJS.ReadableStream): Promise<string> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write beside the target and rename, so readers never see a half-written object.
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const source = typeof body === 'string' || Buffer.isBuffer(body) ? Readable.from([body]) : body;
      // flush: fsync before close, so a crash cannot leave an empty file under the final name.
      await pipeline(source, createWriteStream(temp, { flags: 'wx', flush: true }));
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return joinLocation(this.loc, key);
  }

  async read(key: string): Promise<NodeJS.ReadableStream | undefined> {
    return readLocalFile(this.pathOf(key));
  }
}

const WARNING_SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

function createS3Client(loc: SnapshotLocation & { kind: 's3' }, s3: S3Settings | undefined): S3Client {
  const endpoint = loc.endpoint ?? s3?.endpoint;
  const config: S3ClientConfig = {
    // Without an explicit region the SDK's own chain (AWS_REGION, profile) decides; S3-compatible
    // servers mostly ignore it, so default one there rather than failing.
    region: s3?.region ?? (endpoint !== undefined ? (process.env.AWS_REGION ?? 'us-east-1') : undefined),
  };
  if (endpoint !== undefined) {
    config.endpoint = endpoint;
    // Self-hosted servers rarely have wildcard DNS for virtual-hosted bucket names.
    config.forcePathStyle = true;
    // Since 3.729 the SDK adds CRC32 checksum headers to every upload, which several
    // S3-compatible services (R2, older MinIO, Ceph) reject (aws-sdk-js-v3#6810); our own
    // sha256 over the content covers integrity end to end.
    config.requestChecksumCalculation = 'WHEN_REQUIRED';
    config.responseChecksumValidation = 'WHEN_REQUIRED';
  }
  if (s3?.accessKeyId !== undefined || s3?.secretAccessKey !== undefined) {
    if (s3.accessKeyId === undefined || s3.secretAccessKey === undefined) {
      throw new Error('S3 settings need both accessKeyId and secretAccessKey, or neither');
    }
    config.credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
  }
  // The SDK warns once per process, via process.emitWarning, that its 2027 releases will need
  // Node 22. It checks this documented switch while building the client config and then marks
  // the warning as done for every client (the nested STS/SSO clients too), so setting it only
  // around construction silences exactly that warning without leaking into child processes.
  const previous = process.env[WARNING_SWITCH];
  process.env[WARNING_SWITCH] = 'true';
  try {
    return new S3Client(config);
  } finally {
    if (previous === undefined) delete process.env[WARNING_SWITCH];
    else process.env[WARNING_SWITCH] = previous;
  }
}

async function readS3Object(client: S3Client, bucket: string, key: string): Promise<Readable | undefined> {
  try {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!(res.Body instanceof Readable)) throw new Error(`s3://${bucket}/${key}: response has no body`);
    return res.Body;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) {
      // A missing bucket is a misconfiguration, not a missing object.
      if (e.name === 'NoSuchBucket') throw err;
      return undefined;
    }
    throw err;
  }
}

class S3FileStore extends BaseFileStore {
  readonly location: string;
  readonly writable = true;
  private readonly client: S3Client;

  constructor(
    private readonly loc: SnapshotLocation & { kind: 's3' },
    s3: S3Settings | undefined,
  ) {
    super();
    this.location = formatLocation(loc);
    this.client = createS3Client(loc, s3);
  }

  private keyOf(key: string): string {
    const parts = splitKey(key);
    if (parts.length === 0) throw new Error(`empty object key '${key}'`);
    return joinKey(this.loc.prefix, ...parts);
  }

  async write(
    key: string,
    body: Buffer | string | NodeJS.ReadableStream,
    options?: WriteOptions,
  ): Promise<string> {
    const objectKey = this.keyOf(key);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.loc.bucket,
        Key: objectKey,
        // Upload needs a real Readable; old-style streams are wrapped.
        Body:
          typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Readable
            ? body
            : new Readable().wrap(body),
        ContentType: options?.contentType,
        CacheControl: options?.cacheControl,
      },
    });
    await upload.done();
    if (this.loc.publicBaseUrl !== undefined) {
      // Handed-out URLs (e.g. in the index) should be readable without S3 credentials.
      return `${this.loc.publicBaseUrl}/${objectKey.split('/').map(encodeURIComponent).join('/')}`;
    }
    return joinLocation(this.loc, key);
  }

  async read(key: string): Promise<NodeJS.ReadableStream | undefined> {
    return readS3Object(this.client, this.loc.bucket, this.keyOf(key));
  }
}

async function fetchUrl(url: string): Promise<Readable | undefined> {
  const res = await fetch(url);
  if (res.status === 404) {
    await res.body?.cancel();
    return undefined;
  }
  if (!res.ok || res.body === null) {
    await res.body?.cancel();
    throw new Error(`GET ${url} failed: ${res.status} ${res.statusText}`);
  }
  return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
}

class HttpFileStore extends BaseFileStore {
  readonly location: string;
  readonly writable = false;

  constructor(private readonly loc: SnapshotLocation & { kind: 'http' }) {
    super();
    this.location = formatLocation(loc);
  }

  private urlOf(key: string): string {
    if (splitKey(key).length === 0) throw new Error(`empty object key '${key}'`);
    return joinLocation(this.loc, key);
  }

  async write(key: string): Promise<string> {
    throw new Error(`http(s) snapshot locations are read-only: cannot write ${this.urlOf(key)}`);
  }

  async read(key: string): Promise<NodeJS.ReadableStream | undefined> {
    return fetchUrl(this.urlOf(key));
  }
}
