// The txs methods as declared, without their handlers (src/api/txs.ts adds them).
// Transaction and fee methods of both sets (svc_ current, node_ earlier).
import { z } from 'zod';
import { txHash } from '../../core/codecs.js';
import { method, twins } from './declare.js';
import { MEMPOOL_FULL, TX_KNOWN, TX_MINED, TX_REJECTED } from './errors.js';
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

export const pendingLimit = z
  .number()
  .int()
  .min(1, 'limit is at least 1')
  .max(MAX_RPC_TXS, `at most ${MAX_RPC_TXS} pending txs per call`);

export const txsDeclarations = {
  sendTx: twins(['svc', 'node'], {
    name: 'sendTx',
    summary: 'Validates a tx and adds it to the mempool (-32003 with every reason when invalid)',
    params: [{ name: 'tx', schema: tx }],
    resultName: 'result',
    result: voidResult,
    errors: [TX_REJECTED, TX_KNOWN, TX_MINED, MEMPOOL_FULL],
  }),
  isValidTx: twins(['svc', 'node'], {
    name: 'isValidTx',
    summary: 'Whether the tx is valid for inclusion at the current state, with every failed check',
    params: [
      { name: 'tx', schema: tx },
      { name: 'options', schema: isValidTxOptions, optional: true },
    ],
    resultName: 'validation',
    result: txValidationResult,
  }),
  getPendingTxCount: twins(['svc', 'node'], {
    name: 'getPendingTxCount',
    summary: 'How many txs are pending in the mempool',
    params: [],
    resultName: 'count',
    result: z.number().int(),
  }),
  getTxEffect: twins(['svc', 'node'], {
    name: 'getTxEffect',
    summary: 'The effect of a mined tx with its block, or null (svc_: deprecated, use getTxReceipt)',
    params: [{ name: 'txHash', schema: txHash }],
    resultName: 'txEffect',
    result: indexedTxEffect.optional(),
  }),
  getTxReceipt: twins(
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
    },
    {
      node: {
        summary: 'The receipt: status mined, pending or dropped',
        params: [{ name: 'txHash', schema: txHash }],
        result: txReceiptEarlier,
      },
    },
  ),
  getTxByHash: twins(
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
    },
    {
      node: {
        summary: 'A pending tx, or null',
        params: [{ name: 'txHash', schema: txHash }],
      },
    },
  ),
  svc_getTxsByHash: method({
    namespace: 'svc',
    name: 'getTxsByHash',
    summary: `The pending txs among up to ${MAX_RPC_TXS} hashes; proofs only with includeProof`,
    params: [
      {
        name: 'txHashes',
        schema: z.array(txHash).max(MAX_RPC_TXS, `at most ${MAX_RPC_TXS} tx hashes per call`),
        description: `The tx hashes, at most ${MAX_RPC_TXS}`,
      },
      { name: 'options', schema: getTxByHashOptions, optional: true },
    ],
    resultName: 'txs',
    result: z.array(tx),
  }),
  getPendingTxs: twins(
    ['svc', 'node'],
    {
      name: 'getPendingTxs',
      summary: `Pending txs in priority order, up to limit (default and max ${MAX_RPC_TXS}), after a given tx`,
      params: [
        {
          name: 'limit',
          schema: pendingLimit,
          optional: true,
          description: `How many txs at most, 1 to ${MAX_RPC_TXS} (default ${MAX_RPC_TXS})`,
        },
        { name: 'after', schema: txHash, optional: true },
        { name: 'options', schema: getTxByHashOptions, optional: true },
      ],
      resultName: 'txs',
      result: z.array(tx),
    },
    {
      node: {
        summary: `Pending txs in priority order, limit 1 to ${MAX_RPC_TXS} (default ${MAX_RPC_TXS}), after a given tx`,
        params: [
          {
            name: 'limit',
            schema: pendingLimit,
            optional: true,
            description: `How many txs at most, 1 to ${MAX_RPC_TXS} (default ${MAX_RPC_TXS})`,
          },
          { name: 'after', schema: txHash, optional: true },
        ],
      },
    },
  ),
  simulatePublicCalls: twins(
    ['svc', 'node'],
    {
      name: 'simulatePublicCalls',
      summary: 'Runs the tx on a fork of the latest state; overrides apply to the fork only',
      params: [
        { name: 'tx', schema: tx },
        {
          name: 'skipFeeEnforcement',
          schema: z.boolean(),
          optional: true,
          description:
            "Simulate at zero gas fees, without checking the max fees per gas or the fee payer's balance (default false)",
        },
        { name: 'overrides', schema: simulationOverrides, optional: true },
      ],
      resultName: 'output',
      result: svcPublicSimulationOutput,
      errors: [TX_REJECTED],
    },
    {
      node: {
        summary: 'Runs the public part of the tx on a fork of the latest state',
        params: [
          { name: 'tx', schema: tx },
          {
            name: 'skipFeeEnforcement',
            schema: z.boolean(),
            optional: true,
            description:
              "Simulate at zero gas fees, without checking the max fees per gas or the fee payer's balance (default false)",
          },
        ],
        result: publicSimulationOutput,
      },
    },
  ),
  svc_getCurrentMinFees: method({
    namespace: 'svc',
    name: 'getCurrentMinFees',
    summary: 'The min fees per gas a tx must pay to enter the next block',
    params: [],
    resultName: 'fees',
    result: gasFees,
  }),
  node_getCurrentBaseFees: method({
    namespace: 'node',
    name: 'getCurrentBaseFees',
    summary: 'The min fees per gas a tx must pay to enter the next block',
    params: [],
    resultName: 'fees',
    result: gasFees,
  }),
  svc_getPredictedMinFees: method({
    namespace: 'svc',
    name: 'getPredictedMinFees',
    summary: 'Current min fees, then one entry per predicted slot, for a mana usage (default target)',
    params: [{ name: 'manaUsage', schema: manaUsageEstimate, optional: true }],
    resultName: 'fees',
    result: z.array(gasFees),
  }),
  svc_getMaxPriorityFees: method({
    namespace: 'svc',
    name: 'getMaxPriorityFees',
    summary: 'The priority fees per gas of the best pending tx (zero when the mempool is empty)',
    params: [],
    resultName: 'fees',
    result: gasFees,
  }),
} as const;
