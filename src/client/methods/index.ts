// Every method the node serves, as the client sees it: the declarations of all topics, and the
// type-level map from a method's full name to its params and result in their wire (JSON) form,
// read off the same zod schemas the node decodes params and encodes results with.
import type { z } from 'zod';
import type { MethodDeclaration } from '../../rpc/registry.js';
import { adminDeclarations } from './admin.js';
import { callsDeclarations } from './calls.js';
import { chainDeclarations } from './chain.js';
import { contractsDeclarations } from './contracts.js';
import type { TwinsDeclaration } from './declare.js';
import { devDeclarations } from './dev.js';
import { infoDeclarations } from './info.js';
import { logsDeclarations } from './logs.js';
import { messagesDeclarations } from './messages.js';
import { stateDeclarations } from './state.js';
import { txsDeclarations } from './txs.js';
import { validatorsDeclarations } from './validators.js';

/** Each topic's declarations, as src/api serves them. */
export const DECLARATIONS = [
  infoDeclarations,
  callsDeclarations,
  chainDeclarations,
  txsDeclarations,
  validatorsDeclarations,
  stateDeclarations,
  logsDeclarations,
  contractsDeclarations,
  messagesDeclarations,
  adminDeclarations,
  devDeclarations,
] as const;

type Declarations = (typeof DECLARATIONS)[number];
type ValuesOf<T> = T extends unknown ? T[keyof T] : never;
type AnyDeclaration = ValuesOf<Declarations>;

/**
 * A param list as the client sends it: each param's schema input (what the node decodes), the
 * optional ones (always trailing) optional.
 */
export type WireParams<Ps> = Ps extends readonly [infer P, ...infer Rest]
  ? P extends { readonly schema: infer S extends z.ZodType; readonly optional: true }
    ? [param?: z.input<S>, ...WireParams<Rest>]
    : P extends { readonly schema: infer S extends z.ZodType }
      ? [param: z.input<S>, ...WireParams<Rest>]
      : never
  : [];

/**
 * A result as the client receives it: the node encodes the handler's value with the result
 * schema (src/rpc/registry.ts, encodeResult), which gives the schema's input type, and sends
 * `undefined` as `null`.
 */
export type WireResult<R extends z.ZodType> =
  undefined extends z.input<R> ? Exclude<z.input<R>, undefined> | null : z.input<R>;

interface Entry<Ps, R extends z.ZodType> {
  params: WireParams<Ps>;
  result: WireResult<R>;
}

type Field<O, K, F extends string> = K extends keyof O
  ? F extends keyof O[K]
    ? O[K][F]
    : undefined
  : undefined;
type Or<A, B> = [A] extends [undefined] ? B : A;

type TwinEntries<D extends TwinsDeclaration> = {
  [N in D['namespaces'][number] as `${N}_${D['spec']['name']}`]: Entry<
    Or<Field<D['overrides'], N, 'params'>, D['spec']['params']>,
    Or<Field<D['overrides'], N, 'result'>, D['spec']['result']> & z.ZodType
  >;
};
type OneEntry<D extends MethodDeclaration> = {
  [K in `${D['namespace']}_${D['name']}`]: Entry<D['params'], D['result']>;
};
type EntriesOf<D> = D extends TwinsDeclaration
  ? TwinEntries<D>
  : D extends MethodDeclaration
    ? OneEntry<D>
    : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type Flatten<T> = { [K in keyof T]: T[K] };

/** Every served method by full name (`svc_getBlock`): its params and result on the wire. */
export type MethodMap = Flatten<UnionToIntersection<EntriesOf<AnyDeclaration>>>;
export type MethodName = keyof MethodMap;
export type MethodParams<M extends MethodName> = MethodMap[M]['params'];
export type MethodResult<M extends MethodName> = MethodMap[M]['result'];

/** Each declared method by full name: its params and result schema, as the node serves them. */
export function declaredMethods(): Map<MethodName, Pick<MethodDeclaration, 'params' | 'result'>> {
  const methods = new Map<MethodName, Pick<MethodDeclaration, 'params' | 'result'>>();
  for (const topic of DECLARATIONS) {
    for (const declaration of Object.values(topic) as (MethodDeclaration | TwinsDeclaration)[]) {
      if ('namespaces' in declaration) {
        for (const namespace of declaration.namespaces) {
          const override = declaration.overrides[namespace];
          methods.set(`${namespace}_${declaration.spec.name}` as MethodName, {
            params: override?.params ?? declaration.spec.params,
            result: override?.result ?? declaration.spec.result,
          });
        }
      } else {
        methods.set(`${declaration.namespace}_${declaration.name}` as MethodName, declaration);
      }
    }
  }
  return methods;
}

/** The full names of the declared methods, sorted: the keys of MethodMap, at run time. */
export function declaredMethodNames(): MethodName[] {
  return [...declaredMethods().keys()].sort();
}
