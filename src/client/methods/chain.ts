// The chain methods as declared, without their handlers (src/api/chain.ts adds them).
// Block, checkpoint and tip methods of both sets: first the twins both sets have (the world
// state's sync status, block numbers, blocks), each declared once with where the earlier set
// (node_) differs; then the current set's (svc_) own methods and the earlier set's own, with its
// limits.
import { z } from 'zod';
import { bigintDec, uint } from '../../core/codecs.js';
import {
  blockData,
  blockHeader,
  blockResponse,
  chainTips,
  checkpointData,
  checkpointResponse,
  l1RollupConstants,
  l2Block,
  l2TipsEarlier,
  worldStateSyncStatus,
} from './chain-schemas.js';
import { method, twins } from './declare.js';
import {
  blockParameter,
  blockTagWithoutLatest,
  checkpointParameter,
  checkpointsQuery,
  checkpointTag,
  MAX_CHECKPOINTS_DATA,
} from './params.js';

export const MAX_BLOCKS = 100;
export const MAX_CHECKPOINTS = 100;

export const from = uint.min(1, 'block and checkpoint numbers start at 1 where a range starts');
export const blocksLimit = z.number().int().min(1).max(MAX_BLOCKS, `at most ${MAX_BLOCKS} blocks per call`);
export const checkpointsLimit = z
  .number()
  .int()
  .min(1)
  .max(MAX_CHECKPOINTS, `at most ${MAX_CHECKPOINTS} checkpoints per call`);

export const blockIncludeOptions = z
  .object({
    includeTransactions: z.boolean().optional(),
    includeL1PublishInfo: z.boolean().optional(),
    includeAttestations: z.boolean().optional(),
  })
  .strict()
  .describe('Which optional parts to include');
export const blocksIncludeOptions = blockIncludeOptions
  .extend({ onlyCheckpointed: z.boolean().optional() })
  .describe('Which optional parts to include; onlyCheckpointed leaves out blocks not yet on L1');
export const checkpointIncludeOptions = blockIncludeOptions
  .extend({ includeBlocks: z.boolean().optional() })
  .describe('Which optional parts to include; blocks get bodies only with includeTransactions');

// ---- the earlier set (node_) ----------------------------------------------------------------

export const blockNumberOrLatest = z
  .union([uint, z.literal('latest')], { error: 'expected a block number or "latest"' })
  .describe('A block number or "latest"');

export const chainDeclarations = {
  svc_getCheckpointNumber: method({
    namespace: 'svc',
    name: 'getCheckpointNumber',
    summary: 'The checkpoint number at a tip (the latest checkpointed when omitted)',
    params: [{ name: 'tip', schema: checkpointTag, optional: true }],
    resultName: 'checkpointNumber',
    result: uint,
  }),
  svc_getChainTips: method({
    namespace: 'svc',
    name: 'getChainTips',
    summary: 'The chain tips: proposed, checkpointed, proven and finalized',
    params: [],
    resultName: 'tips',
    result: chainTips,
  }),
  svc_getL1Constants: method({
    namespace: 'svc',
    name: 'getL1Constants',
    summary: 'The rollup constants: L1 start block, genesis time, slot and epoch durations, …',
    params: [],
    resultName: 'constants',
    result: l1RollupConstants,
  }),
  svc_getSyncedL2SlotNumber: method({
    namespace: 'svc',
    name: 'getSyncedL2SlotNumber',
    summary: 'The last L2 slot whose L1 data the node has read in full',
    params: [],
    resultName: 'slot',
    result: uint.optional(),
  }),
  svc_getSyncedL2EpochNumber: method({
    namespace: 'svc',
    name: 'getSyncedL2EpochNumber',
    summary: 'The last L2 epoch all of whose slots are synced from L1',
    params: [],
    resultName: 'epoch',
    result: uint.optional(),
  }),
  svc_getSyncedL1Timestamp: method({
    namespace: 'svc',
    name: 'getSyncedL1Timestamp',
    summary: 'The timestamp of the latest L1 block the node has read',
    params: [],
    resultName: 'timestamp',
    result: bigintDec.optional(),
  }),
  svc_getBlockData: method({
    namespace: 'svc',
    name: 'getBlockData',
    summary: 'Block metadata without tx bodies',
    params: [{ name: 'param', schema: blockParameter }],
    resultName: 'blockData',
    result: blockData.optional(),
  }),
  svc_getCheckpoint: method({
    namespace: 'svc',
    name: 'getCheckpoint',
    summary: 'A checkpoint by number, tag, {number} or {slot}; parts per options',
    params: [
      { name: 'param', schema: checkpointParameter },
      { name: 'options', schema: checkpointIncludeOptions, optional: true },
    ],
    resultName: 'checkpoint',
    result: checkpointResponse.optional(),
  }),
  svc_getCheckpoints: method({
    namespace: 'svc',
    name: 'getCheckpoints',
    summary: `Up to limit (≤ ${MAX_CHECKPOINTS}) checkpoints from a checkpoint number`,
    params: [
      { name: 'from', schema: from, description: 'The first checkpoint number (from 1)' },
      {
        name: 'limit',
        schema: checkpointsLimit,
        description: `How many checkpoints, 1 to ${MAX_CHECKPOINTS}`,
      },
      { name: 'options', schema: checkpointIncludeOptions, optional: true },
    ],
    resultName: 'checkpoints',
    result: z.array(checkpointResponse),
  }),
  svc_getCheckpointsData: method({
    namespace: 'svc',
    name: 'getCheckpointsData',
    summary: `Checkpoint metadata for a range, from a slot, or a whole epoch (≤ ${MAX_CHECKPOINTS_DATA})`,
    params: [{ name: 'query', schema: checkpointsQuery }],
    resultName: 'checkpointsData',
    result: z.array(checkpointData),
  }),
  getWorldStateSyncStatus: twins(['svc', 'node'], {
    name: 'getWorldStateSyncStatus',
    summary: 'How far the world state has synced',
    params: [],
    resultName: 'status',
    result: worldStateSyncStatus,
  }),
  getBlockNumber: twins(
    ['svc', 'node'],
    {
      name: 'getBlockNumber',
      summary: 'The block number at a chain tip (the latest proposed block when omitted)',
      params: [{ name: 'tip', schema: blockTagWithoutLatest, optional: true }],
      resultName: 'blockNumber',
      result: uint,
    },
    { node: { summary: 'The latest block number', params: [] } },
  ),
  getBlock: twins(
    ['svc', 'node'],
    {
      name: 'getBlock',
      summary: 'A block by number, hash, archive root, tag or object form; parts per options',
      params: [
        { name: 'param', schema: blockParameter },
        { name: 'options', schema: blockIncludeOptions, optional: true },
      ],
      resultName: 'block',
      result: blockResponse.optional(),
    },
    {
      node: {
        summary: 'A block by number, or the latest',
        params: [{ name: 'blockNumber', schema: blockNumberOrLatest }],
        result: l2Block.optional(),
      },
    },
  ),
  getBlocks: twins(
    ['svc', 'node'],
    {
      name: 'getBlocks',
      summary: `Up to limit (≤ ${MAX_BLOCKS}) blocks from a block number; only those that exist`,
      params: [
        { name: 'from', schema: from, description: 'The first block number (from 1)' },
        { name: 'limit', schema: blocksLimit, description: `How many blocks, 1 to ${MAX_BLOCKS}` },
        { name: 'options', schema: blocksIncludeOptions, optional: true },
      ],
      resultName: 'blocks',
      result: z.array(blockResponse),
    },
    {
      node: {
        summary: `Up to limit (1 to ${MAX_BLOCKS}) blocks from a block number (at least 1)`,
        params: [
          {
            name: 'from',
            schema: uint.min(1, 'from is at least 1'),
            description: 'The first block number (from 1)',
          },
          {
            name: 'limit',
            schema: z.number().int().min(1).max(MAX_BLOCKS, `limit is 1 to ${MAX_BLOCKS}`),
            description: `How many blocks, 1 to ${MAX_BLOCKS}`,
          },
        ],
        result: z.array(l2Block),
      },
    },
  ),
  node_getProvenBlockNumber: method({
    namespace: 'node',
    name: 'getProvenBlockNumber',
    summary: 'The latest proven block number',
    params: [],
    resultName: 'blockNumber',
    result: uint,
  }),
  node_getL2Tips: method({
    namespace: 'node',
    name: 'getL2Tips',
    summary: 'The chain tips: latest (proposed), pending (checkpointed), proven',
    params: [],
    resultName: 'tips',
    result: l2TipsEarlier,
  }),
  node_getBlockHeader: method({
    namespace: 'node',
    name: 'getBlockHeader',
    summary: 'The header of a block (the latest when omitted)',
    params: [{ name: 'blockNumber', schema: blockNumberOrLatest, optional: true }],
    resultName: 'header',
    result: blockHeader.optional(),
  }),
} as const;
