import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { defineMethod, MethodRegistry, type PortKind } from '../../src/rpc/registry.js';
import { apiKeyMatches, type Listener, startListener } from '../../src/rpc/server.js';
import { post, silentLogger } from '../helpers/rpc.js';

const API_KEY = 'a-very-secret-admin-key';
let release: (() => void) | undefined;

const registry = new MethodRegistry().add(
  defineMethod({
    namespace: 'svc',
    name: 'text',
    summary: 'a text of the given length',
    params: [{ name: 'size', schema: z.number().int().min(0) }],
    resultName: 'text',
    result: z.string(),
    handler: (size) => 'y'.repeat(size),
  }),
  defineMethod({
    namespace: 'svc',
    name: 'slow',
    summary: 'answers once released',
    params: [],
    resultName: 'done',
    result: z.string(),
    handler: () =>
      new Promise<string>((resolve) => {
        release = () => resolve('finished');
      }),
  }),
  defineMethod({
    namespace: 'svcAdmin',
    name: 'ping',
    summary: 'admin ping',
    params: [],
    resultName: 'pong',
    result: z.string(),
    handler: () => 'pong',
  }),
);

function listen(kind: PortKind, extra: { apiKey?: string; corsOrigins?: string[] } = {}): Promise<Listener> {
  return startListener({
    kind,
    host: '127.0.0.1',
    port: 0,
    logger: silentLogger(),
    bodyLimit: 4096,
    requestTimeoutMs: 10_000,
    headers: { 'x-cairn-node-version': '9.9.9' },
    status: () => ({ ok: true, status: 'running' }),
    dispatcher: new Dispatcher({
      port: kind,
      registry,
      logger: silentLogger(),
      maxBatchSize: 100,
      maxResponseBytes: 1_000_000,
      openRpcInfo: { title: 't', version: '0', description: 'd' },
    }),
    ...extra,
  });
}

const body = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params });

describe('HTTP transport', () => {
  let pub: Listener;
  let admin: Listener;
  let restricted: Listener;
  before(async () => {
    pub = await listen('public');
    admin = await listen('admin', { apiKey: API_KEY });
    restricted = await listen('public', { corsOrigins: ['https://wallet.example'] });
  });
  after(async () => {
    await Promise.all([pub.close(), admin.close(), restricted.close()]);
  });

  test('POST / with application/json (charset allowed) answers HTTP 200', async () => {
    for (const ct of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await post(pub.url, body('svc_text', [3]), { 'content-type': ct });
      assert.equal(res.status, 200, ct);
      assert.equal(JSON.parse(res.text).result, 'yyy');
      assert.equal(res.headers.get('x-cairn-node-version'), '9.9.9');
    }
  });

  test('errors are HTTP 200 too', async () => {
    const res = await post(pub.url, body('svc_missing'));
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.text).error.code, -32601);
  });

  test('HTTP 415 for other or missing content types', async () => {
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/json-rpc']) {
      const res = await post(pub.url, body('svc_text', [1]), { 'content-type': ct });
      assert.equal(res.status, 415, ct);
    }
    const none = await fetch(pub.url, { method: 'POST', body: new Uint8Array([123, 125]) });
    assert.equal(none.status, 415);
    const noneEmpty = await fetch(pub.url, { method: 'POST' });
    assert.equal(noneEmpty.status, 415);
  });

  test('HTTP 405 for other methods on / (GET is the status page), with an Allow header', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(pub.url, { method });
      assert.equal(res.status, 405, method);
      assert.match(res.headers.get('allow') ?? '', /POST/);
    }
    const adminOptions = await fetch(admin.url, { method: 'OPTIONS', headers: { 'x-api-key': API_KEY } });
    assert.equal(adminOptions.status, 405);
  });

  test('HTTP 413 for a body over the limit', async () => {
    const res = await post(pub.url, body('svc_text', [1]).method.padEnd(5000, ' '));
    assert.equal(res.status, 413);
    assert.match(JSON.parse(res.text).error.message, /4096 bytes/);
  });

  test('GET /status answers health as JSON on both ports, without the API key', async () => {
    for (const url of [pub.url, admin.url]) {
      const res = await fetch(`${url}/status`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { ok: true, status: 'running' });
    }
  });

  test('admin port: HTTP 401 without the right key; x-api-key and Bearer accepted', async () => {
    const none = await post(admin.url, body('svcAdmin_ping'));
    assert.equal(none.status, 401);
    assert.match(JSON.parse(none.text).error.message, /Unauthorized/);
    const wrong = await post(admin.url, body('svcAdmin_ping'), { 'x-api-key': 'wrong-key-wrong-key' });
    assert.equal(wrong.status, 401);
    const prefix = await post(admin.url, body('svcAdmin_ping'), { 'x-api-key': API_KEY.slice(0, -1) });
    assert.equal(prefix.status, 401);
    const viaHeader = await post(admin.url, body('svcAdmin_ping'), { 'x-api-key': API_KEY });
    assert.equal(JSON.parse(viaHeader.text).result, 'pong');
    const viaBearer = await post(admin.url, body('svcAdmin_ping'), { authorization: `Bearer ${API_KEY}` });
    assert.equal(JSON.parse(viaBearer.text).result, 'pong');
    const discover = await post(admin.url, body('rpc.discover'), { 'x-api-key': API_KEY });
    assert.equal(JSON.parse(discover.text).result.methods[0].name, 'svcAdmin_ping');
  });

  test('key comparison hashes both sides, so any length compares safely', () => {
    assert.equal(apiKeyMatches('k'.repeat(20), 'k'.repeat(20)), true);
    assert.equal(apiKeyMatches('k'.repeat(20), 'k'.repeat(21)), false);
    assert.equal(apiKeyMatches('k'.repeat(20), ''), false);
    assert.equal(apiKeyMatches('k'.repeat(20), undefined), false);
  });

  test('CORS on the public port only; preflight answers 204', async () => {
    const res = await post(pub.url, body('svc_text', [1]), { origin: 'https://dapp.example' });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const preflight = await fetch(pub.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
    const adminRes = await post(admin.url, body('svcAdmin_ping'), {
      origin: 'https://dapp.example',
      'x-api-key': API_KEY,
    });
    assert.equal(adminRes.headers.get('access-control-allow-origin'), null);
  });

  test('CORS with an allow-list echoes only listed origins', async () => {
    const listed = await post(restricted.url, body('svc_text', [1]), { origin: 'https://wallet.example' });
    assert.equal(listed.headers.get('access-control-allow-origin'), 'https://wallet.example');
    const other = await post(restricted.url, body('svc_text', [1]), { origin: 'https://evil.example' });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('gzip for larger responses when accepted; plain otherwise', async () => {
    const gz = await rawPost(pub.url, JSON.stringify(body('svc_text', [5000])), {
      'accept-encoding': 'gzip',
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.body.length < 5000);
    const { gunzipSync } = await import('node:zlib');
    assert.equal(JSON.parse(gunzipSync(gz.body).toString()).result.length, 5000);
    const plain = await rawPost(pub.url, JSON.stringify(body('svc_text', [5000])), {});
    assert.equal(plain.headers['content-encoding'], undefined);
    const small = await rawPost(pub.url, JSON.stringify(body('svc_text', [10])), {
      'accept-encoding': 'gzip',
    });
    assert.equal(small.headers['content-encoding'], undefined);
  });

  test('a single notification and a batch of notifications get HTTP 204', async () => {
    const single = await post(pub.url, { jsonrpc: '2.0', method: 'svc_text', params: [1] });
    assert.equal(single.status, 204);
    const batch = await post(pub.url, [
      { jsonrpc: '2.0', method: 'svc_text', params: [1] },
      { jsonrpc: '2.0', method: 'svc_text', params: [2] },
    ]);
    assert.equal(batch.status, 204);
  });

  test('other paths answer 404 with a hint', async () => {
    const res = await post(`${pub.url}/rpc`, body('svc_text', [1]));
    assert.equal(res.status, 404);
    assert.match(JSON.parse(res.text).error.message, /POST \//);
  });
});

// POST / with `application/json` and a Content-Length takes the listener's direct path; the same
// request with a content type fastify accepts but the direct path leaves to it (no space before the
// charset) goes through fastify's route. Both must answer alike.
describe('the direct path answers what the fastify route answers', () => {
  const DIRECT = 'application/json';
  const VIA_FASTIFY = 'application/json;charset=utf-8';

  async function both(url: string, payload: unknown, headers: Record<string, string> = {}) {
    const text = JSON.stringify(payload);
    const direct = await rawPost(url, text, { ...headers, 'content-type': DIRECT });
    const routed = await rawPost(url, text, { ...headers, 'content-type': VIA_FASTIFY });
    const shape = (r: Awaited<ReturnType<typeof rawPost>>) => {
      const { date: _date, ...rest } = r.headers;
      const body = r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;
      return { status: r.status, headers: rest, body: body.toString('utf8') };
    };
    const d = shape(direct);
    assert.deepEqual(d, shape(routed));
    return d;
  }

  let pub: Listener;
  let admin: Listener;
  let restricted: Listener;
  before(async () => {
    pub = await listen('public');
    admin = await listen('admin', { apiKey: API_KEY });
    restricted = await listen('public', { corsOrigins: ['https://wallet.example'] });
  });
  after(async () => {
    await Promise.all([pub.close(), admin.close(), restricted.close()]);
  });

  test('a call, an error, a batch and a notification', async () => {
    const ok = await both(pub.url, body('svc_text', [3]));
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['x-cairn-node-version'], '9.9.9');
    assert.equal(ok.headers['access-control-allow-origin'], '*');
    assert.equal(JSON.parse(ok.body).result, 'yyy');
    await both(pub.url, body('svc_missing'));
    await both(pub.url, body('svc_text', ['three']));
    await both(pub.url, [body('svc_text', [1]), { jsonrpc: '2.0', method: 'svc_text', params: [2] }]);
    assert.equal((await both(pub.url, { jsonrpc: '2.0', method: 'svc_text', params: [1] })).status, 204);
  });

  test('gzip, CORS by origin, and the admin key', async () => {
    const zipped = await both(pub.url, body('svc_text', [5000]), { 'accept-encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    const listed = await both(restricted.url, body('svc_text', [5000]), {
      origin: 'https://wallet.example',
      'accept-encoding': 'gzip',
    });
    assert.equal(listed.headers['access-control-allow-origin'], 'https://wallet.example');
    await both(restricted.url, body('svc_text', [1]), { origin: 'https://evil.example' });
    const ping = await both(admin.url, body('svcAdmin_ping'), { 'x-api-key': API_KEY });
    assert.equal(JSON.parse(ping.body).result, 'pong');
    assert.equal(ping.headers['access-control-allow-origin'], undefined);
    const refused = await both(admin.url, body('svcAdmin_ping'), { 'x-api-key': 'wrong-key-wrong-key' });
    assert.equal(refused.status, 401);
  });

  test('a client that goes away in the middle of its body leaves the listener serving', async () => {
    const { port } = new URL(pub.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"js',
    );
    await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 20));
    const res = await post(pub.url, body('svc_text', [2]));
    assert.equal(JSON.parse(res.text).result, 'yy');
  });

  test('a body at the limit is served; one byte over is HTTP 413', async () => {
    const atLimit = JSON.stringify(body('svc_text', [2])).padEnd(4096, ' ');
    const direct = await rawPost(pub.url, atLimit, {});
    assert.equal(direct.status, 200);
    assert.equal(JSON.parse(direct.body.toString()).result, 'yy');
    const over = await rawPost(pub.url, `${atLimit} `, {});
    assert.equal(over.status, 413);
  });
});

describe('graceful close', () => {
  test('a response finished after close began says Connection: close, on either path', async () => {
    const listener = await listen('public');
    const text = JSON.stringify(body('svc_slow'));
    // The handler's release function once it runs; cleared for the next call.
    const started = async (): Promise<() => void> => {
      while (!release) await new Promise((r) => setTimeout(r, 5));
      const took = release;
      release = undefined;
      return took;
    };
    const direct = rawPost(listener.url, text, {});
    const releaseDirect = await started();
    const routed = rawPost(listener.url, text, { 'content-type': 'application/json;charset=utf-8' });
    const releaseRouted = await started();
    const closed = listener.close();
    await new Promise((r) => setTimeout(r, 50));
    releaseDirect();
    releaseRouted();
    for (const res of [await direct, await routed]) {
      assert.equal(res.status, 200);
      assert.equal(res.headers.connection, 'close');
      assert.equal(JSON.parse(res.body.toString()).result, 'finished');
    }
    await closed;
  });

  test('finishes an in-flight request, then refuses new connections', async () => {
    const listener = await listen('public');
    const inFlight = post(listener.url, body('svc_slow'));
    while (!release) await new Promise((r) => setTimeout(r, 5));
    const closed = listener.close();
    await new Promise((r) => setTimeout(r, 50));
    release();
    const res = await inFlight;
    assert.equal(JSON.parse(res.text).result, 'finished');
    await closed;
    await assert.rejects(post(listener.url, body('svc_text', [1])));
  });
});

function rawPost(
  url: string,
  payload: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
