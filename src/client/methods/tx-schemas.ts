// Result and option schemas of the transaction methods (docs/transactions.md).
import { z } from 'zod';
import { bigintDec, blockHash, frHex, l2Address, slotNumber, txHash, uint } from '../../core/codecs.js';
import { FR_MODULUS } from '../../core/field.js';
import { gas, tx } from '../../core/tx-codecs.js';
import { gasFees, globalVariables, txEffect } from './chain-schemas.js';

export { gasFees, tx };

/** How many txs one call returns at most (getTxsByHash, getPendingTxs). */
export const MAX_RPC_TXS = 100;

export const getTxByHashOptions = z
  .object({ includeProof: z.boolean().optional() })
  .strict()
  .describe('includeProof: keep the proof on returned txs (stripped otherwise)');

export const getTxReceiptOptions = z
  .object({
    includeTxEffect: z.boolean().optional(),
    includePendingTx: z.boolean().optional(),
    includeProof: z.boolean().optional(),
  })
  .strict()
  .describe('includeTxEffect (mined), includePendingTx (pending), includeProof (with includePendingTx)');

export const isValidTxOptions = z
  .object({ isSimulation: z.boolean().optional(), skipFeeEnforcement: z.boolean().optional() })
  .strict()
  .describe('isSimulation: skip the proof check; skipFeeEnforcement: skip fee and balance checks');

/** How many contract instances one simulation may override. */
export const MAX_CONTRACT_OVERRIDES = 32;

/**
 * An instance to simulate with: public calls to its address run the bytecode of
 * `currentContractClassId` (a class the node knows) as a deployed contract. Other
 * ContractInstanceWithAddress fields may be given and are not used.
 */
const instanceOverride = z
  .object({
    instance: z
      .object({
        deployer: l2Address.optional(),
        currentContractClassId: frHex,
        originalContractClassId: frHex.optional(),
        initializationHash: frHex.optional(),
        address: l2Address.optional(),
        version: uint.optional(),
        salt: frHex.optional(),
        publicKeys: z.unknown().optional(),
      })
      .strict(),
  })
  .strict();

export const simulationOverrides = z
  .object({
    publicStorage: z
      .array(z.object({ contractAddress: l2Address, slot: frHex, value: frHex }).strict())
      .max(1000, 'at most 1000 public storage overrides'),
    contracts: z
      .record(z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, 'a contract address as 0x hex'), instanceOverride)
      .refine((r) => Object.keys(r).length <= MAX_CONTRACT_OVERRIDES, {
        error: `at most ${MAX_CONTRACT_OVERRIDES} contract overrides`,
      })
      .refine((r) => Object.keys(r).every((a) => BigInt(a) < FR_MODULUS), {
        error: 'a contract address must be a field element',
      })
      .transform(
        (r) =>
          new Map(
            Object.entries(r).map(([address, { instance }]) => [
              BigInt(address),
              {
                deployer: instance.deployer ?? 0n,
                currentContractClassId: instance.currentContractClassId,
                initializationHash: instance.initializationHash ?? 0n,
              },
            ]),
          ),
      ),
  })
  .partial()
  .strict()
  .describe(
    'Applied to the simulation fork only: publicStorage [{contractAddress, slot, value}]; contracts {address: {instance: {currentContractClassId, deployer?, initializationHash?}}}, run as deployed',
  );

export const manaUsageEstimate = z
  .enum(['none', 'target', 'limit'])
  .describe('Mana assumed used per checkpoint: none, target (steady state) or limit');

export const txValidationResult = z
  .union([
    z.object({ result: z.literal('valid') }),
    z.object({ result: z.enum(['invalid', 'skipped']), reason: z.array(z.string()) }),
  ])
  .describe('{result: valid} or {result: invalid | skipped, reason: string[]}');

export const indexedTxEffect = z
  .object({
    l2BlockNumber: uint,
    l2BlockHash: blockHash,
    txIndexInBlock: uint,
    slotNumber,
    data: txEffect,
  })
  .describe('A tx effect with the block that holds it');

const minedReceipt = z.object({
  txHash,
  status: z.enum(['proposed', 'checkpointed', 'proven', 'finalized']),
  executionResult: z.enum(['success', 'reverted']),
  error: z.string().optional(),
  transactionFee: bigintDec,
  blockHash,
  blockNumber: uint,
  slotNumber,
  txIndexInBlock: uint,
  epochNumber: uint,
  txEffect: txEffect.optional(),
});

export const txReceipt = z
  .union([
    minedReceipt,
    z.object({ txHash, status: z.literal('pending'), tx: tx.optional() }),
    z.object({ txHash, status: z.literal('dropped'), error: z.string() }),
  ])
  .describe('Mined (proposed | checkpointed | proven | finalized), pending, or dropped');

/** The earlier set's receipt: status mined, pending or dropped. */
export const txReceiptEarlier = z
  .object({
    txHash,
    status: z.enum(['mined', 'pending', 'dropped']),
    error: z.string(),
    executionResult: z.enum(['success', 'reverted']).optional(),
    transactionFee: bigintDec.optional(),
    blockHash: blockHash.optional(),
    blockNumber: uint.optional(),
  })
  .describe('Receipt: status mined, pending or dropped; error is empty when there is none');

export const publicSimulationOutput = z
  .object({
    revertReason: z.string().optional(),
    revertData: z.array(frHex).optional(),
    globalVariables,
    txEffect,
    publicReturnValues: z.array(z.object({ values: z.array(frHex) })),
    gasUsed: z.object({ totalGas: gas, teardownGas: gas, publicGas: gas, billedGas: gas }),
    debugLogs: z.array(z.never()),
  })
  .describe('What the public part of the tx did on a fork of the latest state');

/**
 * The current set's simulation output: the earlier set's, plus the fee the tx would pay as a
 * decimal string, the form of the receipt's transactionFee (the tx effect keeps its own 0x form).
 */
export const svcPublicSimulationOutput = publicSimulationOutput
  .extend({ transactionFee: bigintDec })
  .describe(
    'What the public part of the tx did on a fork of the latest state, with the fee it would pay (decimal string)',
  );
