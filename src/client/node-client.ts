// JSON-RPC calls to a cairn node — `request`, typed for every method the node serves by the same
// declarations the node serves them from (methods/) — and `prepareTx`, which builds a valid tx for
// the node's chain — anchored on its latest block, with its chain id, rollup version and current
// min fees — from the side effects asked for.
import { z } from 'zod';
import { gasFees } from '../core/block-codecs.js';
import type { BlockHeader, GasFees } from '../core/block-header.js';
import { toHex32 } from '../core/field.js';
import { computeTxHash } from '../core/kernel/tx-hash.js';
import { MAX_TX_LIFETIME, type Tx } from '../core/tx.js';
import { buildTx, type TxSpec } from '../core/tx-builder.js';
import { encodeWireTx, type tx as txSchema } from '../core/tx-codecs.js';
import { blockData } from './methods/chain-schemas.js';
import type { MethodName, MethodParams, MethodResult } from './methods/index.js';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export class NodeClient {
  private id = 0;
  /**
   * `headers` go with every request, e.g. `{ 'x-api-key': key }` for an admin port with a key.
   * `send` posts a request (the global fetch; a test may hand it to an in-process dispatcher).
   */
  constructor(
    readonly url: string,
    readonly headers: Record<string, string> = {},
    private readonly send: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  /**
   * Calls a method the node serves: its params and result are the wire (JSON) forms of the
   * schemas the node decodes the params and encodes the result with (MethodMap).
   */
  request<M extends MethodName>(method: M, ...params: MethodParams<M>): Promise<MethodResult<M>> {
    return this.call<MethodResult<M>>(method, params);
  }

  /**
   * The untyped escape hatch: any method name, any params. Kept for callers that must send what
   * the declarations do not allow — tests of the node's answers to unknown methods and bad params
   * (test/e2e) — and for a node of another version whose methods differ; everything else uses
   * `request`.
   */
  async call<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    const response = await this.send(this.url, {
      method: 'POST',
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
    });
    const body = (await response.json()) as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    };
    if (body.error) throw new RpcError(body.error.code, body.error.message, body.error.data);
    return body.result as T;
  }

  /** Submits a tx; resolves to its hash. */
  async sendTx(tx: Tx): Promise<string> {
    const hash = computeTxHash(tx.data);
    await this.request('svc_sendTx', encodeWireTx(tx, hash));
    return toHex32(hash);
  }
}

/** The JSON form of a tx, with its hash: svc_sendTx's param. */
export type WireTx = z.input<typeof txSchema> & { txHash: string };

/** The JSON form of a tx, with its hash. */
export function toWire(tx: Tx): WireTx {
  return encodeWireTx(tx, computeTxHash(tx.data)) as WireTx;
}

/** What prepareTx needs from the caller: the tx spec without the chain-specific parts. */
export type PreparedTxSpec = Omit<
  TxSpec,
  'anchorBlockHeader' | 'chainId' | 'version' | 'expirationTimestamp' | 'maxFeesPerGas'
> &
  Partial<Pick<TxSpec, 'anchorBlockHeader' | 'expirationTimestamp' | 'maxFeesPerGas'>> & {
    /** Max fees per gas as a multiple of the current min fees (default 2: room for fees to rise). */
    feeHeadroom?: bigint;
  };

function anchorHeaderOf(latest: unknown): BlockHeader {
  if (latest === undefined || latest === null)
    throw new Error('the node has no latest block to anchor a tx on');
  return z.decode(blockData, latest as z.input<typeof blockData>).header;
}

/** Builds a tx for the node's chain: anchored on its latest block, paying its current fees. */
export async function prepareTx(
  client: NodeClient,
  spec: PreparedTxSpec,
): Promise<{ tx: Tx; hash: string; wire: WireTx }> {
  const [info, latest, minFeesWire, l1Time] = await Promise.all([
    client.request('svc_getNodeInfo'),
    spec.anchorBlockHeader ? undefined : client.request('svc_getBlockData', 'latest'),
    client.request('svc_getCurrentMinFees'),
    client.request('svc_getSyncedL1Timestamp'),
  ]);
  const minFees: GasFees = z.decode(gasFees, minFeesWire);
  const headroom = spec.feeHeadroom ?? 2n;
  const now = l1Time === null ? BigInt(Math.floor(Date.now() / 1000)) : BigInt(l1Time);
  const { feeHeadroom: _h, ...rest } = spec;
  const { tx, hash } = buildTx({
    ...rest,
    anchorBlockHeader: spec.anchorBlockHeader ?? anchorHeaderOf(latest),
    chainId: info.l1ChainId,
    version: info.rollupVersion,
    // The longest lifetime a tx may have, counted from the L1 time the node has seen.
    expirationTimestamp: spec.expirationTimestamp ?? now + MAX_TX_LIFETIME,
    maxFeesPerGas: spec.maxFeesPerGas ?? {
      feePerDaGas: minFees.feePerDaGas * headroom,
      feePerL2Gas: minFees.feePerL2Gas * headroom,
    },
  });
  return { tx, hash: toHex32(hash), wire: toWire(tx) };
}
