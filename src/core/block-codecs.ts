// Wire codecs of blocks and checkpoint headers: the JSON of the RPC results and of the
// checkpoint bodies carried to L1. Each value's wire form follows its type (docs/rpc.md, "Values"):
// Fr as 0x hex, bigint as a decimal string; slot numbers are JSON numbers.
import { z } from 'zod';
import { bigintDec, ethAddress, frHex, l2Address, slotNumber, txHash, uint } from './codecs.js';

export const appendOnlyTreeSnapshot = z.object({ root: frHex, nextAvailableLeafIndex: uint });
export const gasFees = z.object({ feePerDaGas: bigintDec, feePerL2Gas: bigintDec });

export const globalVariables = z.object({
  chainId: frHex,
  version: frHex,
  blockNumber: uint,
  slotNumber,
  timestamp: bigintDec,
  coinbase: ethAddress,
  feeRecipient: l2Address,
  gasFees,
});

export const blockHeader = z
  .object({
    lastArchive: appendOnlyTreeSnapshot,
    state: z.object({
      l1ToL2MessageTree: appendOnlyTreeSnapshot,
      partial: z.object({
        noteHashTree: appendOnlyTreeSnapshot,
        nullifierTree: appendOnlyTreeSnapshot,
        publicDataTree: appendOnlyTreeSnapshot,
      }),
    }),
    spongeBlobHash: frHex,
    globalVariables,
    totalFees: frHex,
    totalManaUsed: frHex,
  })
  .describe('Block header');

export const privateLog = z
  .object({ fields: z.array(frHex), emittedLength: uint })
  .describe(
    'A private log: its fields (the first is the siloed tag), zero padded, and how many were emitted',
  );
export const publicLog = z
  .object({ contractAddress: l2Address, fields: z.array(frHex) })
  .describe('A public log: the emitting contract and its fields (the first is the tag)');
export const contractClassLog = z
  .object({
    contractAddress: l2Address,
    fields: z.object({ fields: z.array(frHex) }),
    emittedLength: uint,
  })
  .describe('A contract class log: the emitting contract and its fields, zero padded');

export const txEffect = z
  .object({
    revertCode: uint,
    txHash,
    transactionFee: frHex,
    noteHashes: z.array(frHex),
    nullifiers: z.array(frHex),
    l2ToL1Msgs: z.array(frHex),
    publicDataWrites: z.array(z.object({ leafSlot: frHex, value: frHex })),
    privateLogs: z.array(privateLog),
    publicLogs: z.array(publicLog),
    contractClassLogs: z.array(contractClassLog),
  })
  .describe('What a tx did to the chain state');

export const blockBody = z.object({ txEffects: z.array(txEffect) });

/** The earlier set's L2Block (node_getBlock, node_getBlocks). */
export const l2Block = z
  .object({
    archive: appendOnlyTreeSnapshot,
    header: blockHeader,
    body: blockBody,
    checkpointNumber: uint,
    indexWithinCheckpoint: uint,
  })
  .describe('An L2 block');

export const checkpointHeader = z.object({
  lastArchiveRoot: frHex,
  blockHeadersHash: frHex,
  blobsHash: frHex,
  inHash: frHex,
  epochOutHash: frHex,
  slotNumber,
  timestamp: bigintDec,
  coinbase: ethAddress,
  feeRecipient: l2Address,
  gasFees,
  totalManaUsed: frHex,
});
