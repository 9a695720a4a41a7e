// Builds the OpenRPC document served by `rpc.discover` from the method registry, so
// the schemas that validate params are the same ones the document shows.
import { z } from 'zod';
import type { RpcMethod } from './registry.js';

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

export function buildOpenRpcDocument(
  methods: readonly RpcMethod[],
  info: OpenRpcInfo,
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
        ...(p.description ? { description: p.description } : {}),
        schema: jsonSchemaOf(p.schema),
      })),
      result: { name: m.resultName, schema: resultSchemaOf(m.result) },
    })),
  };
}
