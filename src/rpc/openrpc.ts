// Builds the OpenRPC document served by `rpc.discover` from the method registry, so
// the schemas that validate params are the same ones the document shows.
import { z } from 'zod';
import { CAIRN_CONVENTIONS, type WireConventions } from './conventions.js';
import { RpcCode } from './errors.js';
import type { MethodError, PortKind, RpcMethod } from './registry.js';

export interface OpenRpcInfo {
  title: string;
  version: string;
  description: string;
}

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  // The wire form is the input side of every codec, for params and results alike.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-7',
  }) as JsonSchema;
  return rest;
}

/** A result that may be absent is `null` on the wire, so its schema admits null. */
function resultSchemaOf(schema: z.ZodType): JsonSchema {
  const json = jsonSchemaOf(schema);
  const mayBeAbsent = z.safeEncode(schema, undefined).success;
  if (!mayBeAbsent || json.type === 'null') return json;
  const { description, ...rest } = json;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

/** The face a document describes: its port, and how it answers refused calls. */
export interface OpenRpcFace {
  readonly port: PortKind;
  readonly conventions: WireConventions;
}

/**
 * The errors a method can return on a face: those its handler throws (declared with it), as the
 * face answers them, then the transport's: params that fail their schemas (a method with params),
 * the admin port's API key or the public port's rate limit, a response over the size limit, and an
 * internal error. One of each code and message.
 */
export function errorsOf(method: RpcMethod, face: OpenRpcFace): MethodError[] {
  const { conventions } = face;
  const out: MethodError[] = [];
  const add = (e: MethodError) => {
    if (!out.some((o) => o.code === e.code && o.message === e.message))
      out.push({ code: e.code, message: e.message });
  };
  for (const e of method.errors ?? []) add(conventions.nodeError(e));
  if (method.params.length > 0) {
    const names = method.params.map((p) => p.name).join(', ');
    add(conventions.invalidParams([{ path: `<${names}>`, message: '…' }]));
  }
  if (face.port === 'admin') {
    add({ code: RpcCode.Refused, message: 'Unauthorized: invalid or missing API key' });
  } else {
    add({ code: RpcCode.LimitExceeded, message: 'Too many requests: the limit is … requests per second' });
  }
  add({ code: RpcCode.LimitExceeded, message: 'Response too large: … bytes exceeds the limit of … bytes' });
  add({ code: RpcCode.InternalError, message: 'Internal error' });
  return out;
}

export function buildOpenRpcDocument(
  methods: readonly RpcMethod[],
  info: OpenRpcInfo,
  face: OpenRpcFace = { port: 'public', conventions: CAIRN_CONVENTIONS },
): Record<string, unknown> {
  return {
    openrpc: '1.2.6',
    info,
    methods: methods.map((m) => ({
      name: m.fullName,
      summary: m.summary,
      ...(m.description ? { description: m.description } : {}),
      ...(m.deprecated ? { deprecated: true } : {}),
      paramStructure: 'by-position',
      params: m.params.map((p) => ({
        name: p.name,
        required: !p.optional,
        ...((p.description ?? p.schema.description)
          ? { description: p.description ?? p.schema.description }
          : {}),
        schema: jsonSchemaOf(p.schema),
      })),
      result: { name: m.resultName, schema: resultSchemaOf(m.result) },
      errors: errorsOf(m, face),
      ...(m.examples && m.examples.length > 0 ? { examples: m.examples } : {}),
    })),
  };
}
