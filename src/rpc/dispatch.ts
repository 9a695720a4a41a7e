// JSON-RPC 2.0 dispatch, independent of HTTP: parses a body, validates each request,
// runs single calls, batches and notifications, and maps every failure to the error
// codes of docs/rpc.md. Returns the serialized response so size limits can be applied.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CallStats } from './call-stats.js';
import { CAIRN_CONVENTIONS, type WireConventions } from './conventions.js';
import { errorObjectOf, RpcCode, type RpcErrorObject } from './errors.js';
import { buildOpenRpcDocument, type OpenRpcInfo } from './openrpc.js';
import {
  decodeParams,
  encodeResult,
  type MethodRegistry,
  PORT_NAMESPACES,
  type PortKind,
  type RpcMethod,
} from './registry.js';

export interface RateLimiter {
  /** Takes one request from the client's allowance; false when none is left. */
  take(client: string): boolean;
  readonly perSecond: number;
}

export interface DispatcherOptions {
  port: PortKind;
  registry: MethodRegistry;
  logger: Logger;
  maxBatchSize: number;
  maxResponseBytes: number;
  openRpcInfo: OpenRpcInfo;
  rateLimiter?: RateLimiter;
  /** Counts and times every call per method (the admin port's /metrics reads them). */
  stats?: CallStats;
  /** How refused calls and empty answers look on this face; cairn's own by default. */
  conventions?: WireConventions;
}

export type DispatchOutcome = { status: 200 | 400; body: string } | { status: 204 };
export type MaybePromise<T> = T | Promise<T>;

type Id = string | number | null;
interface Response {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: RpcErrorObject;
}

const errorResponse = (id: Id, error: RpcErrorObject): Response => ({ jsonrpc: '2.0', id, error });

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class Dispatcher {
  private discoverDocument: Record<string, unknown> | undefined;
  /** The namespaces served on this port. */
  private readonly namespaces: ReadonlySet<string>;
  private readonly conventions: WireConventions;

  constructor(private readonly opts: DispatcherOptions) {
    this.namespaces = new Set(PORT_NAMESPACES[opts.port]);
    this.conventions = opts.conventions ?? CAIRN_CONVENTIONS;
  }

  /**
   * Answers one HTTP body. The answer is immediate when every call in it is (no promise is made
   * on the way); a caller awaits it either way.
   */
  handle(body: Buffer | string, client: string): MaybePromise<DispatchOutcome> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      return this.single(
        errorResponse(null, { code: RpcCode.ParseError, message: `Parse error: ${detail}` }),
      );
    }

    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return this.single(errorResponse(null, this.conventions.emptyBatch));
      if (parsed.length > this.opts.maxBatchSize) {
        return this.single(
          errorResponse(null, {
            code: RpcCode.InvalidRequest,
            message: `Batch request exceeds maximum allowed size of ${this.opts.maxBatchSize}`,
          }),
        );
      }
      // Like a single call, a batch whose calls all answer at once costs no promise.
      const answers = parsed.map((req) => this.call(req, client));
      const finish = (all: (Response | undefined)[]): DispatchOutcome => {
        const responses = all.filter((r): r is Response => r !== undefined);
        return responses.length === 0 ? { status: 204 } : this.batch(responses);
      };
      return answers.some((a) => a instanceof Promise)
        ? Promise.all(answers).then(finish)
        : finish(answers as (Response | undefined)[]);
    }

    const response = this.call(parsed, client);
    return response instanceof Promise ? response.then((r) => this.outcome(r)) : this.outcome(response);
  }

  private outcome(response: Response | undefined): DispatchOutcome {
    return response === undefined ? { status: 204 } : this.single(response);
  }

  /**
   * Runs one request object; undefined for a notification. Synchronous up to the handler: a call
   * whose handler answers at once costs no promise (most calls are cheap reads).
   */
  private call(req: unknown, client: string): MaybePromise<Response | undefined> {
    if (!isPlainObject(req)) {
      return errorResponse(null, {
        code: RpcCode.InvalidRequest,
        message: 'Invalid Request: expected a request object',
      });
    }
    const hasId = 'id' in req;
    const rawId = req.id;
    const validId = rawId === null || typeof rawId === 'string' || typeof rawId === 'number';
    const id: Id = hasId && validId ? (rawId as Id) : null;
    if (hasId && !validId) {
      return errorResponse(null, {
        code: RpcCode.InvalidRequest,
        message: 'Invalid Request: id must be a number, a string or null',
      });
    }
    if (req.jsonrpc !== '2.0') {
      return errorResponse(id, {
        code: RpcCode.InvalidRequest,
        message: 'Invalid Request: jsonrpc must be "2.0"',
      });
    }
    if (typeof req.method !== 'string') {
      return errorResponse(id, {
        code: RpcCode.InvalidRequest,
        message: 'Invalid Request: method must be a string',
      });
    }
    const methodName = req.method;
    const isNotification = !hasId;

    if (this.opts.rateLimiter && !this.opts.rateLimiter.take(client)) {
      if (isNotification) return undefined;
      return errorResponse(id, {
        code: RpcCode.LimitExceeded,
        message: `Too many requests: the limit is ${this.opts.rateLimiter.perSecond} requests per second`,
      });
    }

    const { stats } = this.opts;
    const debug = this.opts.logger.isLevelEnabled('debug');
    if (!debug && stats === undefined) {
      const response = this.run(methodName, req.params, id);
      if (!isNotification) return response;
      return response instanceof Promise ? response.then(() => undefined) : undefined;
    }
    const started = performance.now();
    const finish = (response: Response): Response | undefined => {
      const ms = performance.now() - started;
      // Names not served here are counted together: a client must not be able to grow the
      // metrics. (run() already looked the name up; its answer says whether it was found.)
      const served = response.error?.code !== RpcCode.MethodNotFound;
      stats?.record(served ? methodName : '(unknown)', ms, response.error !== undefined);
      if (debug)
        this.opts.logger.debug(
          { method: methodName, id, ms: Number(ms.toFixed(2)), code: response.error?.code },
          'rpc call',
        );
      return isNotification ? undefined : response;
    };
    const response = this.run(methodName, req.params, id);
    return response instanceof Promise ? response.then(finish) : finish(response);
  }

  private run(methodName: string, params: unknown, id: Id): MaybePromise<Response> {
    if (methodName === 'rpc.discover') {
      if (params !== undefined && !(Array.isArray(params) && params.length === 0)) {
        return errorResponse(id, {
          code: RpcCode.InvalidParams,
          message: 'Invalid params: rpc.discover takes no params',
          data: { issues: [{ path: 'params', message: 'expected no params' }] },
        });
      }
      return { jsonrpc: '2.0', id, result: this.discover() };
    }

    const method = this.opts.registry.get(methodName);
    if (!method || !this.namespaces.has(method.namespace)) {
      const elsewhere = method
        ? ` (it is served on the ${this.opts.port === 'public' ? 'admin' : 'public'} port)`
        : '';
      return errorResponse(id, this.conventions.methodNotFound(methodName, elsewhere));
    }

    const decoded = decodeParams(method, params);
    if (!decoded.ok) return errorResponse(id, this.conventions.invalidParams(decoded.issues));

    let value: unknown;
    try {
      value = method.handler(...decoded.args);
    } catch (err) {
      return this.failed(err, id, methodName);
    }
    if (isThenable(value)) {
      return Promise.resolve(value).then(
        (settled) => this.succeeded(method, settled, id),
        (err: unknown) => this.failed(err, id, methodName),
      );
    }
    return this.succeeded(method, value, id);
  }

  private failed(err: unknown, id: Id, methodName: string): Response {
    const mapped = errorObjectOf(err);
    if (mapped) return errorResponse(id, this.conventions.nodeError(mapped));
    return errorResponse(id, this.internal(err, methodName));
  }

  private succeeded(method: RpcMethod, value: unknown, id: Id): Response {
    const methodName = method.fullName;
    const encoded = encodeResult(method, value);
    if (!encoded.ok) {
      return errorResponse(
        id,
        this.internal(new Error(`result does not match its schema: ${encoded.error}`), methodName),
      );
    }
    if (value === undefined && this.conventions.omitEmptyResult) return { jsonrpc: '2.0', id };
    return { jsonrpc: '2.0', id, result: encoded.json };
  }

  private internal(err: unknown, method: string): RpcErrorObject {
    const correlationId = randomUUID();
    this.opts.logger.error({ err, method, correlationId }, 'internal error while handling a request');
    return { code: RpcCode.InternalError, message: 'Internal error', data: { id: correlationId } };
  }

  private discover(): Record<string, unknown> {
    this.discoverDocument ??= buildOpenRpcDocument(
      this.opts.registry.forPort(this.opts.port),
      this.opts.openRpcInfo,
      { port: this.opts.port, conventions: this.conventions },
    );
    return this.discoverDocument;
  }

  private serialize(response: Response): string {
    let text: string;
    try {
      text = JSON.stringify(response);
    } catch (err) {
      return JSON.stringify(errorResponse(response.id, this.internal(err, 'serialize')));
    }
    const bytes = Buffer.byteLength(text);
    if (bytes > this.opts.maxResponseBytes) {
      return JSON.stringify(
        errorResponse(response.id, {
          code: RpcCode.LimitExceeded,
          message: `Response too large: ${bytes} bytes exceeds the limit of ${this.opts.maxResponseBytes} bytes`,
        }),
      );
    }
    return text;
  }

  private single(response: Response): DispatchOutcome {
    const status = response.error === undefined ? 200 : this.conventions.singleErrorStatus;
    return { status, body: this.serialize(response) };
  }

  private batch(responses: Response[]): DispatchOutcome {
    const parts = responses.map((r) => this.serialize(r));
    const total = parts.reduce((n, p) => n + Buffer.byteLength(p), 2 + parts.length);
    if (total > this.opts.maxResponseBytes) {
      const message = `Response too large: the batch response of ${total} bytes exceeds the limit of ${this.opts.maxResponseBytes} bytes`;
      return {
        status: 200,
        body: JSON.stringify(
          responses.map((r) => errorResponse(r.id, { code: RpcCode.LimitExceeded, message })),
        ),
      };
    }
    return { status: 200, body: `[${parts.join(',')}]` };
  }
}

/** A per-client token bucket: `perSecond` requests per second, bursts up to the same number. */
export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(client: string): boolean {
    const t = this.now();
    let bucket = this.buckets.get(client);
    if (!bucket) {
      if (this.buckets.size >= 10_000) this.sweep(t);
      bucket = { tokens: this.perSecond, at: t };
      this.buckets.set(client, bucket);
    } else {
      bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((t - bucket.at) / 1000) * this.perSecond);
      bucket.at = t;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets clients whose buckets have refilled, so the map stays bounded. */
  private sweep(t: number): void {
    for (const [client, bucket] of this.buckets) {
      if (bucket.tokens + ((t - bucket.at) / 1000) * this.perSecond >= this.perSecond)
        this.buckets.delete(client);
    }
  }
}
