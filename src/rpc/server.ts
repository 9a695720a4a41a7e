// HTTP listeners for JSON-RPC (docs/rpc.md): POST / with application/json, GET /status,
// 405 for other methods on /, 415 for other content types, 413 over the body limit,
// 401 on the admin port without the right API key, CORS on the public port only,
// gzip for larger responses when the client accepts it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Dispatcher } from './dispatch.js';
import { RpcCode } from './errors.js';
import type { PortKind } from './registry.js';

const gzipAsync = promisify(gzip);

/** Responses at least this large are gzipped when the client accepts gzip. */
const GZIP_MIN_BYTES = 1024;

export interface ListenerOptions {
  kind: PortKind;
  host: string;
  port: number;
  dispatcher: Dispatcher;
  logger: Logger;
  bodyLimit: number;
  requestTimeoutMs: number;
  /** Admin port only: required key, sent as `x-api-key` or `Authorization: Bearer`. */
  apiKey?: string;
  /** Public port only: allowed origins; `*` allows any. */
  corsOrigins?: readonly string[];
  /** Extra headers on every response (component versions). */
  headers?: Record<string, string>;
  /** Health for GET /status: `ok` false answers HTTP 503. */
  status: () => { ok: boolean } & Record<string, unknown>;
}

export interface Listener {
  readonly kind: PortKind;
  /** A URL a client on this machine can use (wildcard hosts become loopback). */
  readonly url: string;
  /** The address and port actually bound, e.g. `0.0.0.0:8080`. */
  readonly bound: string;
  /** Stops accepting connections and waits for in-flight requests to finish. */
  close(): Promise<void>;
}

function httpError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Compares keys in constant time: both sides are hashed to equal-length digests first. */
export function apiKeyMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(sha256(expected), sha256(given));
}

function presentedKey(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string') return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(auth);
    if (match) return match[1];
  }
  return undefined;
}

function urlFor(address: AddressInfo): string {
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

export async function startListener(opts: ListenerOptions): Promise<Listener> {
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: opts.bodyLimit,
    requestTimeout: opts.requestTimeoutMs,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const log = opts.logger;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req, reply) => {
    if (opts.headers) reply.headers(opts.headers);
    if (opts.kind === 'public') applyCors(req, reply, opts.corsOrigins ?? ['*']);
    if (
      opts.apiKey !== undefined &&
      req.url !== '/status' &&
      !apiKeyMatches(opts.apiKey, presentedKey(req))
    ) {
      return httpError(reply, 401, RpcCode.Refused, 'Unauthorized: invalid or missing API key');
    }
  });

  let closing = false;
  app.addHook('onSend', async (req, reply, payload) => {
    // A response finished after close() began must not leave its connection open.
    if (closing) reply.header('connection', 'close');
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const size = Buffer.byteLength(payload);
    const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (!accepts || size < GZIP_MIN_BYTES || reply.hasHeader('content-encoding')) return payload;
    reply.header('content-encoding', 'gzip');
    reply.header('vary', 'Accept-Encoding');
    reply.removeHeader('content-length');
    return gzipAsync(payload);
  });

  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, _req, reply) => {
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return httpError(
        reply,
        415,
        RpcCode.InvalidRequest,
        'Unsupported Media Type: send Content-Type: application/json',
      );
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return httpError(
        reply,
        413,
        RpcCode.LimitExceeded,
        `Request body is larger than the limit of ${opts.bodyLimit} bytes`,
      );
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) log.error({ err }, 'http error');
    return httpError(
      reply,
      status,
      status === 500 ? RpcCode.InternalError : RpcCode.InvalidRequest,
      err.message,
    );
  });

  app.setNotFoundHandler((req, reply) =>
    httpError(
      reply,
      404,
      RpcCode.InvalidRequest,
      `Not found: ${req.method} ${req.url}; JSON-RPC is served at POST /`,
    ),
  );

  app.post('/', async (req, reply) => {
    if (req.headers['content-type'] === undefined) {
      return httpError(
        reply,
        415,
        RpcCode.InvalidRequest,
        'Unsupported Media Type: send Content-Type: application/json',
      );
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await opts.dispatcher.handle(body, req.ip);
    if (outcome.status === 204) return reply.code(204).send();
    return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(outcome.body);
  });

  app.get('/status', async (_req, reply) => {
    const status = opts.status();
    return reply
      .code(status.ok ? 200 : 503)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(status));
  });

  const allowed = opts.kind === 'public' ? 'POST, OPTIONS' : 'POST';
  const others = ['GET', 'PUT', 'DELETE', 'PATCH', ...(opts.kind === 'public' ? [] : ['OPTIONS'])] as const;
  app.route({
    method: [...others],
    url: '/',
    handler: async (req, reply) => {
      reply.header('allow', allowed);
      return httpError(reply, 405, RpcCode.InvalidRequest, `Method Not Allowed: ${req.method} /; use POST`);
    },
  });
  if (opts.kind === 'public') {
    // CORS preflight; the headers were set by the onRequest hook.
    app.options('/', async (_req, reply) => reply.code(204).send());
    app.options('/status', async (_req, reply) => reply.code(204).send());
  }

  await app.listen({ host: opts.host, port: opts.port });
  const address = app.server.address() as AddressInfo;
  const url = urlFor(address);
  return {
    kind: opts.kind,
    url,
    bound: `${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    close: () => {
      closing = true;
      return app.close();
    },
  };
}

function applyCors(req: FastifyRequest, reply: FastifyReply, origins: readonly string[]): void {
  const origin = req.headers.origin;
  if (origins.includes('*')) {
    reply.header('access-control-allow-origin', '*');
  } else if (typeof origin === 'string' && origins.includes(origin)) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
  } else {
    return;
  }
  if (req.method === 'OPTIONS') {
    reply.header('access-control-allow-methods', 'POST, GET, OPTIONS');
    reply.header('access-control-allow-headers', 'Content-Type, Accept-Encoding');
    reply.header('access-control-max-age', '86400');
  }
}
