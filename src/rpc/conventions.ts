// How a JSON-RPC face answers beyond what the JSON-RPC 2.0 spec fixes: the codes and messages of
// refused calls, the HTTP status of an error, and whether a call without a value carries a
// `result`. cairn's own API at `/` follows docs/rpc.md; the reference node's published API at
// `/aztec` (docs/aztec-api.md) follows the reference's transport, which its stock client expects.
import type { RpcErrorObject } from './errors.js';
import { RpcCode } from './errors.js';
import type { ParamIssue } from './registry.js';

export interface WireConventions {
  /** The error for a method name this face does not serve; `elsewhere` says where it is served. */
  methodNotFound(name: string, elsewhere: string): RpcErrorObject;
  /** The error for params that do not decode. */
  invalidParams(issues: readonly ParamIssue[]): RpcErrorObject;
  /** The error for a node error a handler threw (`mapped` is cairn's error object for it). */
  nodeError(mapped: RpcErrorObject): RpcErrorObject;
  /** The error for a batch with no calls. */
  emptyBatch: RpcErrorObject;
  /** A call that has no value (void, or nothing found) leaves `result` out instead of `null`. */
  omitEmptyResult: boolean;
  /** HTTP status of an answer to a single call (not a batch) that is an error. */
  singleErrorStatus: 200 | 400;
}

/** cairn's API (docs/rpc.md). */
export const CAIRN_CONVENTIONS: WireConventions = {
  methodNotFound: (name, elsewhere) => ({
    code: RpcCode.MethodNotFound,
    message: `Method not found: ${name}${elsewhere}`,
  }),
  invalidParams(issues) {
    const first = issues[0]!;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    return {
      code: RpcCode.InvalidParams,
      message: `Invalid params: ${first.path}: ${first.message}${more}`,
      data: { issues },
    };
  },
  nodeError: (mapped) => mapped,
  emptyBatch: { code: RpcCode.InvalidRequest, message: 'Invalid Request: empty batch' },
  omitEmptyResult: false,
  singleErrorStatus: 200,
};

/** The reference's code for params its schemas refuse. */
export const REFERENCE_INVALID_INPUT = -32701;
/** The reference's code for an error its handler threw. */
export const REFERENCE_HANDLER_ERROR = -32702;

/**
 * The reference node's transport (4.1.2): errors answered with HTTP 400, refused params as
 * `-32701` with each issue's message and path, a thrown error as `-32702` with its message, and
 * void or not-found answers without a `result` key.
 */
export const REFERENCE_CONVENTIONS: WireConventions = {
  methodNotFound: (name) => ({ code: RpcCode.MethodNotFound, message: `Method not found: ${name}` }),
  invalidParams: (issues) => ({
    code: REFERENCE_INVALID_INPUT,
    message: issues.map((i) => `${i.message} (${i.path})`).join('. '),
  }),
  nodeError: (mapped) => ({
    code: REFERENCE_HANDLER_ERROR,
    message: mapped.message,
    ...(mapped.data === undefined ? {} : { data: mapped.data }),
  }),
  emptyBatch: { code: RpcCode.InvalidRequest, message: 'Invalid Request' },
  omitEmptyResult: true,
  singleErrorStatus: 400,
};
