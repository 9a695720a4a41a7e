// The method registry: every JSON-RPC method is declared once, with a zod schema per
// positional param and a zod schema for its result. Params are decoded (validated and
// converted) before the handler runs; results are encoded to JSON after it returns.
// The same declarations generate the OpenRPC document (openrpc.ts).
import { z } from 'zod';

export const NAMESPACES = ['svc', 'node', 'svcAdmin', 'nodeAdmin', 'svcDev'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Which listener serves which namespaces. */
export const PORT_NAMESPACES = {
  public: ['svc', 'node'],
  admin: ['svcAdmin', 'nodeAdmin', 'svcDev'],
} as const satisfies Record<string, readonly Namespace[]>;
export type PortKind = keyof typeof PORT_NAMESPACES;

export interface ParamSpec {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly optional?: boolean;
  readonly description?: string;
}

type ParamValue<P> = P extends { schema: infer S extends z.ZodType; optional: true }
  ? z.output<S> | undefined
  : P extends { schema: infer S extends z.ZodType }
    ? z.output<S>
    : never;
export type ParamValues<Ps extends readonly ParamSpec[]> = { -readonly [K in keyof Ps]: ParamValue<Ps[K]> };

/**
 * An error a method's handler can return, as an OpenRPC error object: cairn's code (docs/rpc.md)
 * and the message, or its pattern (`…` where the node puts a value). The transport's own errors
 * (invalid params, rate and size limits, the admin key, internal errors) are added per face by
 * openrpc.ts, so a method declares only what its handler throws.
 */
export interface MethodError {
  readonly code: number;
  readonly message: string;
}

/** A value of an example: a param or the result, by name (OpenRPC's Example object). */
export interface ExampleValue {
  readonly name: string;
  readonly value: unknown;
}

/** A recorded call of a method on a real chain: its params and its result (OpenRPC's Example Pairing). */
export interface MethodExample {
  readonly name: string;
  readonly description?: string;
  readonly params: readonly ExampleValue[];
  readonly result: ExampleValue;
}

export interface MethodSpec<Ps extends readonly ParamSpec[], R extends z.ZodType> {
  readonly namespace: Namespace;
  /** The method name without its namespace prefix, e.g. `getNodeInfo`. */
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly params: Ps;
  /** Name of the result in the OpenRPC document. */
  readonly resultName: string;
  readonly result: R;
  /** The errors the handler can return (beyond the transport's, which every method shares). */
  readonly errors?: readonly MethodError[];
  readonly handler: (...args: ParamValues<Ps>) => z.output<R> | Promise<z.output<R>>;
}

/** One method in one namespace as data: everything but its handler (the typed client reads these). */
export interface MethodDeclaration {
  readonly namespace: Namespace;
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly params: readonly ParamSpec[];
  readonly resultName: string;
  readonly result: z.ZodType;
  readonly errors?: readonly MethodError[];
}

/** A declared method with its types erased, as the dispatcher sees it. */
export interface RpcMethod extends MethodDeclaration {
  readonly fullName: string;
  /** Calls of it recorded on a real chain (src/client/methods/examples.ts), for rpc.discover. */
  readonly examples?: readonly MethodExample[];
  readonly handler: (...args: unknown[]) => unknown;
  /** The namespaces one defineMethods call declared this method in, its own included (its twins). */
  readonly declaredIn?: readonly Namespace[];
}

/** Declares a method; the handler's argument types follow from the param schemas. */
export function defineMethod<const Ps extends readonly ParamSpec[], R extends z.ZodType>(
  spec: MethodSpec<Ps, R>,
): RpcMethod {
  let seenOptional = false;
  for (const p of spec.params) {
    if (p.optional) seenOptional = true;
    else if (seenOptional) {
      throw new Error(`${spec.namespace}_${spec.name}: required param ${p.name} follows an optional one`);
    }
  }
  return {
    ...spec,
    fullName: `${spec.namespace}_${spec.name}`,
    handler: spec.handler as (...args: unknown[]) => unknown,
  };
}

export interface ParamIssue {
  /** Where the problem is: the param name followed by the path inside it, e.g. `leafValues[3]`. */
  path: string;
  message: string;
}

export type DecodedParams = { ok: true; args: unknown[] } | { ok: false; issues: ParamIssue[] };

function formatPath(name: string, path: readonly PropertyKey[]): string {
  let out = name;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}

/**
 * Checks the positional params of a call against a method's param list: an absent
 * `params` means `[]`; `null` in an optional position means omitted; missing trailing
 * optionals are allowed; extra params are not.
 */
export function decodeParams(method: RpcMethod, params: unknown): DecodedParams {
  if (params === undefined) params = [];
  if (!Array.isArray(params)) {
    return {
      ok: false,
      issues: [{ path: 'params', message: 'params must be an array of positional values' }],
    };
  }
  const specs = method.params;
  if (params.length > specs.length) {
    return {
      ok: false,
      issues: [
        {
          path: 'params',
          message: `expected at most ${specs.length} param${specs.length === 1 ? '' : 's'}, got ${params.length}`,
        },
      ],
    };
  }
  const args: unknown[] = [];
  const issues: ParamIssue[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const value: unknown = params[i];
    if (value === undefined || (value === null && spec.optional)) {
      if (!spec.optional) issues.push({ path: spec.name, message: `missing required param ${spec.name}` });
      args.push(undefined);
      continue;
    }
    const result = z.safeDecode(spec.schema, value);
    if (result.success) {
      args.push(result.data);
    } else {
      for (const issue of result.error.issues) {
        issues.push({ path: formatPath(spec.name, issue.path), message: issue.message });
      }
      args.push(undefined);
    }
  }
  return issues.length === 0 ? { ok: true, args } : { ok: false, issues };
}

/** Schema kinds whose output is their input, checked: no transform, codec, default or catch. */
const SAME_BOTH_WAYS = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'null',
  'undefined',
  'void',
  'never',
  'any',
  'unknown',
  'nan',
  'enum',
  'literal',
  'template_literal',
  'custom',
  'object',
  'array',
  'tuple',
  'record',
  'union',
  'intersection',
  'optional',
  'nullable',
  'nonoptional',
  'lazy',
]);

const sameBothWaysCache = new WeakMap<z.ZodType, boolean>();

/**
 * Whether parsing a value with `schema` gives what encoding it gives: true when no part of the
 * schema converts values (no codec, pipe, transform, default, prefault, catch or readonly), so the
 * forward parse checks the same things and returns the same value. Zod's encode is ~15× slower
 * than its parse even for a plain number, and most results are plain.
 */
export function encodesAsParsed(schema: z.ZodType): boolean {
  const known = sameBothWaysCache.get(schema);
  if (known !== undefined) return known;
  sameBothWaysCache.set(schema, true); // a lazy schema that refers to itself adds nothing new
  const answer = walkSameBothWays(schema);
  sameBothWaysCache.set(schema, answer);
  return answer;
}

function walkSameBothWays(schema: z.ZodType): boolean {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (!SAME_BOTH_WAYS.has(def.type)) return false;
  const inner: unknown[] = [];
  switch (def.type) {
    case 'object':
      inner.push(...Object.values(def.shape as Record<string, unknown>), def.catchall);
      break;
    case 'array':
      inner.push(def.element);
      break;
    case 'tuple':
      inner.push(...(def.items as unknown[]), def.rest);
      break;
    case 'record':
      inner.push(def.keyType, def.valueType);
      break;
    case 'union':
      inner.push(...(def.options as unknown[]));
      break;
    case 'intersection':
      inner.push(def.left, def.right);
      break;
    case 'optional':
    case 'nullable':
    case 'nonoptional':
      inner.push(def.innerType);
      break;
    case 'lazy':
      inner.push((def.getter as () => unknown)());
      break;
  }
  return inner.every((s) => s === undefined || s === null || encodesAsParsed(s as z.ZodType));
}

/** Turns a handler's return value into JSON; `undefined` becomes `null`. */
export function encodeResult(
  method: RpcMethod,
  value: unknown,
): { ok: true; json: unknown } | { ok: false; error: string } {
  const result = encodesAsParsed(method.result)
    ? method.result.safeParse(value)
    : z.safeEncode(method.result, value);
  if (!result.success) return { ok: false, error: z.prettifyError(result.error) };
  return { ok: true, json: result.data === undefined ? null : result.data };
}

export class MethodRegistry {
  private readonly methods = new Map<string, RpcMethod>();

  add(...methods: RpcMethod[]): this {
    for (const m of methods) {
      if (this.methods.has(m.fullName)) throw new Error(`method ${m.fullName} is declared twice`);
      this.methods.set(m.fullName, m);
    }
    return this;
  }

  get(fullName: string): RpcMethod | undefined {
    return this.methods.get(fullName);
  }

  /** The methods served on one port, sorted by name. */
  forPort(port: PortKind): RpcMethod[] {
    const namespaces: readonly Namespace[] = PORT_NAMESPACES[port];
    return [...this.methods.values()]
      .filter((m) => namespaces.includes(m.namespace))
      .sort((a, b) => a.fullName.localeCompare(b.fullName));
  }

  all(): RpcMethod[] {
    return [...this.methods.values()];
  }

  /** Gives each method its recorded examples (by full name); methods without any keep none. */
  withExamples(examples: Readonly<Record<string, readonly MethodExample[]>>): this {
    for (const [name, method] of this.methods) {
      const recorded = examples[name];
      if (recorded !== undefined) this.methods.set(name, { ...method, examples: recorded });
    }
    return this;
  }
}

type Handler<Ps extends readonly ParamSpec[], R extends z.ZodType> = MethodSpec<Ps, R>['handler'];

/** Whether `A` may stand where `B` is expected and `B` where `A` is: the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * How one namespace's twin differs from the method as declared: its own words, and its own params,
 * result or handler. A twin whose params decode to the same values, and whose result encodes the
 * same values, keeps the shared handler (e.g. node_'s block number where svc_ takes a reference
 * block: both are a BlockRef); any other change to params or result brings its own handler.
 */
export type TwinOverride<
  Ps extends readonly ParamSpec[],
  R extends z.ZodType,
  Po extends readonly ParamSpec[],
  Ro extends z.ZodType,
> = {
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly resultName?: string;
  readonly params?: Po;
  readonly result?: Ro;
  readonly errors?: readonly MethodError[];
} & (Same<ParamValues<Po>, ParamValues<Ps>> extends true
  ? Same<z.output<Ro>, z.output<R>> extends true
    ? { readonly handler?: Handler<Po, Ro> }
    : { readonly handler: Handler<Po, Ro> }
  : { readonly handler: Handler<Po, Ro> });

/**
 * Declares the same method in several namespaces: the current set's (svc_) and its earlier twin
 * (node_), or svcAdmin_ and nodeAdmin_. Every twin is declared this way, so where the twins
 * differ is written beside what they share: `overrides` gives a namespace its own summary,
 * params, result or handler (one params and result shape for all the overrides of a call).
 */
export function defineMethods<
  const Ps extends readonly ParamSpec[],
  R extends z.ZodType,
  const Po extends readonly ParamSpec[] = Ps,
  Ro extends z.ZodType = R,
>(
  namespaces: readonly Namespace[],
  spec: Omit<MethodSpec<Ps, R>, 'namespace'>,
  overrides: { readonly [N in Namespace]?: TwinOverride<Ps, R, Po, Ro> } = {},
): RpcMethod[] {
  for (const namespace of Object.keys(overrides)) {
    if (!namespaces.includes(namespace as Namespace)) {
      throw new Error(`${spec.name}: an override for ${namespace}, where the method is not declared`);
    }
  }
  return namespaces.map((namespace): RpcMethod => {
    const override = overrides[namespace];
    if (override === undefined) {
      return { ...defineMethod<Ps, R>({ ...spec, namespace }), declaredIn: namespaces };
    }
    const given = Object.fromEntries(Object.entries(override).filter(([, value]) => value !== undefined));
    // The override's type has checked that the handler fits the params and result it ends up with.
    const twin = { ...spec, ...given, namespace } as MethodSpec<readonly ParamSpec[], z.ZodType>;
    return { ...defineMethod(twin), declaredIn: namespaces };
  });
}
