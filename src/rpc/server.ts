// HTTP listeners for JSON-RPC (docs/rpc.md): POST / with application/json, GET /status, GET
// /metrics (admin port), a page at GET / (public port: the status page, src/api/status-page.ts),
// 405 for other methods on /, 415 for other content types, 413 over the body limit (after reading
// the rest of the body, up to a cap, so that the client can read it),
// 401 on the admin port without the right API key, CORS on the public port only,
// gzip for larger responses when the client accepts it.
//
// fastify serves every request but one kind: a POST / with a JSON body of a stated length within the
// limit (nearly all traffic) takes a direct path on the same node:http server, which answers
// exactly what the fastify route would, without fastify's per-request hooks, reply objects and
// header maps. That path answered svc_getBlockNumber at about twice the rate (docs/performance.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Fastify, { errorCodes, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { Dispatcher, DispatchOutcome, MaybePromise } from './dispatch.js';
import { RpcCode } from './errors.js';
import type { PortKind } from './registry.js';

const gzipAsync = promisify(gzip);

/** Responses at least this large are gzipped when the client accepts gzip. */
const GZIP_MIN_BYTES = 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A body over the limit is read and discarded up to this many times the limit before the 413 is
 * sent: a client still sending when the socket closes gets EPIPE or ECONNRESET instead of the
 * answer (fastify closed at once). Past the cap (or a Content-Length past it) the connection is cut,
 * so a client cannot keep the listener reading forever; the request timeout bounds the time.
 */
export const OVERSIZE_DISCARD_FACTOR = 8;

/** Content types the direct path takes as they come (lowercased); others go through fastify. */
const DIRECT_CONTENT_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

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
  /**
   * Public port: the HTML page of GET / with its response headers (the status page, which the
   * API layer writes: this transport knows nothing of the chain).
   */
  page?: { html: string; headers: Readonly<Record<string, string>> };
  /** Admin port: Prometheus metrics for GET /metrics (behind the API key, like the methods). */
  metrics?: { text(): Promise<string>; contentType: string };
  /**
   * More JSON-RPC APIs on this listener, each at its own path (the reference's published API at
   * `/aztec`), with the same limits, CORS and key as `POST /`.
   */
  faces?: readonly ApiFace[];
}

/** A JSON-RPC API served at a path other than `/`. */
export interface ApiFace {
  /** e.g. `/aztec` */
  readonly path: string;
  readonly dispatcher: Dispatcher;
  /** Headers on every response at this path, besides the listener's. */
  readonly headers?: Readonly<Record<string, string>>;
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

const httpErrorBody = (code: number, message: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });

function httpError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).header('content-type', JSON_TYPE).send(httpErrorBody(code, message));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Compares keys in constant time: both sides are hashed to equal-length digests first. */
export function apiKeyMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(sha256(expected), sha256(given));
}

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  if (typeof header === 'string') return header;
  const auth = headers.authorization;
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
  app.addContentTypeParser('application/json', (_req, payload, done) =>
    readBody(payload, opts.bodyLimit, done),
  );

  const origins = opts.kind === 'public' ? (opts.corsOrigins ?? ['*']) : undefined;
  const faces = opts.faces ?? [];
  const faceAt = (url: string) => {
    const path = url.split('?', 1)[0];
    return faces.find((f) => f.path === path);
  };
  app.addHook('onRequest', async (req, reply) => {
    if (opts.headers) reply.headers(opts.headers);
    const face = faces.length === 0 ? undefined : faceAt(req.url);
    if (face?.headers) reply.headers(face.headers);
    if (origins) {
      const cors = corsHeaders(req.method, req.headers.origin, origins);
      for (let i = 0; i < cors.length; i += 2) reply.header(cors[i]!, cors[i + 1]);
    }
    if (
      opts.apiKey !== undefined &&
      req.url !== '/status' &&
      !apiKeyMatches(opts.apiKey, presentedKey(req.headers))
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

  const jsonRpcRoute = (path: string, dispatcher: Dispatcher) =>
    app.post(path, async (req, reply) => {
      if (req.headers['content-type'] === undefined) {
        return httpError(
          reply,
          415,
          RpcCode.InvalidRequest,
          'Unsupported Media Type: send Content-Type: application/json',
        );
      }
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const outcome = await dispatcher.handle(body, req.ip);
      if (outcome.status === 204) return reply.code(204).send();
      return reply
        .code(outcome.status)
        .header('content-type', 'application/json; charset=utf-8')
        .send(outcome.body);
    });
  jsonRpcRoute('/', opts.dispatcher);
  for (const face of faces) {
    jsonRpcRoute(face.path, face.dispatcher);
    app.route({
      method: ['GET', 'PUT', 'DELETE', 'PATCH'],
      url: face.path,
      handler: async (req, reply) => {
        reply.header('allow', opts.kind === 'public' ? 'POST, OPTIONS' : 'POST');
        return httpError(
          reply,
          405,
          RpcCode.InvalidRequest,
          `Method Not Allowed: ${req.method} ${face.path}; use POST`,
        );
      },
    });
    if (opts.kind === 'public') app.options(face.path, async (_req, reply) => reply.code(204).send());
  }

  const metrics = opts.metrics;
  if (metrics !== undefined) {
    app.get('/metrics', async (_req, reply) =>
      reply
        .code(200)
        .header('content-type', metrics.contentType)
        .send(await metrics.text()),
    );
  }

  app.get('/status', async (_req, reply) => {
    const status = opts.status();
    return reply
      .code(status.ok ? 200 : 503)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(status));
  });

  // The public port serves its page (the status page) at GET / (and so HEAD /); the admin port
  // answers 405.
  const page = opts.kind === 'public' ? opts.page : undefined;
  if (page !== undefined) {
    app.get('/', async (_req, reply) =>
      reply
        .code(200)
        .headers(page.headers)
        .header('content-type', 'text/html; charset=utf-8')
        .send(page.html),
    );
  }
  const allowed = opts.kind === 'public' ? 'GET, HEAD, POST, OPTIONS' : 'POST';
  const others =
    opts.kind === 'public' ? ['PUT', 'DELETE', 'PATCH'] : ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
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

  // The direct path goes in front of fastify's handler on the server fastify made (so timeouts,
  // keep-alive, client errors and closing stay fastify's); whatever it does not take, fastify gets.
  const fastifyHandlers = app.server.listeners('request') as ((
    req: IncomingMessage,
    res: ServerResponse,
  ) => void)[];
  if (fastifyHandlers.length !== 1) throw new Error('expected fastify to serve requests with one handler');
  const [fastifyHandler] = fastifyHandlers as [(req: IncomingMessage, res: ServerResponse) => void];
  const direct = directPath(opts, origins, () => closing);
  app.server.removeAllListeners('request');
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!direct(req, res)) fastifyHandler(req, res);
  });

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

/**
 * The body of a JSON request on fastify's path, within `limit` bytes. One over the limit is read to
 * its end and dropped, then refused with 413 (see OVERSIZE_DISCARD_FACTOR); fastify closes the
 * connection after an error, which is then safe: the client has sent everything.
 */
function readBody(
  payload: IncomingMessage,
  limit: number,
  done: (err: Error | null, body?: Buffer) => void,
): void {
  const cap = limit * OVERSIZE_DISCARD_FACTOR;
  const declared = Number(payload.headers['content-length']); // NaN when chunked
  if (declared > cap) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
  };
  function onData(chunk: Buffer) {
    received += chunk.length;
    if (received > cap) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    } else if (received > limit || declared > limit) {
      chunks.length = 0;
    } else {
      chunks.push(chunk);
    }
  }
  function onEnd() {
    stop();
    if (received > limit) done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    else done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
  }
  function onError(err: Error & { statusCode?: number }) {
    stop();
    err.statusCode ??= 400;
    done(err);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}

/** The CORS headers of a response on the public port, as a flat name, value list. */
function corsHeaders(method: string | undefined, origin: unknown, origins: readonly string[]): string[] {
  let headers: string[];
  if (origins.includes('*')) {
    headers = ['access-control-allow-origin', '*'];
  } else if (typeof origin === 'string' && origins.includes(origin)) {
    headers = ['access-control-allow-origin', origin, 'vary', 'Origin'];
  } else {
    return [];
  }
  if (method === 'OPTIONS') {
    headers.push(
      'access-control-allow-methods',
      'POST, GET, OPTIONS',
      'access-control-allow-headers',
      'Content-Type, Accept-Encoding',
      'access-control-max-age',
      '86400',
    );
  }
  return headers;
}

/** A flat name, value list with one value per name: a later value replaces an earlier one in place. */
function setHeader(headers: string[], name: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

/**
 * The direct path: returns false, having touched nothing, for a request it does not take. It takes
 * `POST /` (or the path of one of the listener's faces) with a JSON content type, a Content-Length from 1 to the body limit and no
 * Transfer-Encoding, when the listener is not closing and, on a port with an API key, the right
 * key is presented. Its responses carry the headers the fastify route's would, in the same order
 * (fastify's header map keeps one value per lowercased name).
 */
function directPath(
  opts: ListenerOptions,
  origins: readonly string[] | undefined,
  closing: () => boolean,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const fixed: string[] = [];
  for (const [name, value] of Object.entries(opts.headers ?? {})) setHeader(fixed, name.toLowerCase(), value);
  const log = opts.logger;

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    status: number,
    headers: string[],
    body: string | Buffer | undefined,
  ) => {
    if (body === undefined) {
      if (closing()) setHeader(headers, 'connection', 'close');
      res.writeHead(status, headers);
      res.end();
      return;
    }
    setHeader(headers, 'content-type', JSON_TYPE);
    if (closing()) setHeader(headers, 'connection', 'close');
    const size = Buffer.byteLength(body);
    if (size >= GZIP_MIN_BYTES && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      gzipAsync(body).then(
        (zipped) => {
          setHeader(headers, 'content-encoding', 'gzip');
          setHeader(headers, 'vary', 'Accept-Encoding');
          setHeader(headers, 'content-length', String(zipped.length));
          res.writeHead(status, headers);
          res.end(zipped);
        },
        (err: unknown) => failed(req, res, route, err),
      );
      return;
    }
    setHeader(headers, 'content-length', String(size));
    res.writeHead(status, headers);
    res.end(body);
  };

  // With any origin allowed, the CORS headers of a POST do not depend on the request.
  const anyOrigin = origins?.includes('*') ?? false;
  const addCors = (headers: string[], origin: unknown) => {
    const cors = corsHeaders('POST', origin, origins!);
    for (let i = 0; i < cors.length; i += 2) setHeader(headers, cors[i]!, cors[i + 1]!);
  };
  /** A path's dispatcher and the headers of its responses up to CORS, in fastify's order. */
  interface Route {
    dispatcher: Dispatcher;
    common: string[];
  }
  const routeOf = (dispatcher: Dispatcher, extra: Readonly<Record<string, string>> = {}): Route => {
    const common = fixed.slice();
    for (const [name, value] of Object.entries(extra)) setHeader(common, name.toLowerCase(), value);
    if (anyOrigin) addCors(common, undefined);
    return { dispatcher, common };
  };
  const routes = new Map<string | undefined, Route>([['/', routeOf(opts.dispatcher)]]);
  for (const face of opts.faces ?? []) routes.set(face.path, routeOf(face.dispatcher, face.headers));
  const responseHeaders = (req: IncomingMessage, route: Route): string[] => {
    const headers = route.common.slice();
    if (origins && !anyOrigin) addCors(headers, req.headers.origin);
    return headers;
  };

  // What fastify's error handler answers for an unexpected failure.
  const failed = (req: IncomingMessage, res: ServerResponse, route: Route, err: unknown) => {
    log.error({ err }, 'http error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    send(req, res, route, 500, responseHeaders(req, route), httpErrorBody(RpcCode.InternalError, message));
  };

  const answer = (req: IncomingMessage, res: ServerResponse, route: Route, outcome: DispatchOutcome) => {
    if (outcome.status === 204) send(req, res, route, 204, responseHeaders(req, route), undefined);
    else send(req, res, route, outcome.status, responseHeaders(req, route), outcome.body);
  };

  return (req, res) => {
    if (req.method !== 'POST' || closing()) return false;
    const route = routes.get(req.url);
    if (route === undefined) return false;
    const type = req.headers['content-type'];
    if (type === undefined || !DIRECT_CONTENT_TYPES.has(type.toLowerCase())) return false;
    const length = req.headers['content-length'];
    if (length === undefined || req.headers['transfer-encoding'] !== undefined) return false;
    const bytes = Number(length);
    if (!(bytes >= 1 && bytes <= opts.bodyLimit)) return false;
    if (opts.apiKey !== undefined && !apiKeyMatches(opts.apiKey, presentedKey(req.headers))) return false;

    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // An aborted request never ends, and there is no one to answer (an IncomingMessage emits no
    // 'error' without a listener).
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      let outcome: MaybePromise<DispatchOutcome>;
      try {
        outcome = route.dispatcher.handle(body, req.socket.remoteAddress ?? '');
      } catch (err) {
        failed(req, res, route, err);
        return;
      }
      if (outcome instanceof Promise) {
        outcome.then(
          (settled) => answer(req, res, route, settled),
          (err: unknown) => failed(req, res, route, err),
        );
      } else {
        answer(req, res, route, outcome);
      }
    });
    return true;
  };
}
