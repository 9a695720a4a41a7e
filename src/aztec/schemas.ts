// Result shapes of the reference's published API (4.1.2) that differ from cairn's own: the
// reference's JSON of its classes. Shapes the two APIs share (blocks, headers, tx effects,
// checkpoint data, tips, node info) are the declarations' own schemas, imported where used.
import { z } from 'zod';
import { committeeAttestation, l1PublishedData } from '../client/methods/chain-schemas.js';
import { contractClass } from '../client/methods/contracts.js';
import { appendOnlyTreeSnapshot, checkpointHeader, l2Block } from '../core/block-codecs.js';
import { bigintDec, blockHash, frHex, txHash, uint } from '../core/codecs.js';
import { bytesBase64, siblingPathBase64 } from './buffers.js';

/** DataInBlock: a value with the block that holds it. */
export const inBlock = <T extends z.ZodType>(data: T) =>
  z.object({ l2BlockNumber: uint, l2BlockHash: blockHash, data });

/** IndexedTxEffect: a tx effect with its block and place in it. */
export const indexedTxEffect = (effect: z.ZodType) =>
  z
    .object({ l2BlockNumber: uint, l2BlockHash: blockHash, txIndexInBlock: uint, data: effect })
    .describe('A tx effect with the block that holds it');

/** The reference's TxReceipt: status, and for a mined tx its result, fee, block and epoch. */
export const txReceipt = z
  .object({
    txHash,
    status: z.enum(['dropped', 'pending', 'proposed', 'checkpointed', 'proven', 'finalized']),
    executionResult: z.enum(['success', 'reverted']).optional(),
    error: z.string().optional(),
    blockHash: blockHash.optional(),
    blockNumber: uint.optional(),
    epochNumber: uint.optional(),
    transactionFee: bigintDec.optional(),
  })
  .describe('TxReceipt: dropped (unknown), pending, or mined with its block, epoch, fee and result');

/** TxScopedL2Log: a tagged log's fields with its tx and block, and the tx's note hashes and first nullifier. */
export const txScopedL2Log = z
  .object({
    txHash,
    blockNumber: uint,
    blockTimestamp: bigintDec,
    logData: z.array(frHex),
    noteHashes: z.array(frHex),
    firstNullifier: frHex,
  })
  .describe(
    'TxScopedL2Log: the log (tag first) with its tx, block, and the tx’s note hashes and first nullifier',
  );

/** PublishedCheckpoint: a checkpoint with its blocks, where L1 took it, and its attestations. */
export const publishedCheckpoint = z
  .object({
    checkpoint: z.object({
      archive: appendOnlyTreeSnapshot,
      header: checkpointHeader,
      blocks: z.array(l2Block),
      number: uint,
      feeAssetPriceModifier: bigintDec,
    }),
    l1: l1PublishedData,
    attestations: z.array(committeeAttestation),
  })
  .describe('PublishedCheckpoint: the checkpoint with its blocks, its L1 publication and attestations');

/** CheckpointedL2Block: a block with its checkpoint's number, L1 publication and attestations. */
export const checkpointedL2Block = z
  .object({
    checkpointNumber: uint,
    block: l2Block,
    l1: l1PublishedData,
    attestations: z.array(committeeAttestation),
  })
  .describe('CheckpointedL2Block: a block of a checkpoint on L1');

/** ContractClassPublic with its packed bytecode as base64 (the reference's Buffer form). */
export const contractClassPublic = contractClass
  .extend({ packedBytecode: bytesBase64 })
  .describe(
    'ContractClassPublic: id, version, artifact hash, private functions root, packed bytecode (base64)',
  );

/** The L1-to-L2 message witness: the leaf index and the sibling path. */
export const l1ToL2MessageWitness = z
  .tuple([bigintDec, siblingPathBase64])
  .describe('[leaf index, sibling path (base64)]');
