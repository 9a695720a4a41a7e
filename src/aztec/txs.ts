// The reference API's tx methods. A tx travels in the reference's JSON form (src/core/kernel/
// tx-json.ts: the kernel output and proof as base64); it is the same tx, with the same hash, as the
// seeds' API shows in its hex form, so a tx sent at either API is found at both. Receipts, effects,
// the pool and admission are cairn's tx service's.
import { z } from 'zod';
import { globalVariables } from '../client/methods/chain-schemas.js';
import { MEMPOOL_FULL, TX_KNOWN, TX_MINED, TX_REJECTED } from '../client/methods/errors.js';
import { voidResult } from '../client/methods/schemas.js';
import { txEffect } from '../core/block-codecs.js';
import { frHex, txHash, uint } from '../core/codecs.js';
import type { Fr } from '../core/field.js';
import { KernelCodecError } from '../core/kernel/bytes.js';
import type { TxBody } from '../core/kernel/tx.js';
import { decodeTxJson, encodeTxJson, type TxJson } from '../core/kernel/tx-json.js';
import { gas } from '../core/tx-codecs.js';
import type { TxService } from '../mempool/tx-service.js';
import type { TxValidationResult } from '../mempool/validator.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { integer } from './params.js';
import { indexedTxEffect, txReceipt } from './schemas.js';
import { MAX_RPC_TXS_LEN } from './versions.js';

/** What the tx methods call. */
export interface AztecTxApiPorts {
  txs: Pick<
    TxService,
    | 'getTxReceipt'
    | 'getTxEffect'
    | 'pendingCount'
    | 'sendTx'
    | 'isValidTx'
    | 'simulatePublicCalls'
    | 'getPendingTx'
    | 'getPendingTxs'
  >;
  /**
   * Resolves when a sent tx's receipt is worth asking for: with the instant clock, once its block
   * is checkpointed (so the wallet's first receipt poll finds it, as anvil's automine answers a
   * send once mined); at once otherwise.
   */
  untilIncluded?: (hash: Fr) => Promise<void>;
}

const hash = { name: 'txHash', schema: txHash };

const TX_PARAM = "The tx in the reference's JSON form: its kernel output and proof as base64";

/** A tx with the hash it claims, as decoded from the reference's JSON form. */
interface ClaimedTx {
  body: TxBody;
  txHash: Fr | undefined;
}

const fieldHex = z.string().describe('Field element: 0x + hex');

/** The reference's Tx on the wire; its members are checked by the kernel codec, which names the bad one. */
const referenceTxJson = z
  .object({
    txHash: fieldHex.optional(),
    data: z.string().describe('PrivateKernelTailCircuitPublicInputs, base64 of its binary form'),
    chonkProof: z.string().describe('ChonkProof, base64 of its binary form'),
    contractClassLogFields: z.array(z.object({ fields: z.array(fieldHex) })),
    publicFunctionCalldata: z.array(z.object({ values: z.array(fieldHex), hash: fieldHex })),
  })
  .describe("Tx: the reference's form (kernel output and proof as base64)");

const referenceTxParam = z.codec(referenceTxJson, z.custom<ClaimedTx>(), {
  decode: (json, ctx) => {
    try {
      return decodeTxJson(json);
    } catch (err) {
      if (!(err instanceof KernelCodecError)) throw err;
      ctx.issues.push({ code: 'custom', message: err.message, input: json });
      return z.NEVER;
    }
  },
  encode: () => {
    throw new TypeError('a tx param is never encoded');
  },
});

/** A tx as returned: the reference's JSON form with its hash (and proof: the reference keeps it). */
const referenceTxResult = z.codec(referenceTxJson, z.custom<{ tx: TxBody; hash: Fr }>(), {
  decode: () => {
    throw new TypeError('a tx result is never decoded here');
  },
  encode: ({ tx, hash }): z.input<typeof referenceTxJson> => encodeTxJson({ txHash: hash, ...tx }) as TxJson,
});

const validationResult = z
  .union([
    z.object({ result: z.literal('valid') }),
    z.object({ result: z.enum(['invalid', 'skipped']), reason: z.array(z.string()) }),
  ])
  .describe("TxValidationResult: valid, or invalid / skipped with the reasons (the reference's texts)");

/** The reference's PublicSimulationOutput: a revert is a SimulationError, return values nest. */
const referenceSimulationOutput = z
  .object({
    revertReason: z
      .object({
        originalMessage: z.string(),
        functionErrorStack: z.array(z.never()),
        revertData: z.array(frHex),
      })
      .optional(),
    globalVariables,
    txEffect,
    publicReturnValues: z.array(z.object({ values: z.array(frHex), nested: z.array(z.never()) })),
    gasUsed: z.object({ totalGas: gas, teardownGas: gas, publicGas: gas, billedGas: gas }),
    debugLogs: z.array(z.never()),
  })
  .describe('PublicSimulationOutput: what the public part of the tx did on a fork of the latest state');

export function aztecTxMethods({ txs, untilIncluded }: AztecTxApiPorts): RpcMethod[] {
  const pending = (hashes: readonly Fr[]) =>
    hashes.flatMap((h) => {
      const t = txs.getPendingTx(h, true);
      return t ? [{ tx: t, hash: h }] : [];
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
    defineMethod({
      namespace: 'node',
      name: 'sendTx',
      summary: 'Submits a tx to the mempool (refused with the reasons when it is not valid)',
      params: [{ name: 'tx', schema: referenceTxParam, description: TX_PARAM }],
      resultName: 'nothing',
      result: voidResult,
      errors: [TX_REJECTED, TX_KNOWN, TX_MINED, MEMPOOL_FULL],
      handler: async ({ body, txHash: claimed }) => {
        const hash = await txs.sendTx(body, claimed);
        await untilIncluded?.(hash);
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'isValidTx',
      summary: 'Checks a tx as admission would, without adding it',
      params: [
        { name: 'tx', schema: referenceTxParam, description: TX_PARAM },
        {
          name: 'options',
          schema: z
            .object({ isSimulation: z.boolean().optional(), skipFeeEnforcement: z.boolean().optional() })
            .describe('isSimulation: skip the proof check; skipFeeEnforcement: skip fee and balance checks'),
          optional: true,
        },
      ],
      resultName: 'result',
      result: validationResult,
      handler: ({ body, txHash: claimed }, options): Promise<TxValidationResult> =>
        txs.isValidTx(body, claimed, options ?? {}),
    }),
    defineMethod({
      namespace: 'node',
      name: 'simulatePublicCalls',
      summary: "Runs the tx's public part on a fork of the latest state",
      params: [
        { name: 'tx', schema: referenceTxParam, description: TX_PARAM },
        {
          name: 'skipFeeEnforcement',
          schema: z.boolean(),
          optional: true,
          description:
            "Simulate at zero gas fees, without checking the max fees per gas or the fee payer's balance (default false)",
        },
      ],
      resultName: 'output',
      result: referenceSimulationOutput,
      errors: [TX_REJECTED],
      handler: async ({ body }, skip) => {
        const out = await txs.simulatePublicCalls(body, skip ?? false, {}, 'structure');
        const { revertReason, revertData, ...rest } = out;
        return {
          ...rest,
          ...(revertReason === undefined
            ? {}
            : {
                revertReason: {
                  originalMessage: revertReason,
                  functionErrorStack: [],
                  revertData: revertData ?? [],
                },
              }),
          publicReturnValues: out.publicReturnValues.map((r) => ({ values: r.values, nested: [] })),
        };
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'getTxByHash',
      summary: 'A pending tx by hash (none when it is not pending)',
      params: [hash],
      resultName: 'tx',
      result: referenceTxResult.optional(),
      handler: (h) => pending([h])[0],
    }),
    defineMethod({
      namespace: 'node',
      name: 'getTxsByHash',
      summary: 'The pending txs among these hashes',
      params: [
        {
          name: 'txHashes',
          schema: z.array(txHash).max(MAX_RPC_TXS_LEN),
          description: `The tx hashes, at most ${MAX_RPC_TXS_LEN}`,
        },
      ],
      resultName: 'txs',
      result: z.array(referenceTxResult),
      handler: (hashes) => pending(hashes),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getPendingTxs',
      summary: 'Pending txs, best first, after a given one',
      params: [
        {
          name: 'limit',
          schema: integer(1).pipe(z.number().max(MAX_RPC_TXS_LEN)),
          optional: true,
          description: `How many txs at most, up to ${MAX_RPC_TXS_LEN}`,
        },
        { name: 'after', schema: txHash, optional: true },
      ],
      resultName: 'txs',
      result: z.array(referenceTxResult),
      handler: (limit, after) =>
        pending(txs.getPendingTxs(limit ?? MAX_RPC_TXS_LEN, after).map((e) => e.hash)),
    }),
  ];
}
