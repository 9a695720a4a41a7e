// How a method is declared as data: everything but its handler — names, params with their zod
// schemas, result schema, words for the OpenRPC document. src/api adds the handlers (defineMethod,
// defineMethods) and serves them; the typed client reads the same objects at the type level, so a
// method's params and result cannot differ between the node and its client.

import type { z } from 'zod';
import type { MethodDeclaration, MethodError, Namespace, ParamSpec } from '../../rpc/registry.js';

/** A twin's differences, as defineMethods' override takes them, without the handler. */
export interface TwinDeclarationOverride {
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly resultName?: string;
  readonly params?: readonly ParamSpec[];
  readonly result?: z.ZodType;
  readonly errors?: readonly MethodError[];
}

/** One method in several namespaces: defineMethods' arguments without the handlers. */
export interface TwinsDeclaration {
  readonly namespaces: readonly Namespace[];
  readonly spec: Omit<MethodDeclaration, 'namespace'>;
  readonly overrides: { readonly [N in Namespace]?: TwinDeclarationOverride };
}

/** Declares a method in one namespace; keeps the params as a tuple for the types. */
export function method<const D extends MethodDeclaration>(declaration: D): D {
  return declaration;
}

/** Declares a method in several namespaces, with per-namespace overrides (its twins). */
export function twins<
  const N extends readonly Namespace[],
  const S extends Omit<MethodDeclaration, 'namespace'>,
  const O extends { readonly [K in N[number]]?: TwinDeclarationOverride } = Record<never, never>,
>(
  namespaces: N,
  spec: S,
  overrides: O = {} as O,
): { readonly namespaces: N; readonly spec: S; readonly overrides: O } {
  return { namespaces, spec, overrides };
}
