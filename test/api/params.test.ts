import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import {
  blockParameter,
  blockTagWithoutLatest,
  checkpointParameter,
  checkpointsQuery,
  checkpointTag,
  referenceBlock,
} from '../../src/client/methods/params.js';
import { decodeParams, defineMethod } from '../../src/rpc/registry.js';

const ok = (schema: z.ZodType, value: unknown) => {
  const r = z.safeDecode(schema, value);
  assert.ok(r.success, `${JSON.stringify(value)}: ${r.success ? '' : z.prettifyError(r.error)}`);
  return r.data;
};
const fails = (schema: z.ZodType, value: unknown, pattern?: RegExp) => {
  const method = defineMethod({
    namespace: 'svc',
    name: 't',
    summary: 't',
    params: [{ name: 'p', schema }],
    resultName: 'r',
    result: z.null(),
    handler: () => null,
  });
  const r = decodeParams(method, [value]);
  assert.equal(r.ok, false, JSON.stringify(value));
  if (pattern && !r.ok)
    assert.match(r.issues.map((i) => i.message).join(' | '), pattern, JSON.stringify(value));
};
const H = `0x${'1b'.repeat(32)}`;
const h = BigInt(H);

describe('block parameter', () => {
  test('every form listed in docs/chain.md', () => {
    assert.deepEqual(ok(blockParameter, 7), { kind: 'number', number: 7 });
    assert.deepEqual(ok(blockParameter, 0), { kind: 'number', number: 0 });
    assert.deepEqual(ok(blockParameter, 'latest'), { kind: 'tag', tag: 'proposed' });
    for (const tag of ['proposed', 'checkpointed', 'proven', 'finalized']) {
      assert.deepEqual(ok(blockParameter, tag), { kind: 'tag', tag });
      assert.deepEqual(ok(blockParameter, { tag }), { kind: 'tag', tag });
    }
    assert.deepEqual(ok(blockParameter, H), { kind: 'hash', hash: h });
    assert.deepEqual(ok(blockParameter, { number: 3 }), { kind: 'number', number: 3 });
    assert.deepEqual(ok(blockParameter, { hash: H }), { kind: 'hash', hash: h });
    assert.deepEqual(ok(blockParameter, { archive: H }), { kind: 'archive', archive: h });
    assert.deepEqual(ok(blockParameter, { number: 3, hash: H }), { kind: 'anchored', number: 3, hash: h });
    // Unknown keys are ignored, as in the reference's loose object form.
    assert.deepEqual(ok(blockParameter, { number: 3, note: 'x' }), { kind: 'number', number: 3 });
  });

  test('ambiguous or invalid forms are refused with a clear message', () => {
    fails(blockParameter, { number: 1, archive: H }, /exactly one block/);
    fails(blockParameter, { hash: H, tag: 'proven' }, /exactly one block/);
    fails(blockParameter, {}, /exactly one block/);
    fails(blockParameter, { tag: 'latest' });
    fails(blockParameter, -1);
    fails(blockParameter, 1.5);
    fails(blockParameter, '12', /0x followed by 1 to 64 hex digits/);
    fails(blockParameter, `0x${'ab'.repeat(32)}`, /modulus/);
    fails(blockParameter, 'pending');
    fails(blockParameter, null);
  });

  test('reference blocks take every block parameter form', () => {
    assert.deepEqual(ok(referenceBlock, 4), { kind: 'number', number: 4 });
    assert.deepEqual(ok(referenceBlock, 'latest'), { kind: 'tag', tag: 'proposed' });
    assert.deepEqual(ok(referenceBlock, H), { kind: 'hash', hash: h });
    assert.deepEqual(ok(referenceBlock, 'proven'), { kind: 'tag', tag: 'proven' });
    assert.deepEqual(ok(referenceBlock, { number: 4 }), { kind: 'number', number: 4 });
    assert.deepEqual(ok(referenceBlock, { archive: H }), { kind: 'archive', archive: h });
    assert.deepEqual(ok(referenceBlock, { number: 4, hash: H }), { kind: 'anchored', number: 4, hash: h });
    fails(referenceBlock, 'pending');
    fails(referenceBlock, { number: 4, tag: 'proven' }, /exactly one block/);
  });

  test('tags: latest is not a block tag; proposed is not a checkpoint tag', () => {
    fails(blockTagWithoutLatest, 'latest', /proposed, checkpointed, proven, finalized/);
    assert.equal(ok(checkpointTag, 'proven'), 'proven');
    fails(checkpointTag, 'proposed', /proposed is not a checkpoint tag/);
  });
});

describe('checkpoint parameters', () => {
  test('a number, a tag, {number} or {slot}', () => {
    assert.deepEqual(ok(checkpointParameter, 2), { kind: 'number', number: 2 });
    assert.deepEqual(ok(checkpointParameter, 'finalized'), { kind: 'tag', tag: 'finalized' });
    assert.deepEqual(ok(checkpointParameter, { number: 2 }), { kind: 'number', number: 2 });
    assert.deepEqual(ok(checkpointParameter, { slot: '40' }), { kind: 'slot', slot: 40 });
    fails(checkpointParameter, 'proposed', /not a checkpoint tag/);
    fails(checkpointParameter, { number: 2, slot: 3 });
  });

  test('checkpoints queries and their bounds', () => {
    assert.deepEqual(ok(checkpointsQuery, { from: 1, limit: 200 }), { kind: 'range', from: 1, limit: 200 });
    assert.deepEqual(ok(checkpointsQuery, { epoch: 3 }), { kind: 'epoch', epoch: 3 });
    assert.deepEqual(ok(checkpointsQuery, { fromSlot: 9, limit: 1, reverse: true }), {
      kind: 'slots',
      fromSlot: 9,
      limit: 1,
      reverse: true,
    });
    fails(checkpointsQuery, { from: 0, limit: 5 });
    fails(checkpointsQuery, { from: 1, limit: 201 }, /at most 200 checkpoint-data entries/);
    fails(checkpointsQuery, { from: 1, limit: 0 });
    fails(checkpointsQuery, { from: 1, limit: 5, epoch: 2 });
  });

  test('the schemas render as JSON Schema for the OpenRPC document', () => {
    for (const schema of [
      blockParameter,
      referenceBlock,
      checkpointParameter,
      checkpointsQuery,
      checkpointTag,
    ]) {
      const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' });
      assert.ok(json.anyOf || json.type || json.allOf, JSON.stringify(json));
    }
  });
});
