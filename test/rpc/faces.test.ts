// A listener's faces: another JSON-RPC API at a path of its own (the reference's published API at
// /aztec), with its own registry, headers and conventions (errors as HTTP 400 with the reference's
// codes, empty answers without a result key), on both the direct path and fastify's route, while
// POST / answers exactly as before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { refused } from '../../src/core/errors.js';
import { REFERENCE_CONVENTIONS } from '../../src/rpc/conventions.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { defineMethod, MethodRegistry } from '../../src/rpc/registry.js';
import { type Listener, startListener } from '../../src/rpc/server.js';
import { post, silentLogger } from '../helpers/rpc.js';

const voidResult = z.codec(z.null(), z.void(), { decode: () => undefined, encode: () => null });
const seen: string[] = [];

const own = new MethodRegistry().add(
  defineMethod({
    namespace: 'node',
    name: 'getThing',
    summary: "cairn's node_getThing",
    params: [],
    resultName: 'thing',
    result: z.string(),
    handler: () => 'cairn',
  }),
);
const reference = new MethodRegistry().add(
  defineMethod({
    namespace: 'node',
    name: 'getThing',
    summary: "the reference's node_getThing: a number, or nothing past 10",
    params: [{ name: 'n', schema: z.number().int().min(0) }],
    resultName: 'thing',
    result: z.number().optional(),
    handler: (n) => (n > 10 ? undefined : n * 2),
  }),
  defineMethod({
    namespace: 'node',
    name: 'remember',
    summary: 'a void method',
    params: [{ name: 'tag', schema: z.string() }],
    resultName: 'nothing',
    result: voidResult,
    handler: (tag) => {
      seen.push(tag);
    },
  }),
  defineMethod({
    namespace: 'node',
    name: 'refuse',
    summary: 'always refuses',
    params: [],
    resultName: 'nothing',
    result: voidResult,
    handler: () => {
      throw refused('not now');
    },
  }),
);

const dispatcher = (registry: MethodRegistry, conventions?: typeof REFERENCE_CONVENTIONS) =>
  new Dispatcher({
    port: 'public',
    registry,
    logger: silentLogger(),
    maxBatchSize: 100,
    maxResponseBytes: 1_000_000,
    openRpcInfo: { title: 't', version: '0', description: 'd' },
    ...(conventions ? { conventions } : {}),
  });

const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('a face at /aztec beside POST /', () => {
  let listener: Listener;
  let aztec: string;
  before(async () => {
    listener = await startListener({
      kind: 'public',
      host: '127.0.0.1',
      port: 0,
      logger: silentLogger(),
      bodyLimit: 4096,
      requestTimeoutMs: 10_000,
      headers: { 'x-cairn-node-version': '9.9.9' },
      status: () => ({ ok: true }),
      dispatcher: dispatcher(own),
      faces: [
        {
          path: '/aztec',
          dispatcher: dispatcher(reference, REFERENCE_CONVENTIONS),
          headers: { 'x-aztec-packageversion': '4.1.2' },
        },
      ],
    });
    aztec = `${listener.url}/aztec`;
  });
  after(() => listener.close());

  // Both HTTP paths of the listener: the direct one (application/json with a length) and fastify's.
  const contentTypes = ['application/json', 'application/json;charset=utf-8'];

  test('the same method name answers from each API its own way', async () => {
    for (const type of contentTypes) {
      const mine = await post(listener.url, call('node_getThing'), { 'content-type': type });
      assert.equal(JSON.parse(mine.text).result, 'cairn');
      assert.equal(mine.headers.get('x-aztec-packageversion'), null);
      const theirs = await post(aztec, call('node_getThing', [4]), { 'content-type': type });
      assert.equal(theirs.status, 200);
      assert.deepEqual(JSON.parse(theirs.text), { jsonrpc: '2.0', id: 1, result: 8 });
      assert.equal(theirs.headers.get('x-aztec-packageversion'), '4.1.2');
      assert.equal(theirs.headers.get('x-cairn-node-version'), '9.9.9');
    }
  });

  test('nothing found and void answers have no result key; a batch is answered with an array', async () => {
    for (const type of contentTypes) {
      const none = await post(aztec, call('node_getThing', [11]), { 'content-type': type });
      assert.deepEqual(JSON.parse(none.text), { jsonrpc: '2.0', id: 1 });
      const batch = await post(aztec, [call('node_remember', ['a'], 1), call('node_getThing', [1], 2)], {
        'content-type': type,
      });
      assert.deepEqual(JSON.parse(batch.text), [
        { jsonrpc: '2.0', id: 1 },
        { jsonrpc: '2.0', id: 2, result: 2 },
      ]);
    }
    assert.deepEqual(seen, ['a', 'a']);
  });

  test("errors: HTTP 400 with the reference's codes for a single call, 200 inside a batch", async () => {
    for (const type of contentTypes) {
      const missing = await post(aztec, call('node_x'), { 'content-type': type });
      assert.equal(missing.status, 400);
      assert.deepEqual(JSON.parse(missing.text).error, { code: -32601, message: 'Method not found: node_x' });
      const bad = await post(aztec, call('node_getThing', ['four']), { 'content-type': type });
      assert.equal(bad.status, 400);
      const badError = JSON.parse(bad.text).error;
      assert.equal(badError.code, -32701);
      assert.match(badError.message, /\(n\)$/);
      const no = await post(aztec, call('node_refuse'), { 'content-type': type });
      assert.equal(no.status, 400);
      assert.deepEqual(JSON.parse(no.text).error, { code: -32702, message: 'not now' });
      const inBatch = await post(aztec, [call('node_x')], { 'content-type': type });
      assert.equal(inBatch.status, 200);
      assert.equal(JSON.parse(inBatch.text)[0].error.code, -32601);
      const empty = await post(aztec, [], { 'content-type': type });
      assert.equal(empty.status, 400);
      assert.equal(JSON.parse(empty.text).error.code, -32600);
    }
  });

  test("POST / keeps cairn's conventions: errors at HTTP 200 with cairn's codes", async () => {
    const bad = await post(listener.url, call('node_getThing', [1]));
    assert.equal(bad.status, 200);
    assert.equal(JSON.parse(bad.text).error.code, -32602);
    const missing = await post(listener.url, call('node_remember', ['b']));
    assert.equal(missing.status, 200);
    assert.equal(JSON.parse(missing.text).error.code, -32601);
  });

  test('other HTTP methods at the face are refused with 405', async () => {
    const res = await fetch(aztec);
    assert.equal(res.status, 405);
    assert.match(res.headers.get('allow') ?? '', /POST/);
  });
});
