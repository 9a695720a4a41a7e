// The method reference as data: every method of every set (public, admin, dev, and /aztec) has a
// description of each param, a recorded example and its errors in the OpenRPC document; each
// recorded example still decodes with the method's param schemas and its result with the result
// schema (so a declaration that changes fails here until the examples are recorded again); and
// each error a method declares is a message the node's source throws (so a reworded error fails
// here until its declaration follows). Examples are recorded with
// `npm run build && node --import tsx scripts/record-method-examples.ts`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { registries } from '../../../scripts/method-docs.js';
import { AZTEC_EXAMPLES, CAIRN_EXAMPLES } from '../../../src/client/methods/examples.js';
import { CAIRN_CONVENTIONS, REFERENCE_CONVENTIONS } from '../../../src/rpc/conventions.js';
import { RpcCode } from '../../../src/rpc/errors.js';
import { buildOpenRpcDocument, type OpenRpcFace } from '../../../src/rpc/openrpc.js';
import { decodeParams, type MethodRegistry, type RpcMethod } from '../../../src/rpc/registry.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const { cairn, aztec } = registries();

interface Face {
  name: string;
  registry: MethodRegistry;
  port: 'public' | 'admin';
  face: OpenRpcFace;
  examples: typeof CAIRN_EXAMPLES;
}
const FACES: Face[] = [
  {
    name: 'public port',
    registry: cairn,
    port: 'public',
    face: { port: 'public', conventions: CAIRN_CONVENTIONS },
    examples: CAIRN_EXAMPLES,
  },
  {
    name: 'admin port',
    registry: cairn,
    port: 'admin',
    face: { port: 'admin', conventions: CAIRN_CONVENTIONS },
    examples: CAIRN_EXAMPLES,
  },
  {
    name: '/aztec',
    registry: aztec,
    port: 'public',
    face: { port: 'public', conventions: REFERENCE_CONVENTIONS },
    examples: AZTEC_EXAMPLES,
  },
];

interface DocMethod {
  name: string;
  params: { name: string; description?: string }[];
  errors: { code: number; message: string }[];
  examples?: unknown[];
}

/** The schema a value has on the wire: a codec's input side, inside arrays, objects and unions. */
function wireSide(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'pipe':
      return wireSide(def.in as z.ZodType);
    case 'optional':
      return wireSide(def.innerType as z.ZodType).optional();
    case 'nullable':
      return wireSide(def.innerType as z.ZodType).nullable();
    case 'array':
      return z.array(wireSide(def.element as z.ZodType));
    case 'union':
      return z.union((def.options as z.ZodType[]).map(wireSide) as [z.ZodType, z.ZodType]);
    case 'object':
      return z.object(
        Object.fromEntries(
          Object.entries(def.shape as Record<string, z.ZodType>).map(([k, s]) => [k, wireSide(s)]),
        ),
      );
    default:
      return schema;
  }
}

/**
 * Whether a recorded result is what the method's result schema gives on the wire: decoded back
 * through it, or — for a result only ever encoded (the reference's Tx: its decode refuses to run) —
 * parsed with the schema's wire side.
 */
function resultIssues(method: RpcMethod, value: unknown): string | undefined {
  const absent = value === null && z.safeEncode(method.result, undefined).success;
  if (absent) return undefined;
  let decoded: ReturnType<typeof z.safeDecode>;
  try {
    decoded = z.safeDecode(method.result, value);
  } catch {
    decoded = wireSide(method.result).safeParse(value);
  }
  return decoded.success ? undefined : z.prettifyError(decoded.error);
}

describe('every method of every set is documented in rpc.discover', () => {
  for (const f of FACES) {
    const methods = f.registry.forPort(f.port);
    const doc = buildOpenRpcDocument(methods, { title: '', version: '', description: '' }, f.face);
    const entries = doc.methods as DocMethod[];

    test(`${f.name}: every param has a description`, () => {
      const bare = entries.flatMap((m) =>
        m.params.filter((p) => !p.description?.trim()).map((p) => `${m.name}(${p.name})`),
      );
      assert.deepEqual(bare, [], 'params without a description');
    });

    test(`${f.name}: every method has a recorded example`, () => {
      const without = entries.filter((m) => (m.examples?.length ?? 0) === 0).map((m) => m.name);
      assert.deepEqual(
        without,
        [],
        'methods without an example: record them with `npm run build && node --import tsx scripts/record-method-examples.ts`',
      );
    });

    test(`${f.name}: every method lists its errors, the transport's among them`, () => {
      const invalidParams = f.face.conventions.invalidParams([{ path: 'x', message: 'y' }]).code;
      for (const m of entries) {
        const method = methods.find((x) => x.fullName === m.name)!;
        const codes = m.errors.map((e) => e.code);
        assert.ok(codes.includes(RpcCode.InternalError), `${m.name} lists the internal error`);
        if (method.params.length > 0)
          assert.ok(codes.includes(invalidParams), `${m.name} lists invalid params (${invalidParams})`);
        for (const e of method.errors ?? []) {
          const answered = f.face.conventions.nodeError(e);
          assert.ok(
            m.errors.some((x) => x.code === answered.code && x.message === e.message),
            `${m.name} lists its declared error ${e.code} ${e.message} as ${answered.code}`,
          );
        }
      }
    });
  }

  test('every recorded example belongs to a method that is served', () => {
    const served = new Set(cairn.all().map((m) => m.fullName));
    assert.deepEqual(
      Object.keys(CAIRN_EXAMPLES).filter((n) => !served.has(n)),
      [],
    );
    const atAztec = new Set(aztec.all().map((m) => m.fullName));
    assert.deepEqual(
      Object.keys(AZTEC_EXAMPLES).filter((n) => !atAztec.has(n)),
      [],
    );
  });
});

describe('the recorded examples fit the declarations', () => {
  for (const f of FACES) {
    test(`${f.name}: each example's params decode with the method's param schemas, in their names`, () => {
      const problems: string[] = [];
      for (const method of f.registry.forPort(f.port)) {
        for (const ex of f.examples[method.fullName] ?? []) {
          const names = ex.params.map((p) => p.name);
          const declared = method.params.slice(0, names.length).map((p) => p.name);
          if (names.join() !== declared.join())
            problems.push(`${method.fullName}: names ${names} ≠ ${declared}`);
          const decoded = decodeParams(
            method,
            ex.params.map((p) => p.value),
          );
          if (!decoded.ok) problems.push(`${method.fullName}: ${JSON.stringify(decoded.issues)}`);
        }
      }
      assert.deepEqual(problems, []);
    });

    test(`${f.name}: each example's result is what the result schema gives`, () => {
      const problems: string[] = [];
      for (const method of f.registry.forPort(f.port)) {
        for (const ex of f.examples[method.fullName] ?? []) {
          if (ex.result.name !== method.resultName)
            problems.push(`${method.fullName}: result ${ex.result.name} ≠ ${method.resultName}`);
          const issues = resultIssues(method, ex.result.value);
          if (issues !== undefined) problems.push(`${method.fullName}: ${issues}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }

  test('a result that does not fit its schema is caught', () => {
    const blockNumber = cairn.get('svc_getBlockNumber')!;
    assert.equal(resultIssues(blockNumber, 7), undefined);
    assert.notEqual(resultIssues(blockNumber, 'seven'), undefined);
    const tx = aztec.get('node_getTxByHash')!;
    const recorded = AZTEC_EXAMPLES.node_getTxByHash![0]!.result.value as Record<string, unknown>;
    assert.equal(resultIssues(tx, recorded), undefined);
    assert.notEqual(resultIssues(tx, { ...recorded, data: 7 }), undefined);
  });
});

/** Every .ts file under src/, but the declarations of the errors themselves. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !path.endsWith(join('client', 'methods', 'errors.ts')) ? [path] : [];
  });
}

/** A source file's text as messages read: `${…}` as `…`, strings joined across `+` and lines. */
function asMessages(text: string): string {
  return text
    .replace(/\$\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '…')
    .replace(/(['`])\s*\+\s*\n\s*(['`])/g, '')
    .replace(/\\'/g, "'");
}

test('each declared error is a message the node throws (`…` where it puts a value)', () => {
  const text = sources(SRC)
    .map((path) => asMessages(readFileSync(path, 'utf8')))
    .join('\n');
  const declared = new Map<string, string>();
  for (const registry of [cairn, aztec])
    for (const m of registry.all()) for (const e of m.errors ?? []) declared.set(e.message, m.fullName);
  assert.ok(declared.size > 30, 'the methods declare their errors');
  const unknown = [...declared]
    .filter(([message]) => !text.includes(message))
    .map(([message, m]) => `${m}: ${message}`);
  assert.deepEqual(unknown, [], 'declared errors no source throws');
});

/**
 * Messages the source throws that no method declares, because no call reaches them: a check of a
 * lower layer that the caller has made before, with its own message.
 */
const UNREACHED: Record<string, string> = {
  'invalid block number …':
    'world-state.ts assertReadable: every reader resolves its reference block to a synced number first',
  'leaf index … is beyond the tree: tree … has room for 2^… leaves':
    'view.ts: src/queries/state.ts refuses an index beyond the tree before it asks the view',
  'cannot roll back to block …: the latest block is …':
    'world-state.ts: src/node/admin.ts refuses a target past the latest block first',
};

test('each message the source throws as a node error is declared by a method, or named as unreached', () => {
  const thrown = new Map<string, string>();
  for (const path of sources(SRC)) {
    if (path.endsWith(join('core', 'errors.ts'))) continue;
    const text = asMessages(readFileSync(path, 'utf8'));
    for (const m of text.matchAll(
      /\b(?:refused|unavailable|invalidParams|limitHit)\(\s*(['`"])((?:(?!\1).)*)\1/g,
    ))
      thrown.set(m[2]!, path.slice(SRC.length + 1));
  }
  assert.ok(thrown.size > 30, 'the scan finds the thrown messages');
  const declared = new Set<string>();
  for (const registry of [cairn, aztec])
    for (const m of registry.all()) for (const e of m.errors ?? []) declared.add(e.message);
  const undeclared = [...thrown]
    .filter(([message]) => !declared.has(message) && UNREACHED[message] === undefined)
    .map(([message, path]) => `${path}: ${message}`);
  assert.deepEqual(
    undeclared,
    [],
    'thrown messages no method declares (declare them in src/client/methods/errors.ts)',
  );
  const stale = Object.keys(UNREACHED).filter((message) => !thrown.has(message));
  assert.deepEqual(stale, [], 'unreached messages the source no longer throws');
});
