// docs/methods.md, generated from the method declarations and their recorded examples: one section
// per method of every set — the public port's current (`svc_`) and earlier (`node_`) sets, the
// admin port's (`svcAdmin_`, `nodeAdmin_`), the dev methods (`svcDev_`), and the reference API at
// `/aztec` — with its params, result, errors and an example call, from the same OpenRPC document
// rpc.discover serves. test/docs/methods.test.ts fails when the page is not what this gives.
//
//   node --import tsx scripts/method-docs.ts          (writes docs/methods.md, about 2 s)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiNode, buildRegistry } from '../src/api/index.js';
import { type AztecApiNode, buildAztecRegistry } from '../src/aztec/index.js';
import { CAIRN_CONVENTIONS, REFERENCE_CONVENTIONS } from '../src/rpc/conventions.js';
import { buildOpenRpcDocument, type OpenRpcFace } from '../src/rpc/openrpc.js';
import type { MethodExample, MethodRegistry, RpcMethod } from '../src/rpc/registry.js';

export const METHODS_DOC = join(import.meta.dirname, '..', 'docs', 'methods.md');

/** A recorded example's description when the answer had no `result` member (the page shows it so). */
export const NO_RESULT = 'Answered without a result member: the method has no value to give';

/** A node whose parts are never called: declaring the methods runs no handler. */
function declarationsOnly<T>(): T {
  const never = (): never => {
    throw new Error('a handler ran while the methods were only declared');
  };
  const part: object = new Proxy(never, { get: (_t, key) => (key === 'bind' ? () => never : part) });
  return new Proxy({}, { get: (_t, key) => (key === 'untilIncluded' ? undefined : part) }) as T;
}

/** Every registry the node serves, by face. */
export function registries(): { cairn: MethodRegistry; aztec: MethodRegistry } {
  return {
    cairn: buildRegistry(declarationsOnly<ApiNode>()),
    aztec: buildAztecRegistry(declarationsOnly<AztecApiNode>()),
  };
}

interface Entry {
  name: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  params: { name: string; required: boolean; description?: string; schema: Schema }[];
  result: { name: string; schema: Schema };
  errors: { code: number; message: string }[];
  examples?: MethodExample[];
}
// biome-ignore lint/suspicious/noExplicitAny: a JSON schema, read by its members
type Schema = Record<string, any>;

/** A set of methods on one face: its heading, where it is served, and which methods. */
interface MethodSet {
  title: string;
  anchor: string;
  where: string;
  methods: RpcMethod[];
  face: OpenRpcFace;
  url: string;
}

function sets(): MethodSet[] {
  const { cairn, aztec } = registries();
  const of = (port: 'public' | 'admin', ns: readonly string[]) =>
    cairn.forPort(port).filter((m) => ns.includes(m.namespace));
  const pub: OpenRpcFace = { port: 'public', conventions: CAIRN_CONVENTIONS };
  const admin: OpenRpcFace = { port: 'admin', conventions: CAIRN_CONVENTIONS };
  return [
    {
      title: 'Public port: the current set (`svc_`)',
      anchor: 'svc',
      where: 'the public port, `POST /`',
      methods: of('public', ['svc']),
      face: pub,
      url: 'http://localhost:8080/',
    },
    {
      title: 'Public port: the earlier set (`node_`)',
      anchor: 'node',
      where: 'the public port, `POST /`',
      methods: of('public', ['node']),
      face: pub,
      url: 'http://localhost:8080/',
    },
    {
      title: 'Admin port (`svcAdmin_`, `nodeAdmin_`)',
      anchor: 'admin',
      where: 'the admin port, `POST /` (with the API key when one is set)',
      methods: of('admin', ['svcAdmin', 'nodeAdmin']),
      face: admin,
      url: 'http://localhost:8880/',
    },
    {
      title: 'Dev methods (`svcDev_`)',
      anchor: 'dev',
      where: 'the admin port, `POST /`, on a node that runs its own L1',
      methods: of('admin', ['svcDev']),
      face: admin,
      url: 'http://localhost:8880/',
    },
    {
      title: 'The reference API at `/aztec` (`node_`)',
      anchor: 'aztec',
      where: 'the public port, `POST /aztec`',
      methods: aztec.forPort('public'),
      face: { port: 'public', conventions: REFERENCE_CONVENTIONS },
      url: 'http://localhost:8080/aztec',
    },
  ];
}

/** A JSON schema in a few words: its type, enum or constant. */
function typeOf(s: Schema | undefined): string {
  if (s === undefined || Object.keys(s).length === 0) return 'any';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' \\| ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return [...new Set((alts as Schema[]).map(typeOf))].join(' \\| ');
  if (s.type === 'array') {
    if (Array.isArray(s.items)) return `[${(s.items as Schema[]).map(typeOf).join(', ')}]`;
    const inner = typeOf(s.items);
    return inner.includes('|') ? `(${inner})[]` : `${inner}[]`;
  }
  if (s.type === 'integer') return 'integer';
  if (s.type === 'string' && s.pattern?.startsWith('^0x')) return 'hex string';
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.join(' \\| ');
  return 'any';
}

const cell = (text: string | undefined) => (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Long strings and arrays cut for the page (rpc.discover has each example in full). */
function shorten(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 66)}…(${v.length} chars)` : v;
  if (Array.isArray(v)) {
    const shown = v.slice(0, 3).map((x) => shorten(x, depth + 1));
    return v.length > 3 ? [...shown, `…(${v.length - 3} more)`] : shown;
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (depth >= 6) return `{…${entries.length} members}`;
    return Object.fromEntries(entries.map(([k, x]) => [k, shorten(x, depth + 1)]));
  }
  return v;
}

function exampleBlock(m: Entry, ex: MethodExample): string[] {
  const request = { jsonrpc: '2.0', id: 1, method: m.name, params: ex.params.map((p) => shorten(p.value)) };
  // The reference's transport leaves `result` out of an answer without a value (as recorded).
  const response =
    ex.description === NO_RESULT
      ? { jsonrpc: '2.0', id: 1 }
      : { jsonrpc: '2.0', id: 1, result: shorten(ex.result.value) };
  return [
    '```json',
    JSON.stringify(request, null, 2),
    '```',
    '',
    '```json',
    JSON.stringify(response, null, 2),
    '```',
  ];
}

function section(set: MethodSet, m: Entry): string[] {
  const out = [`### ${m.name}`, ''];
  out.push(`${cell(m.summary)}${m.deprecated ? ' **Deprecated.**' : ''}`, '');
  if (m.description) out.push(m.description, '');
  if (m.params.length === 0) out.push('Params: none.', '');
  else {
    out.push('| Param | Type | Required | Description |', '|---|---|---|---|');
    for (const p of m.params) {
      out.push(
        `| \`${p.name}\` | ${typeOf(p.schema)} | ${p.required ? 'yes' : 'no'} | ${cell(p.description ?? p.schema.description)} |`,
      );
    }
    out.push('');
  }
  const resultDescription = m.result.schema.description as string | undefined;
  out.push(
    `Result \`${m.result.name}\`: ${typeOf(m.result.schema)}${resultDescription ? `. ${cell(resultDescription)}` : ''}`,
    '',
  );
  out.push('| Error code | Message |', '|---|---|');
  for (const e of m.errors) out.push(`| ${e.code} | ${cell(e.message)} |`);
  out.push('');
  const ex = m.examples?.[0];
  if (ex !== undefined) {
    out.push(`Example, recorded on a real chain (\`${set.url}\`):`, '', ...exampleBlock(m, ex), '');
  }
  return out;
}

/** The whole page. */
export function methodsDoc(): string {
  const all = sets();
  const out = [
    '# Method reference',
    '',
    '<!-- Generated by `node --import tsx scripts/method-docs.ts` from the method declarations',
    '(src/client/methods/, src/aztec/) and the examples recorded by scripts/record-method-examples.ts:',
    'do not edit by hand. test/docs/methods.test.ts fails when this page is out of date. -->',
    '',
    'Every method the node serves, one section each, grouped by set: its params, its result, the',
    "errors it can return and an example call recorded on a real chain. It is rpc.discover's",
    'document in prose: a running node serves the same params, results, errors and examples (in',
    'full: long values are cut here) from `rpc.discover` on each port and at `/aztec`. Error codes',
    'are described in [rpc.md](rpc.md#errors) (invalid params carry every problem in `error.data.issues`); the errors at `/aztec` follow the reference',
    "node's transport ([aztec-api.md](aztec-api.md)). In the error messages `…` stands for a value",
    'the node fills in. Every method can also fail with the transport errors listed last in its',
    'table: params that do not match their schemas, the rate limit (public port, when',
    '`rpcRateLimit` is set), the API key (admin port, when one is set), the response size limit and',
    'an internal error.',
    '',
  ];
  for (const set of all) out.push(`- [${set.title}](#${set.anchor}): ${set.methods.length} methods`);
  out.push('');
  for (const set of all) {
    out.push(`<a id="${set.anchor}"></a>`, '', `## ${set.title}`, '', `Served on ${set.where}.`, '');
    const doc = buildOpenRpcDocument(set.methods, { title: '', version: '', description: '' }, set.face);
    for (const m of doc.methods as Entry[]) out.push(...section(set, m));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  writeFileSync(METHODS_DOC, methodsDoc());
  process.stdout.write(`wrote ${METHODS_DOC}\n`);
}
