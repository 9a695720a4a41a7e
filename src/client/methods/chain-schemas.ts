// Result shapes of the block, checkpoint and tip methods (docs/chain.md, "Results" and "Tips").
import { z } from 'zod';
import {
  appendOnlyTreeSnapshot,
  blockBody,
  blockHeader,
  checkpointHeader,
  gasFees,
  globalVariables,
  l2Block,
  txEffect,
} from '../../core/block-codecs.js';
import { bigintDec, blockHash, ethAddress, frHex, uint } from '../../core/codecs.js';

// The block codecs themselves are in core (they also encode checkpoint bodies for L1).
export { appendOnlyTreeSnapshot, blockHeader, checkpointHeader, gasFees, globalVariables, l2Block, txEffect };

export const l1PublishInfo = z.union([
  z.object({ published: z.literal(false) }),
  z.object({
    published: z.literal(true),
    blockNumber: bigintDec,
    timestamp: bigintDec,
    blockHash: z.string(),
  }),
]);

export const l1PublishedData = z.object({
  blockNumber: bigintDec,
  timestamp: bigintDec,
  blockHash: z.string(),
});

export const committeeAttestation = z.object({ address: ethAddress, signature: z.string() });

/** Parts of blocks and checkpoints returned only with includeL1PublishInfo / includeAttestations. */
const publicationParts = {
  l1: l1PublishInfo.optional(),
  attestations: z.array(committeeAttestation).optional(),
};

/** The current set's block (svc_getBlock, svc_getBlocks); optional parts follow the include options. */
export const blockResponse = z
  .object({
    header: blockHeader,
    archive: appendOnlyTreeSnapshot,
    hash: blockHash,
    number: uint,
    checkpointNumber: uint,
    indexWithinCheckpoint: uint,
    body: blockBody.optional(),
    ...publicationParts,
  })
  .describe('A block; body, l1 and attestations only when asked for');

export const blockData = z
  .object({
    header: blockHeader,
    archive: appendOnlyTreeSnapshot,
    blockHash,
    checkpointNumber: uint,
    indexWithinCheckpoint: uint,
  })
  .describe('Block metadata without tx bodies');

export const checkpointResponse = z
  .object({
    number: uint,
    header: checkpointHeader,
    archive: appendOnlyTreeSnapshot,
    checkpointOutHash: frHex,
    startBlock: uint,
    blockCount: uint,
    feeAssetPriceModifier: bigintDec,
    blocks: z.array(blockResponse).optional(),
    ...publicationParts,
  })
  .describe('A checkpoint; blocks, l1 and attestations only when asked for');

export const checkpointData = z
  .object({
    checkpointNumber: uint,
    header: checkpointHeader,
    archive: appendOnlyTreeSnapshot,
    checkpointOutHash: frHex,
    startBlock: uint,
    blockCount: uint,
    feeAssetPriceModifier: bigintDec,
    attestations: z.array(committeeAttestation),
    l1: l1PublishedData,
  })
  .describe('Checkpoint metadata with its L1 publication');

const blockId = z.object({ number: uint, hash: blockHash });
const tipId = z.object({ block: blockId, checkpoint: z.object({ number: uint, hash: frHex }) });

/** The current set's tips. */
export const chainTips = z
  .object({ proposed: blockId, checkpointed: tipId, proven: tipId, finalized: tipId })
  .describe('The chain tips: proposed, checkpointed, proven, finalized');

/** The earlier set's tips: latest = proposed, pending = checkpointed, proven. */
export const l2TipsEarlier = z
  .object({ latest: blockId, pending: blockId, proven: blockId })
  .describe('The chain tips: latest (proposed), pending (checkpointed), proven');

export const l1RollupConstants = z
  .object({
    l1StartBlock: bigintDec,
    l1GenesisTime: bigintDec,
    slotDuration: uint,
    epochDuration: uint,
    ethereumSlotDuration: uint,
    proofSubmissionEpochs: uint,
    targetCommitteeSize: uint,
    rollupManaLimit: uint,
  })
  .describe('Time and size constants of the rollup');

export const worldStateSyncStatus = z
  .object({
    latestBlockNumber: uint,
    latestBlockHash: z.string(),
    finalizedBlockNumber: uint,
    oldestHistoricBlockNumber: uint,
    treesAreSynched: z.boolean(),
    syncState: z
      .enum(['running', 'paused'])
      .describe('Whether the archiver and world state follow L1 (svcAdmin_pauseSync / resumeSync)'),
  })
  .describe('How far the world state has synced');
