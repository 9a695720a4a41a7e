// Local stand-ins for the remote stores: s3rver for S3 and a tiny static file server for http(s).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';

// s3rver ships no types.
const S3rver: any = createRequire(import.meta.url)('s3rver');

export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LocalS3 {
  endpoint: string;
  settings: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  /** 'ObjectCreated:Put <key>' for single uploads, 'ObjectCreated:Post <key>' for multipart ones. */
  events: string[];
  createBucket(name: string): Promise<void>;
  head(bucket: string, key: string): Promise<any>;
  close(): Promise<void>;
}

export async function startS3(directory: string): Promise<LocalS3> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const events: string[] = [];
  server.on('event', (event: any) => {
    const record = event.Records[0];
    events.push(`${record.eventName} ${record.s3.object.key}`);
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = { endpoint, region: 'us-east-1', ...S3_CREDENTIALS };
  // Silenced here too, or this client would print the SDK's Node 20 warning the store avoids.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    credentials: S3_CREDENTIALS,
    forcePathStyle: true,
  });
  delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  return {
    endpoint,
    settings,
    events,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    head: (bucket, key) => client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })),
    async close() {
      client.destroy();
      await server.close();
    },
  };
}

export interface StaticServer {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves `root` read-only over http; anything missing is a 404. */
export async function serveDirectory(root: string): Promise<StaticServer> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/error/')) {
      res.writeHead(500).end('broken');
      return;
    }
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    try {
      if (!path.startsWith(root) || !(await stat(path)).isFile()) throw new Error('not a file');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(path).pipe(res);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
