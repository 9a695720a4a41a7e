// JSON-RPC error codes (docs/rpc.md, "Errors") and the mapping from node errors to them.
import { NodeError, type NodeErrorKind } from '../core/errors.js';

export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Refused: -32000,
  Unavailable: -32002,
  TxRejected: -32003,
  LimitExceeded: -32005,
} as const;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

const CODE_OF_KIND: Record<NodeErrorKind, number> = {
  refused: RpcCode.Refused,
  unavailable: RpcCode.Unavailable,
  'tx-rejected': RpcCode.TxRejected,
  limit: RpcCode.LimitExceeded,
  'invalid-params': RpcCode.InvalidParams,
};

/** The error object for a node error, or undefined when the error is unexpected. */
export function errorObjectOf(err: unknown): RpcErrorObject | undefined {
  if (!(err instanceof NodeError)) return undefined;
  // Invalid params always carry issues (docs/rpc.md); a node error that names none is about the params.
  const data =
    err.data === undefined && err.kind === 'invalid-params'
      ? { issues: [{ path: 'params', message: err.message }] }
      : err.data;
  return {
    code: CODE_OF_KIND[err.kind],
    message: err.message,
    ...(data === undefined ? {} : { data }),
  };
}
