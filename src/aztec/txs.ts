// The reference API's tx methods. Receipts, effects and the pending count come from cairn's tx
// service. The methods that carry the reference's Tx itself (its private kernel output and
// proof) are served once cairn decodes that format; until then they answer an error that says
// so, and where to send txs meanwhile.
import { z } from 'zod';
import { voidResult } from '../client/methods/schemas.js';
import { txEffect } from '../core/block-codecs.js';
import { txHash, uint } from '../core/codecs.js';
import { NodeError } from '../core/errors.js';
import type { TxService } from '../mempool/tx-service.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { integer } from './params.js';
import { indexedTxEffect, txReceipt } from './schemas.js';
import { MAX_RPC_TXS_LEN } from './versions.js';

/** What the tx methods call. */
export interface AztecTxApiPorts {
  txs: Pick<TxService, 'getTxReceipt' | 'getTxEffect' | 'pendingCount'>;
}

const hash = { name: 'txHash', schema: txHash };

/** The reference's Tx on the wire, which cairn does not decode yet. */
const referenceTx = z.unknown().describe("The reference's Tx (not decoded yet)");

function txFormatNotSupported(method: string): never {
  throw new NodeError(
    'refused',
    `${method}: the reference's Tx format (private kernel output and proof) is not supported at /aztec yet; send txs with svc_sendTx at /`,
  );
}

export function aztecTxMethods({ txs }: AztecTxApiPorts): RpcMethod[] {
  const unsupported = (
    name: string,
    summary: string,
    params: { name: string; schema: z.ZodType; optional?: boolean }[],
  ) =>
    defineMethod({
      namespace: 'node',
      name,
      summary: `${summary} (the reference's Tx is not supported yet: answers an error)`,
      params,
      resultName: 'nothing',
      result: voidResult,
      handler: () => txFormatNotSupported(`node_${name}`),
    });
  return [
    defineMethod({
      namespace: 'node',
      name: 'getTxReceipt',
      summary:
        "A tx's receipt: mined (with its block, epoch, fee and result), pending, or dropped when unknown",
      params: [hash],
      resultName: 'receipt',
      result: txReceipt,
      handler: (h) => {
        const r = txs.getTxReceipt(h);
        if (r.status === 'pending') return { txHash: h, status: r.status };
        if (r.status === 'dropped') return { txHash: h, status: r.status, error: r.error };
        return {
          txHash: h,
          status: r.status,
          executionResult: r.executionResult,
          ...(r.error === undefined ? {} : { error: r.error }),
          blockHash: r.blockHash,
          blockNumber: r.blockNumber,
          epochNumber: r.epochNumber,
          transactionFee: r.transactionFee,
        };
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'getTxEffect',
      summary: "A mined tx's effect with its block and index in it (none when not mined)",
      params: [hash],
      resultName: 'txEffect',
      result: indexedTxEffect(txEffect).optional(),
      handler: (h) => txs.getTxEffect(h),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getPendingTxCount',
      summary: 'How many txs are pending in the mempool',
      params: [],
      resultName: 'count',
      result: uint,
      handler: () => txs.pendingCount,
    }),
    unsupported('sendTx', 'Submits a tx', [{ name: 'tx', schema: referenceTx }]),
    unsupported('isValidTx', 'Checks a tx', [
      { name: 'tx', schema: referenceTx },
      { name: 'options', schema: z.unknown(), optional: true },
    ]),
    unsupported('simulatePublicCalls', "Simulates a tx's public calls", [
      { name: 'tx', schema: referenceTx },
      { name: 'skipFeeEnforcement', schema: z.boolean(), optional: true },
    ]),
    unsupported('getTxByHash', 'A pending tx by hash', [hash]),
    unsupported('getTxsByHash', 'Pending txs by hash', [
      { name: 'txHashes', schema: z.array(txHash).max(MAX_RPC_TXS_LEN) },
    ]),
    unsupported('getPendingTxs', 'Pending txs, best first', [
      { name: 'limit', schema: integer(1).pipe(z.number().max(MAX_RPC_TXS_LEN)), optional: true },
      { name: 'after', schema: txHash, optional: true },
    ]),
  ];
}
