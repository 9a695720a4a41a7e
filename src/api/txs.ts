// Transaction and fee methods of both sets (svc_ current, node_ earlier).
import { z } from 'zod';
import { txHash } from '../core/codecs.js';
import type { Fr } from '../core/field.js';
import { type Tx, withoutProof } from '../core/tx.js';
import { toTx, type WireTx } from '../core/tx-codecs.js';
import type { TxService } from '../mempool/tx-service.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';
import { voidResult } from './schemas.js';
import {
  gasFees,
  getTxByHashOptions,
  getTxReceiptOptions,
  indexedTxEffect,
  isValidTxOptions,
  MAX_RPC_TXS,
  manaUsageEstimate,
  publicSimulationOutput,
  simulationOverrides,
  svcPublicSimulationOutput,
  tx,
  txReceipt,
  txReceiptEarlier,
  txValidationResult,
} from './tx-schemas.js';

const pendingLimit = z
  .number()
  .int()
  .min(1, 'limit is at least 1')
  .max(MAX_RPC_TXS, `at most ${MAX_RPC_TXS} pending txs per call`);

/** What the tx methods call: the tx service's admission, pool, receipt and fee members. */
export interface TxApiPorts {
  txs: Pick<
    TxService,
    | 'sendTx'
    | 'isValidTx'
    | 'pendingCount'
    | 'getTxEffect'
    | 'getTxReceipt'
    | 'getPendingTx'
    | 'getPendingTxs'
    | 'simulatePublicCalls'
    | 'currentMinFees'
    | 'predictedMinFees'
    | 'maxPriorityFees'
  >;
}

export function txMethods({ txs }: TxApiPorts): RpcMethod[] {
  /** A tx as returned: with its hash, its proof only when asked. */
  const out = (t: Tx, hash: Fr, includeProof = false): WireTx =>
    ({ txHash: hash, ...(includeProof ? t : withoutProof(t)) }) as WireTx;
  const pendingTxs = (limit: number, after: Fr | undefined, includeProof?: boolean) =>
    txs.getPendingTxs(limit, after).map((e) => out(e.tx, e.hash, includeProof));

  return [
    ...defineMethods(['svc', 'node'], {
      name: 'sendTx',
      summary: 'Validates a tx and adds it to the mempool (-32003 with every reason when invalid)',
      params: [{ name: 'tx', schema: tx }],
      resultName: 'result',
      result: voidResult,
      handler: async (wire) => {
        const { tx: t, claimedHash } = toTx(wire);
        await txs.sendTx(t, claimedHash);
      },
    }),
    ...defineMethods(['svc', 'node'], {
      name: 'isValidTx',
      summary: 'Whether the tx is valid for inclusion at the current state, with every failed check',
      params: [
        { name: 'tx', schema: tx },
        { name: 'options', schema: isValidTxOptions, optional: true },
      ],
      resultName: 'validation',
      result: txValidationResult,
      handler: (wire, options) => {
        const { tx: t, claimedHash } = toTx(wire);
        return txs.isValidTx(t, claimedHash, options ?? {});
      },
    }),
    ...defineMethods(['svc', 'node'], {
      name: 'getPendingTxCount',
      summary: 'How many txs are pending in the mempool',
      params: [],
      resultName: 'count',
      result: z.number().int(),
      handler: () => txs.pendingCount,
    }),
    ...defineMethods(['svc', 'node'], {
      name: 'getTxEffect',
      summary: 'The effect of a mined tx with its block, or null (svc_: deprecated, use getTxReceipt)',
      params: [{ name: 'txHash', schema: txHash }],
      resultName: 'txEffect',
      result: indexedTxEffect.optional(),
      handler: (hash) => txs.getTxEffect(hash),
    }),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getTxReceipt',
        summary: 'The receipt: mined (with its tip status), pending, or dropped',
        params: [
          { name: 'txHash', schema: txHash },
          { name: 'options', schema: getTxReceiptOptions, optional: true },
        ],
        resultName: 'receipt',
        result: txReceipt,
        handler: (hash, options) => {
          const receipt = txs.getTxReceipt(hash, options ?? {});
          if (receipt.status !== 'pending') return receipt;
          const { tx: pending, ...rest } = receipt;
          return pending ? { ...rest, tx: out(pending, hash, options?.includeProof) } : rest;
        },
      },
      // The earlier receipt: no options, no tip status, an error string in every status.
      {
        node: {
          summary: 'The receipt: status mined, pending or dropped',
          params: [{ name: 'txHash', schema: txHash }],
          result: txReceiptEarlier,
          handler: (hash) => {
            const r = txs.getTxReceipt(hash);
            if (r.status === 'pending') return { txHash: hash, status: 'pending' as const, error: '' };
            if (r.status === 'dropped') return { txHash: hash, status: 'dropped' as const, error: r.error };
            return {
              txHash: hash,
              status: 'mined' as const,
              error: r.error ?? '',
              executionResult: r.executionResult,
              transactionFee: r.transactionFee,
              blockHash: r.blockHash,
              blockNumber: r.blockNumber,
            };
          },
        },
      },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getTxByHash',
        summary: 'A pending tx, or null; its proof only with includeProof',
        params: [
          { name: 'txHash', schema: txHash },
          { name: 'options', schema: getTxByHashOptions, optional: true },
        ],
        resultName: 'tx',
        result: tx.optional(),
        handler: (hash, options) => {
          const t = txs.getPendingTx(hash);
          return t && out(t, hash, options?.includeProof);
        },
      },
      // The earlier set takes no options: never a proof.
      {
        node: {
          summary: 'A pending tx, or null',
          params: [{ name: 'txHash', schema: txHash }],
          handler: (hash) => {
            const t = txs.getPendingTx(hash);
            return t && out(t, hash);
          },
        },
      },
    ),
    defineMethod({
      namespace: 'svc',
      name: 'getTxsByHash',
      summary: `The pending txs among up to ${MAX_RPC_TXS} hashes; proofs only with includeProof`,
      params: [
        {
          name: 'txHashes',
          schema: z.array(txHash).max(MAX_RPC_TXS, `at most ${MAX_RPC_TXS} tx hashes per call`),
        },
        { name: 'options', schema: getTxByHashOptions, optional: true },
      ],
      resultName: 'txs',
      result: z.array(tx),
      handler: (hashes, options) =>
        hashes.flatMap((h) => {
          const t = txs.getPendingTx(h);
          return t ? [out(t, h, options?.includeProof)] : [];
        }),
    }),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getPendingTxs',
        summary: `Pending txs in priority order, up to limit (default and max ${MAX_RPC_TXS}), after a given tx`,
        params: [
          { name: 'limit', schema: pendingLimit, optional: true },
          { name: 'after', schema: txHash, optional: true },
          { name: 'options', schema: getTxByHashOptions, optional: true },
        ],
        resultName: 'txs',
        result: z.array(tx),
        handler: (limit, after, options) => pendingTxs(limit ?? MAX_RPC_TXS, after, options?.includeProof),
      },
      // The earlier set takes no options: never a proof.
      {
        node: {
          summary: `Pending txs in priority order, limit 1 to ${MAX_RPC_TXS} (default ${MAX_RPC_TXS}), after a given tx`,
          params: [
            { name: 'limit', schema: pendingLimit, optional: true },
            { name: 'after', schema: txHash, optional: true },
          ],
          handler: (limit, after) => pendingTxs(limit ?? MAX_RPC_TXS, after),
        },
      },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'simulatePublicCalls',
        summary: 'Runs the tx on a fork of the latest state; overrides apply to the fork only',
        params: [
          { name: 'tx', schema: tx },
          { name: 'skipFeeEnforcement', schema: z.boolean(), optional: true },
          { name: 'overrides', schema: simulationOverrides, optional: true },
        ],
        resultName: 'output',
        result: svcPublicSimulationOutput,
        handler: async (wire, skip, overrides) => {
          const output = await txs.simulatePublicCalls(toTx(wire).tx, skip ?? false, overrides ?? {});
          return { ...output, transactionFee: output.txEffect.transactionFee };
        },
      },
      // The earlier set takes no state overrides, and its output is the reference's shape, without
      // the top-level transactionFee.
      {
        node: {
          summary: 'Runs the public part of the tx on a fork of the latest state',
          params: [
            { name: 'tx', schema: tx },
            { name: 'skipFeeEnforcement', schema: z.boolean(), optional: true },
          ],
          result: publicSimulationOutput,
          handler: (wire, skip) => txs.simulatePublicCalls(toTx(wire).tx, skip ?? false),
        },
      },
    ),
    defineMethod({
      namespace: 'svc',
      name: 'getCurrentMinFees',
      summary: 'The min fees per gas a tx must pay to enter the next block',
      params: [],
      resultName: 'fees',
      result: gasFees,
      handler: () => txs.currentMinFees(),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getCurrentBaseFees',
      summary: 'The min fees per gas a tx must pay to enter the next block',
      params: [],
      resultName: 'fees',
      result: gasFees,
      handler: () => txs.currentMinFees(),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getPredictedMinFees',
      summary: 'Current min fees, then one entry per predicted slot, for a mana usage (default target)',
      params: [{ name: 'manaUsage', schema: manaUsageEstimate, optional: true }],
      resultName: 'fees',
      result: z.array(gasFees),
      handler: (usage) => txs.predictedMinFees(usage ?? 'target'),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getMaxPriorityFees',
      summary: 'The priority fees per gas of the best pending tx (zero when the mempool is empty)',
      params: [],
      resultName: 'fees',
      result: gasFees,
      handler: () => txs.maxPriorityFees(),
    }),
  ];
}
