// The errors the OpenRPC document lists for a method: its declared ones as each face answers them,
// then the transport's, once each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uint } from '../../src/core/codecs.js';
import { CAIRN_CONVENTIONS, REFERENCE_CONVENTIONS } from '../../src/rpc/conventions.js';
import { errorsOf } from '../../src/rpc/openrpc.js';
import { defineMethod } from '../../src/rpc/registry.js';

const declared = [
  { code: -32000, message: 'block … is not synced yet' },
  { code: -32602, message: 'leaf index … is beyond the tree' },
  { code: -32000, message: 'block … is not synced yet' },
];
const method = (params: 0 | 1) =>
  defineMethod({
    namespace: 'svc',
    name: 'm',
    summary: 'm',
    params: params === 1 ? [{ name: 'n', schema: uint }] : [],
    resultName: 'r',
    result: uint,
    errors: declared,
    handler: () => 1,
  });

test("cairn's public port: the declared errors as thrown, then invalid params, rate and size limits, internal", () => {
  assert.deepEqual(errorsOf(method(1), { port: 'public', conventions: CAIRN_CONVENTIONS }), [
    { code: -32000, message: 'block … is not synced yet' },
    { code: -32602, message: 'leaf index … is beyond the tree' },
    { code: -32602, message: 'Invalid params: <n>: …' },
    { code: -32005, message: 'Too many requests: the limit is … requests per second' },
    { code: -32005, message: 'Response too large: … bytes exceeds the limit of … bytes' },
    { code: -32603, message: 'Internal error' },
  ]);
});

test('the admin port names its API key; a method without params cannot have invalid ones', () => {
  const errors = errorsOf(method(0), { port: 'admin', conventions: CAIRN_CONVENTIONS });
  assert.ok(errors.some((e) => e.message === 'Unauthorized: invalid or missing API key'));
  assert.ok(!errors.some((e) => e.message.startsWith('Invalid params')));
  assert.ok(!errors.some((e) => e.message.startsWith('Too many requests')));
});

test("/aztec answers a handler's error as -32702 and refused params as -32701, as the reference does", () => {
  const errors = errorsOf(method(1), { port: 'public', conventions: REFERENCE_CONVENTIONS });
  assert.deepEqual(errors.slice(0, 3), [
    { code: -32702, message: 'block … is not synced yet' },
    { code: -32702, message: 'leaf index … is beyond the tree' },
    { code: -32701, message: '… (<n>)' },
  ]);
});
