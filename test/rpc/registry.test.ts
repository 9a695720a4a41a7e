import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { bigintDec, ethAddress, frHex, slotNumber, uint } from '../../src/core/codecs.js';
import { defineMethod, encodeResult, encodesAsParsed } from '../../src/rpc/registry.js';

const method = (result: z.ZodType) =>
  defineMethod({
    namespace: 'svc',
    name: 'm',
    summary: 'm',
    params: [],
    resultName: 'r',
    result,
    handler: () => null,
  });

// Schemas that only check: encoding a value returns it unchanged, so a parse may stand in for it.
const plain: [string, z.ZodType][] = [
  ['uint', uint],
  ['nullable string', z.string().nullable()],
  ['enum', z.enum(['a', 'b'])],
  [
    'object of plain members',
    z
      .object({ n: uint, tags: z.array(z.string().max(3)), kind: z.literal('x').optional() })
      .describe('described'),
  ],
  ['strict object', z.object({ a: z.boolean() }).strict()],
  ['union and tuple', z.union([z.tuple([z.number(), z.string()]), z.null()])],
  ['record', z.record(z.string(), z.number().int())],
  ['refined', z.number().refine((n) => n % 2 === 0, 'even')],
];

// Schemas with a part that converts: they must go through encode.
const converting: [string, z.ZodType][] = [
  ['field codec', frHex],
  ['bigint as decimal', bigintDec],
  ['Ethereum address (lowercased)', ethAddress],
  ['slot number codec', slotNumber],
  ['codec inside an object', z.object({ n: uint, hash: frHex })],
  ['codec inside an array inside a union', z.union([z.null(), z.array(frHex)])],
  ['transform', z.number().transform((n) => n + 1)],
  ['default', z.number().default(3)],
  ['catch', z.number().catch(0)],
  ['pipe', z.string().pipe(z.string().min(1))],
  ['readonly', z.object({ a: z.number() }).readonly()],
];

describe('result encoding', () => {
  test('schemas without a converting part encode as they parse; others do not', () => {
    for (const [name, schema] of plain) assert.equal(encodesAsParsed(schema), true, name);
    for (const [name, schema] of converting) assert.equal(encodesAsParsed(schema), false, name);
  });

  test('a lazy schema that refers to itself is classified by what it holds', () => {
    type Tree = { value: number; children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ value: uint, children: z.array(tree) }));
    assert.equal(encodesAsParsed(tree), true);
    type HashTree = { hash: bigint; children: HashTree[] };
    const hashTree: z.ZodType<HashTree> = z.lazy(() =>
      z.object({ hash: frHex, children: z.array(hashTree) }),
    );
    assert.equal(encodesAsParsed(hashTree), false);
  });

  test('for plain schemas, encodeResult answers what zod encode answers, valid or not', () => {
    const values = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 5 }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
      fc.record({ n: fc.integer(), tags: fc.array(fc.string({ maxLength: 4 })), kind: fc.constant('x') }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.integer()),
      fc.tuple(fc.integer(), fc.string()),
    );
    for (const [name, schema] of plain) {
      fc.assert(
        fc.property(values, (value) => {
          const viaEncode = z.safeEncode(schema, value);
          const got = encodeResult(method(schema), value);
          assert.equal(got.ok, viaEncode.success, name);
          if (got.ok && viaEncode.success) {
            assert.deepEqual(got.json, viaEncode.data === undefined ? null : viaEncode.data, name);
          }
        }),
        { numRuns: 300 },
      );
    }
  });

  test('converting schemas are still encoded', () => {
    const r = encodeResult(method(z.object({ n: uint, hash: frHex })), { n: 1, hash: 255n });
    assert.deepEqual(r, { ok: true, json: { n: 1, hash: `0x${'0'.repeat(62)}ff` } });
    assert.equal(encodeResult(method(bigintDec), 10n ** 30n).ok, true);
    assert.equal(encodeResult(method(uint), -1).ok, false);
  });
});
