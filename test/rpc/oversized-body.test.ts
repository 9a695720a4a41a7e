// Bodies over the limit, over real sockets: the client must be able to read the 413, so the
// listener reads and discards the rest of the body (up to a cap) before it closes the connection.
// Without that, a client still writing when the socket closed got EPIPE or ECONNRESET instead of
// the answer. The paused writes make it certain: the old listener had closed the socket by then.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { RpcCode } from '../../src/rpc/errors.js';
import { defineMethod, MethodRegistry } from '../../src/rpc/registry.js';
import { type Listener, OVERSIZE_DISCARD_FACTOR, startListener } from '../../src/rpc/server.js';
import { silentLogger } from '../helpers/rpc.js';

const MiB = 1024 * 1024;

function listen(bodyLimit: number): Promise<Listener> {
  return startListener({
    kind: 'public',
    host: '127.0.0.1',
    port: 0,
    logger: silentLogger(),
    bodyLimit,
    requestTimeoutMs: 30_000,
    status: () => ({ ok: true }),
    dispatcher: new Dispatcher({
      port: 'public',
      registry: new MethodRegistry().add(
        defineMethod({
          namespace: 'svc',
          name: 'echo',
          summary: 'echo',
          params: [{ name: 'x', schema: z.number() }],
          resultName: 'x',
          result: z.number(),
          handler: (x) => x,
        }),
      ),
      logger: silentLogger(),
      maxBatchSize: 100,
      maxResponseBytes: 1_000_000,
      openRpcInfo: { title: 't', version: '0', description: 'd' },
    }),
  });
}

interface Outcome {
  status?: number;
  body: string;
  /** The client's socket error, if any (EPIPE, ECONNRESET). */
  error?: string;
  /** Bytes of the body the client handed to its socket before it finished or the socket closed. */
  written: number;
}

/**
 * POSTs `size` bytes of body, with a Content-Length unless `chunked`, in 64 KiB writes as a
 * streaming client does. `pauseMs` waits after the first 64 KiB, as a slow client would. Settles
 * once the client has stopped writing (all sent, or the socket closed) and the connection closed.
 */
function postBody(
  url: string,
  size: number,
  opts: { pauseMs?: number; chunked?: boolean; contentType?: string } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '', written: 0 };
    const headers: Record<string, string | number> = {
      'content-type': opts.contentType ?? 'application/json',
    };
    if (!opts.chunked) headers['content-length'] = size;
    const req = httpRequest(url, { method: 'POST', headers, agent: false });
    const failed = (err: NodeJS.ErrnoException) => {
      outcome.error ??= err.code ?? err.message;
    };
    req.on('error', failed);
    const closed = new Promise<void>((r) => req.on('close', r));
    const responded = new Promise<void>((r) => {
      req.on('response', (res) => {
        outcome.status = res.statusCode;
        res.setEncoding('utf8');
        res.on('data', (d: string) => (outcome.body += d));
        res.on('end', r);
        res.on('error', failed);
        res.on('close', r);
      });
      req.on('close', r);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const written = (async () => {
      while (outcome.written < size && !req.destroyed) {
        const n = Math.min(chunk.length, size - outcome.written);
        const ok = req.write(n === chunk.length ? chunk : chunk.subarray(0, n));
        outcome.written += n;
        if (outcome.written === chunk.length && opts.pauseMs) await sleep(opts.pauseMs);
        else if (!ok) await Promise.race([new Promise((r) => req.once('drain', r)), closed]);
      }
      if (!req.destroyed) req.end();
    })();
    void Promise.all([written, responded, closed]).then(() => resolve(outcome));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function assertReadable413(o: Outcome, size: number, limit: number, what: string): void {
  assert.equal(o.error, undefined, `${what}: the client's socket failed with ${o.error}`);
  assert.equal(o.written, size, `${what}: the connection closed while the client was still sending`);
  assert.equal(o.status, 413, what);
  const reply = JSON.parse(o.body) as { jsonrpc: string; id: null; error: { code: number; message: string } };
  assert.equal(reply.jsonrpc, '2.0');
  assert.equal(reply.id, null);
  assert.equal(reply.error.code, RpcCode.LimitExceeded);
  assert.match(reply.error.message, new RegExp(`larger than the limit of ${limit} bytes`));
}

describe('a body over the limit gets a 413 the client can read', () => {
  const limit = 4 * MiB;
  let server: Listener;
  before(async () => {
    server = await listen(limit);
  });
  after(async () => {
    await server.close();
  });

  test('40 bodies of 6 MiB and 20 MiB at once: each a 413 with a JSON-RPC error, no EPIPE or reset', async () => {
    const sizes = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 6 * MiB : 20 * MiB));
    const outcomes = await Promise.all(sizes.map((size) => postBody(server.url, size)));
    const failures = outcomes.filter((o) => o.error !== undefined || o.status !== 413);
    assert.equal(failures.length, 0, `${failures.length} of 40 failed: ${failures.map((o) => o.error)}`);
    for (const [i, o] of outcomes.entries())
      assertReadable413(o, sizes[i]!, limit, `request ${i} (${sizes[i]} bytes)`);
  });

  test('a slow client, a chunked body and a fastify-path content type get their 413 too', async () => {
    const cases: [string, number, Promise<Outcome>][] = [
      ['6 MiB, paused after 64 KiB', 6 * MiB, postBody(server.url, 6 * MiB, { pauseMs: 300 })],
      ['20 MiB, paused after 64 KiB', 20 * MiB, postBody(server.url, 20 * MiB, { pauseMs: 300 })],
      ['6 MiB chunked, paused', 6 * MiB, postBody(server.url, 6 * MiB, { chunked: true, pauseMs: 300 })],
      [
        '6 MiB with a charset, paused',
        6 * MiB,
        postBody(server.url, 6 * MiB, { contentType: 'application/json;charset=utf-8', pauseMs: 300 }),
      ],
    ];
    for (const [what, size, outcome] of cases) assertReadable413(await outcome, size, limit, what);
  });
});

describe('the discard has a cap', () => {
  // A small limit keeps the bodies past the cap small.
  const limit = 16 * 1024;
  const cap = limit * OVERSIZE_DISCARD_FACTOR;
  let server: Listener;
  before(async () => {
    server = await listen(limit);
  });
  after(async () => {
    await server.close();
  });

  test('a body up to the cap is read to its end and answered', async () => {
    assertReadable413(await postBody(server.url, cap, { pauseMs: 100 }), cap, limit, 'a body of the cap');
    assertReadable413(
      await postBody(server.url, cap, { chunked: true, pauseMs: 100 }),
      cap,
      limit,
      'a chunked body of the cap',
    );
  });

  test('a chunked body that goes on past the cap is cut', async () => {
    // A client that would stream 64 MiB: the server closes the connection soon after the cap.
    const o = await postBody(server.url, 64 * MiB, { chunked: true });
    assert.ok(o.written < 8 * MiB, `the client wrote ${o.written} bytes before the cut`);
  });

  test('a Content-Length past the cap is refused without reading the body', async () => {
    const o = await postBody(server.url, 64 * MiB, { pauseMs: 300 });
    assert.ok(o.written < 8 * MiB, `the client wrote ${o.written} bytes before the cut`);
    // The listener still serves other requests.
    assertReadable413(await postBody(server.url, 2 * limit), 2 * limit, limit, 'the next request');
  });
});
