import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { bigintDec, ethAddress, frHex, slotNumber, uint } from '../../src/core/codecs.js';
import {
  defineMethod,
  defineMethods,
  encodeResult,
  encodesAsParsed,
  MethodRegistry,
} from '../../src/rpc/registry.js';

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

describe('defineMethods: twins in several namespaces', () => {
  const blockRef = z.union([uint, z.literal('latest')]).transform((n) => ({ block: n }));
  const blockText = z
    .string()
    .transform((text) => ({ block: text === 'latest' ? ('latest' as const) : Number(text) }));

  test('each namespace gets the method as declared, under its own name', () => {
    const [svc, node] = defineMethods(['svc', 'node'], {
      name: 'twin',
      summary: 'a twin',
      params: [{ name: 'n', schema: uint }],
      resultName: 'r',
      result: uint,
      handler: (n) => n + 1,
    });
    assert.deepEqual(
      [svc!.fullName, node!.fullName, node!.namespace, node!.summary],
      ['svc_twin', 'node_twin', 'node', 'a twin'],
    );
    assert.equal(node!.handler(1), 2);
    assert.deepEqual(node!.declaredIn, ['svc', 'node']);
  });

  test('an override changes only what it gives, and only in its namespace', () => {
    const [svc, node] = defineMethods(
      ['svc', 'node'],
      {
        name: 'at',
        summary: 'at a reference block',
        params: [{ name: 'referenceBlock', schema: blockRef }],
        resultName: 'r',
        result: z.string(),
        handler: (ref) => String(ref.block),
      },
      // Same decoded values: the shared handler serves both.
      { node: { summary: 'at a block number', params: [{ name: 'blockNumber', schema: blockText }] } },
    );
    assert.equal(svc!.summary, 'at a reference block');
    assert.equal(svc!.params[0]!.name, 'referenceBlock');
    assert.equal(node!.summary, 'at a block number');
    assert.equal(node!.params[0]!.name, 'blockNumber');
    assert.equal(node!.resultName, 'r');
    assert.equal(node!.handler, svc!.handler);
  });

  test('an override with its own params, result and handler', () => {
    const [, node] = defineMethods(
      ['svc', 'node'],
      {
        name: 'get',
        summary: 'with options',
        params: [
          { name: 'n', schema: uint },
          { name: 'options', schema: z.object({ twice: z.boolean() }), optional: true },
        ],
        resultName: 'r',
        result: uint,
        handler: (n, options) => (options?.twice ? 2 * n : n),
      },
      { node: { params: [{ name: 'n', schema: uint }], result: z.string(), handler: (n) => `#${n}` } },
    );
    assert.equal(node!.params.length, 1);
    assert.equal(node!.result.parse('x'), 'x');
    assert.equal(node!.handler(3), '#3');
  });

  test('an override for a namespace the method is not declared in is refused', () => {
    assert.throws(
      () =>
        defineMethods(
          ['svc'],
          { name: 'm', summary: 'm', params: [], resultName: 'r', result: uint, handler: () => 1 },
          { node: { summary: 'nowhere' } },
        ),
      /an override for node, where the method is not declared/,
    );
  });

  test('an override that changes what the handler takes or returns must bring its handler (types)', () => {
    const spec = {
      name: 'm',
      summary: 'm',
      params: [{ name: 'n', schema: uint }],
      resultName: 'r',
      result: uint,
      handler: (n: number) => n,
    } as const;
    // Fewer params: the shared handler would be called without them.
    // @ts-expect-error the handler is required
    defineMethods(['svc', 'node'], spec, { node: { params: [] } });
    // Another result: the shared handler's value would not fit it.
    // @ts-expect-error the handler is required
    defineMethods(['svc', 'node'], spec, { node: { result: z.string() } });
    // @ts-expect-error the handler's value must fit the override's result
    defineMethods(['svc', 'node'], spec, { node: { params: [], handler: () => 'text' } });
  });
});

describe('errors and examples', () => {
  const refusedOnce = { code: -32000, message: 'no such thing: …' };

  test('twins share their errors unless an override gives its own', () => {
    const [svc, node] = defineMethods(
      ['svc', 'node', 'svcAdmin'],
      {
        name: 'e',
        summary: 'refuses',
        params: [],
        resultName: 'r',
        result: uint,
        errors: [refusedOnce],
        handler: () => 1,
      },
      { node: { errors: [] } },
    );
    assert.deepEqual(svc!.errors, [refusedOnce]);
    assert.deepEqual(node!.errors, []);
  });

  test('a registry gives each method its recorded examples by full name, and only those', () => {
    const m = (name: string) =>
      defineMethod({
        namespace: 'svc',
        name,
        summary: name,
        params: [],
        resultName: 'r',
        result: uint,
        handler: () => 1,
      });
    const example = { name: 'one', params: [], result: { name: 'r', value: 1 } };
    const registry = new MethodRegistry().add(m('a'), m('b')).withExamples({ svc_a: [example], svc_c: [] });
    assert.deepEqual(registry.get('svc_a')!.examples, [example]);
    assert.equal(registry.get('svc_b')!.examples, undefined);
    assert.equal(registry.get('svc_c'), undefined);
  });
});
