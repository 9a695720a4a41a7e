// Errors that node components throw when they refuse a request. They carry a kind,
// not a JSON-RPC code: the rpc layer maps kinds to codes (docs/rpc.md, "Errors"), so components
// stay independent of the transport.

export type NodeErrorKind =
  /** The request is well formed but refused by the node's state (-32000). */
  | 'refused'
  /** The feature is unavailable: P2P off, no sequencer, validators disabled (-32002). */
  | 'unavailable'
  /** A transaction failed validation; `data.reasons` lists every failed check (-32003). */
  | 'tx-rejected'
  /** A rate or size limit was hit (-32005). */
  | 'limit'
  /** A parameter is invalid in a way only the component can tell (-32602). */
  | 'invalid-params';

export class NodeError extends Error {
  readonly kind: NodeErrorKind;
  readonly data: unknown;

  constructor(kind: NodeErrorKind, message: string, data?: unknown) {
    super(message);
    this.name = 'NodeError';
    this.kind = kind;
    this.data = data;
  }
}

export const refused = (message: string, data?: unknown) => new NodeError('refused', message, data);
export const unavailable = (message: string, data?: unknown) => new NodeError('unavailable', message, data);
export const invalidParams = (message: string, data?: unknown) =>
  new NodeError('invalid-params', message, data);
export const limitHit = (message: string, data?: unknown) => new NodeError('limit', message, data);
export const txRejected = (reasons: string[]) =>
  new NodeError('tx-rejected', `Invalid tx: ${reasons.join(', ')}`, { reasons });
