// JSON-RPC calls to a cairn node, and `prepareTx`, which builds a valid tx for the node's chain —
// anchored on its latest block, with its chain id, rollup version and current min fees — from the
// side effects asked for.
import { z } from 'zod';
import { gasFees } from '../core/block-codecs.js';
import type { GasFees } from '../core/block-header.js';
import { toHex32 } from '../core/field.js';
import { computeTxHash, MAX_TX_LIFETIME, type Tx } from '../core/tx.js';
import { buildTx, type TxSpec } from '../core/tx-builder.js';
import { encodeWireTx } from '../core/tx-codecs.js';

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
  /** `headers` go with every request, e.g. `{ 'x-api-key': key }` for an admin port with a key. */
  constructor(
    readonly url: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const response = await fetch(this.url, {
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
    const wire = toWire(tx);
    await this.call('svc_sendTx', [wire]);
    return wire.txHash as string;
  }
}

/** The JSON form of a tx, with its hash. */
export function toWire(tx: Tx): Record<string, unknown> & { txHash: string } {
  return encodeWireTx(tx, computeTxHash(tx.data)) as Record<string, unknown> & { txHash: string };
}

/** What prepareTx needs from the caller: the tx spec without the chain-specific parts. */
export type PreparedTxSpec = Omit<
  TxSpec,
  'anchorBlockHash' | 'chainId' | 'version' | 'expirationTimestamp' | 'maxFeesPerGas'
> &
  Partial<Pick<TxSpec, 'anchorBlockHash' | 'expirationTimestamp' | 'maxFeesPerGas'>> & {
    /** Max fees per gas as a multiple of the current min fees (default 2: room for fees to rise). */
    feeHeadroom?: bigint;
  };

/** Builds a tx for the node's chain: anchored on its latest block, paying its current fees. */
export async function prepareTx(
  client: NodeClient,
  spec: PreparedTxSpec,
): Promise<{ tx: Tx; hash: string; wire: Record<string, unknown> }> {
  const [info, tips, minFeesWire, l1Time] = await Promise.all([
    client.call<{ l1ChainId: number; rollupVersion: number }>('svc_getNodeInfo'),
    client.call<{ proposed: { number: number; hash: string } }>('svc_getChainTips'),
    client.call<unknown>('svc_getCurrentMinFees'),
    client.call<string | null>('svc_getSyncedL1Timestamp'),
  ]);
  const minFees: GasFees = z.decode(gasFees, minFeesWire as z.input<typeof gasFees>);
  const headroom = spec.feeHeadroom ?? 2n;
  const now = l1Time === null ? BigInt(Math.floor(Date.now() / 1000)) : BigInt(l1Time);
  const { feeHeadroom: _h, ...rest } = spec;
  const { tx, hash } = buildTx({
    ...rest,
    anchorBlockHash: spec.anchorBlockHash ?? BigInt(tips.proposed.hash),
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
