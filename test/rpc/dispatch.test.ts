import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { bigintDec, frHex } from '../../src/core/codecs.js';
import { invalidParams, limitHit, refused, txRejected, unavailable } from '../../src/core/errors.js';
import { Dispatcher, type DispatchOutcome, TokenBucketLimiter } from '../../src/rpc/dispatch.js';
import { defineMethod, MethodRegistry, type PortKind } from '../../src/rpc/registry.js';
import { silentLogger } from '../helpers/rpc.js';

const calls: string[] = [];

function registry(): MethodRegistry {
  return new MethodRegistry().add(
    defineMethod({
      namespace: 'svc',
      name: 'echo',
      summary: 'echo',
      params: [
        { name: 'value', schema: frHex },
        { name: 'count', schema: z.number().int().min(1).max(10), optional: true },
        { name: 'flag', schema: z.boolean(), optional: true },
      ],
      resultName: 'echoed',
      result: z.object({ value: frHex, count: z.number().optional(), flag: z.boolean().optional() }),
      handler: (value, count, flag) => ({ value, count, flag }),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'record',
      summary: 'records that it ran',
      params: [{ name: 'tag', schema: z.string() }],
      resultName: 'void',
      result: z.codec(z.null(), z.void(), { decode: () => undefined, encode: () => null }),
      handler: (tag) => {
        calls.push(tag);
      },
    }),
    defineMethod({
      namespace: 'svc',
      name: 'fail',
      summary: 'throws what it is told',
      params: [{ name: 'kind', schema: z.string() }],
      resultName: 'never',
      result: z.null(),
      handler: (kind) => {
        switch (kind) {
          case 'refused':
            throw refused('no, because of state');
          case 'unavailable':
            throw unavailable('P2P is disabled');
          case 'tx':
            throw txRejected(['Incorrect L1 chain id', 'Invalid proof']);
          case 'limit':
            throw limitHit('too much');
          case 'params':
            throw invalidParams('leaf index beyond the tree');
          default:
            throw new Error('boom: secret detail');
        }
      },
    }),
    defineMethod({
      namespace: 'svc',
      name: 'badResult',
      summary: 'returns something its schema rejects',
      params: [],
      resultName: 'n',
      result: bigintDec,
      handler: () => 'not a bigint' as unknown as bigint,
    }),
    defineMethod({
      namespace: 'svc',
      name: 'maybe',
      summary: 'returns nothing',
      params: [],
      resultName: 'n',
      result: bigintDec.optional(),
      handler: () => undefined,
    }),
    defineMethod({
      namespace: 'svc',
      name: 'big',
      summary: 'a large result',
      params: [{ name: 'size', schema: z.number().int() }],
      resultName: 'text',
      result: z.string(),
      handler: (size) => 'x'.repeat(size),
    }),
    defineMethod({
      namespace: 'svcAdmin',
      name: 'secret',
      summary: 'admin only',
      params: [],
      resultName: 'ok',
      result: z.boolean(),
      handler: () => true,
    }),
  );
}

function dispatcher(
  opts: { port?: PortKind; maxBatchSize?: number; maxResponseBytes?: number; rate?: number } = {},
) {
  return new Dispatcher({
    port: opts.port ?? 'public',
    registry: registry(),
    logger: silentLogger(),
    maxBatchSize: opts.maxBatchSize ?? 100,
    maxResponseBytes: opts.maxResponseBytes ?? 1_000_000,
    openRpcInfo: { title: 't', version: '0', description: 'd' },
    ...(opts.rate ? { rateLimiter: new TokenBucketLimiter(opts.rate) } : {}),
  });
}

function json(outcome: DispatchOutcome): any {
  assert.equal(outcome.status, 200);
  return JSON.parse((outcome as { body: string }).body);
}

const req = (method: string, params?: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

describe('JSON-RPC dispatch', () => {
  test('a valid call returns the encoded result and echoes the id', async () => {
    const d = dispatcher();
    const r = json(await d.handle(JSON.stringify(req('svc_echo', ['0xAB', 3])), 'c'));
    assert.deepEqual(r, {
      jsonrpc: '2.0',
      id: 1,
      result: { value: `0x${'0'.repeat(62)}ab`, count: 3 },
    });
  });

  test('ids are echoed as given: number, string and null', async () => {
    const d = dispatcher();
    for (const id of [7, 'abc', null, 0, -1.5]) {
      const r = json(await d.handle(JSON.stringify(req('svc_maybe', [], id)), 'c'));
      assert.equal(r.id, id);
      assert.equal(r.result, null);
    }
  });

  test('-32700 when the body is not JSON, with id null', async () => {
    const r = json(await dispatcher().handle('{"jsonrpc": "2.0", "method"', 'c'));
    assert.equal(r.error.code, -32700);
    assert.equal(r.id, null);
    const empty = json(await dispatcher().handle('', 'c'));
    assert.equal(empty.error.code, -32700);
  });

  test('-32600 for a non-object, a wrong jsonrpc, a non-string method, a bad id', async () => {
    const d = dispatcher();
    for (const body of [
      '42',
      '"svc_echo"',
      'null',
      'true',
      JSON.stringify({ jsonrpc: '1.0', id: 4, method: 'svc_maybe' }),
      JSON.stringify({ id: 4, method: 'svc_maybe' }),
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 12 }),
      JSON.stringify({ jsonrpc: '2.0', id: 4 }),
      JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'svc_maybe' }),
      JSON.stringify({ jsonrpc: '2.0', id: [1], method: 'svc_maybe' }),
    ]) {
      const r = json(await d.handle(body, 'c'));
      assert.equal(r.error.code, -32600, body);
    }
    const wrongVersion = json(
      await d.handle(JSON.stringify({ jsonrpc: '1.0', id: 4, method: 'svc_maybe' }), 'c'),
    );
    assert.equal(wrongVersion.id, 4);
  });

  test('-32601 for an unknown method and for a method of the other port', async () => {
    const pub = json(await dispatcher().handle(JSON.stringify(req('svc_nope')), 'c'));
    assert.equal(pub.error.code, -32601);
    assert.match(pub.error.message, /svc_nope/);
    const adminOnPublic = json(await dispatcher().handle(JSON.stringify(req('svcAdmin_secret')), 'c'));
    assert.equal(adminOnPublic.error.code, -32601);
    assert.match(adminOnPublic.error.message, /admin port/);
    const publicOnAdmin = json(
      await dispatcher({ port: 'admin' }).handle(JSON.stringify(req('svc_maybe')), 'c'),
    );
    assert.equal(publicOnAdmin.error.code, -32601);
    const adminOnAdmin = json(
      await dispatcher({ port: 'admin' }).handle(JSON.stringify(req('svcAdmin_secret')), 'c'),
    );
    assert.equal(adminOnAdmin.result, true);
  });

  test('-32602 with error.data.issues for every kind of bad params', async () => {
    const d = dispatcher();
    const cases: [unknown, RegExp][] = [
      [{ value: '0x1' }, /params must be an array/],
      [['0x1', 1, true, 'extra'], /at most 3 params, got 4/],
      [[], /missing required param value/],
      [['12'], /0x followed by 1 to 64 hex digits/],
      [[`0x${'f'.repeat(64)}`], /modulus/],
      [['0x1', 11], /<=10/],
      [['0x1', 1.5], /int/i],
      [['0x1', 'two'], /number/],
    ];
    for (const [params, pattern] of cases) {
      const r = json(await d.handle(JSON.stringify(req('svc_echo', params)), 'c'));
      assert.equal(r.error.code, -32602, JSON.stringify(params));
      assert.ok(Array.isArray(r.error.data.issues) && r.error.data.issues.length > 0);
      for (const issue of r.error.data.issues) {
        assert.equal(typeof issue.path, 'string');
        assert.equal(typeof issue.message, 'string');
      }
      assert.match(r.error.message, pattern, JSON.stringify(r.error));
    }
    const count = json(await d.handle(JSON.stringify(req('svc_echo', ['0x1', 11])), 'c'));
    assert.equal(count.error.data.issues[0].path, 'count');
  });

  test('absent params mean [], missing trailing optionals and null optionals are omitted', async () => {
    const d = dispatcher();
    assert.equal(json(await d.handle(JSON.stringify(req('svc_maybe')), 'c')).result, null);
    const nulls = json(await d.handle(JSON.stringify(req('svc_echo', ['0x1', null, true])), 'c'));
    assert.deepEqual(nulls.result, { value: `0x${'0'.repeat(63)}1`, flag: true });
    const nullRequired = json(await d.handle(JSON.stringify(req('svc_echo', [null])), 'c'));
    assert.equal(nullRequired.error.code, -32602);
  });

  test('node errors map to their codes; data is carried', async () => {
    const d = dispatcher();
    const codes: Record<string, number> = {
      refused: -32000,
      unavailable: -32002,
      tx: -32003,
      limit: -32005,
      params: -32602,
    };
    for (const [kind, code] of Object.entries(codes)) {
      const r = json(await d.handle(JSON.stringify(req('svc_fail', [kind])), 'c'));
      assert.equal(r.error.code, code, kind);
    }
    const tx = json(await d.handle(JSON.stringify(req('svc_fail', ['tx'])), 'c'));
    assert.deepEqual(tx.error.data.reasons, ['Incorrect L1 chain id', 'Invalid proof']);
  });

  test('-32603 for an unexpected failure: a correlation id, no internals leaked', async () => {
    const d = dispatcher();
    const r = json(await d.handle(JSON.stringify(req('svc_fail', ['other'])), 'c'));
    assert.equal(r.error.code, -32603);
    assert.match(r.error.data.id, /^[0-9a-f-]{36}$/);
    assert.doesNotMatch(r.error.message, /secret detail/);
    const bad = json(await d.handle(JSON.stringify(req('svc_badResult')), 'c'));
    assert.equal(bad.error.code, -32603);
  });

  test('a notification runs and gets no response (HTTP 204)', async () => {
    const d = dispatcher();
    const outcome = await d.handle(
      JSON.stringify({ jsonrpc: '2.0', method: 'svc_record', params: ['n1'] }),
      'c',
    );
    assert.equal(outcome.status, 204);
    assert.ok(calls.includes('n1'));
    const failing = await d.handle(JSON.stringify({ jsonrpc: '2.0', method: 'svc_nope' }), 'c');
    assert.equal(failing.status, 204);
  });

  test('batches: each element independently, notifications omitted, order kept', async () => {
    const d = dispatcher();
    const r = json(
      await d.handle(
        JSON.stringify([
          req('svc_echo', ['0x2'], 'a'),
          { jsonrpc: '2.0', method: 'svc_record', params: ['n2'] },
          req('svc_nope', [], 'b'),
          42,
          req('svc_echo', [{}], 'c'),
        ]),
        'c',
      ),
    );
    assert.equal(r.length, 4);
    assert.equal(r[0].id, 'a');
    assert.ok(r[0].result);
    assert.equal(r[1].error.code, -32601);
    assert.equal(r[2].error.code, -32600);
    assert.equal(r[2].id, null);
    assert.equal(r[3].error.code, -32602);
    assert.ok(calls.includes('n2'));
  });

  test('a batch of only notifications gets HTTP 204', async () => {
    const outcome = await dispatcher().handle(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'svc_record', params: ['n3'] },
        { jsonrpc: '2.0', method: 'svc_record', params: ['n4'] },
      ]),
      'c',
    );
    assert.equal(outcome.status, 204);
    assert.ok(calls.includes('n3') && calls.includes('n4'));
  });

  test('-32600 for an empty batch and for a batch over the size limit', async () => {
    const empty = json(await dispatcher().handle('[]', 'c'));
    assert.equal(empty.error.code, -32600);
    const d = dispatcher({ maxBatchSize: 3 });
    const three = json(await d.handle(JSON.stringify([1, 2, 3].map((i) => req('svc_maybe', [], i))), 'c'));
    assert.equal(three.length, 3);
    const four = json(await d.handle(JSON.stringify([1, 2, 3, 4].map((i) => req('svc_maybe', [], i))), 'c'));
    assert.equal(four.error.code, -32600);
    assert.match(four.error.message, /maximum allowed size of 3/);
  });

  test('-32005 when a response is larger than the limit', async () => {
    const d = dispatcher({ maxResponseBytes: 2000 });
    const ok = json(await d.handle(JSON.stringify(req('svc_big', [100])), 'c'));
    assert.equal(ok.result.length, 100);
    const tooBig = json(await d.handle(JSON.stringify(req('svc_big', [5000])), 'c'));
    assert.equal(tooBig.error.code, -32005);
    assert.match(tooBig.error.message, /limit of 2000 bytes/);
    const batch = json(await d.handle(JSON.stringify([1, 2, 3].map((i) => req('svc_big', [900], i))), 'c'));
    assert.deepEqual(
      batch.map((r: { error: { code: number } }) => r.error.code),
      [-32005, -32005, -32005],
    );
  });

  test('-32005 when a client exceeds the rate limit; other clients are unaffected', async () => {
    const d = dispatcher({ rate: 3 });
    const codes: (number | undefined)[] = [];
    for (let i = 0; i < 5; i++)
      codes.push(json(await d.handle(JSON.stringify(req('svc_maybe')), 'a')).error?.code);
    assert.deepEqual(codes.slice(0, 3), [undefined, undefined, undefined]);
    assert.equal(codes[4], -32005);
    assert.equal(json(await d.handle(JSON.stringify(req('svc_maybe')), 'b')).error, undefined);
  });

  test('rpc.discover answers on both ports with that port’s methods', async () => {
    const pub = json(await dispatcher().handle(JSON.stringify(req('rpc.discover')), 'c'));
    const names = pub.result.methods.map((m: { name: string }) => m.name);
    assert.ok(names.includes('svc_echo'));
    assert.ok(!names.includes('svcAdmin_secret'));
    const admin = json(await dispatcher({ port: 'admin' }).handle(JSON.stringify(req('rpc.discover')), 'c'));
    assert.deepEqual(
      admin.result.methods.map((m: { name: string }) => m.name),
      ['svcAdmin_secret'],
    );
    const withParams = json(await dispatcher().handle(JSON.stringify(req('rpc.discover', [1])), 'c'));
    assert.equal(withParams.error.code, -32602);
  });
});

describe('token bucket', () => {
  test('refills over time', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(2, () => now);
    assert.equal(limiter.take('x'), true);
    assert.equal(limiter.take('x'), true);
    assert.equal(limiter.take('x'), false);
    now = 500;
    assert.equal(limiter.take('x'), true);
    assert.equal(limiter.take('x'), false);
  });
});
