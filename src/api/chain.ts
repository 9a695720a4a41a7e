// Block, checkpoint and tip methods of both sets: first the twins both sets have (the world
// state's sync status, block numbers, blocks), each declared once with where the earlier set
// (node_) differs; then the current set's (svc_) own methods and the earlier set's own, with its
// limits.
import { z } from 'zod';
import { bigintDec, uint } from '../core/codecs.js';
import type { L1RollupConstants } from '../core/time.js';
import type { NodeStatus } from '../node/status.js';
import type { ChainQueries } from '../queries/chain.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';
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
import {
  blockParameter,
  blockTagWithoutLatest,
  checkpointParameter,
  checkpointsQuery,
  checkpointTag,
  MAX_CHECKPOINTS_DATA,
} from './params.js';

/** What the chain methods call: the chain queries, the rollup constants and the sync status. */
export interface ChainApiPorts {
  chain: Pick<
    ChainQueries,
    | 'tips'
    | 'latestBlockNumber'
    | 'syncedSlot'
    | 'syncedEpoch'
    | 'syncedL1Timestamp'
    | 'block'
    | 'blocks'
    | 'blockResponse'
    | 'blockResponses'
    | 'checkpoint'
    | 'checkpointResponses'
    | 'checkpointsData'
  >;
  constants: L1RollupConstants;
  info: Pick<NodeStatus, 'getWorldStateSyncStatus'>;
}

export function chainMethods(ports: ChainApiPorts): RpcMethod[] {
  return [...twinChainMethods(ports), ...svcChainMethods(ports), ...nodeChainMethods(ports)];
}

export const MAX_BLOCKS = 100;
export const MAX_CHECKPOINTS = 100;

const from = uint.min(1, 'block and checkpoint numbers start at 1 where a range starts');
const blocksLimit = z.number().int().min(1).max(MAX_BLOCKS, `at most ${MAX_BLOCKS} blocks per call`);
const checkpointsLimit = z
  .number()
  .int()
  .min(1)
  .max(MAX_CHECKPOINTS, `at most ${MAX_CHECKPOINTS} checkpoints per call`);

const blockIncludeOptions = z
  .object({
    includeTransactions: z.boolean().optional(),
    includeL1PublishInfo: z.boolean().optional(),
    includeAttestations: z.boolean().optional(),
  })
  .strict()
  .describe('Which optional parts to include');
const blocksIncludeOptions = blockIncludeOptions
  .extend({ onlyCheckpointed: z.boolean().optional() })
  .describe('Which optional parts to include; onlyCheckpointed leaves out blocks not yet on L1');
const checkpointIncludeOptions = blockIncludeOptions
  .extend({ includeBlocks: z.boolean().optional() })
  .describe('Which optional parts to include; blocks get bodies only with includeTransactions');

function svcChainMethods({ chain: q, constants }: ChainApiPorts): RpcMethod[] {
  const tips = () => q.tips();
  return [
    defineMethod({
      namespace: 'svc',
      name: 'getCheckpointNumber',
      summary: 'The checkpoint number at a tip (the latest checkpointed when omitted)',
      params: [{ name: 'tip', schema: checkpointTag, optional: true }],
      resultName: 'checkpointNumber',
      result: uint,
      handler: (tip) => tips()[tip ?? 'checkpointed'].checkpoint.number,
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getChainTips',
      summary: 'The chain tips: proposed, checkpointed, proven and finalized',
      params: [],
      resultName: 'tips',
      result: chainTips,
      handler: () => tips(),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getL1Constants',
      summary: 'The rollup constants: L1 start block, genesis time, slot and epoch durations, …',
      params: [],
      resultName: 'constants',
      result: l1RollupConstants,
      handler: () => constants,
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getSyncedL2SlotNumber',
      summary: 'The last L2 slot whose L1 data the node has read in full',
      params: [],
      resultName: 'slot',
      result: uint.optional(),
      handler: () => q.syncedSlot(),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getSyncedL2EpochNumber',
      summary: 'The last L2 epoch all of whose slots are synced from L1',
      params: [],
      resultName: 'epoch',
      result: uint.optional(),
      handler: () => q.syncedEpoch(),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getSyncedL1Timestamp',
      summary: 'The timestamp of the latest L1 block the node has read',
      params: [],
      resultName: 'timestamp',
      result: bigintDec.optional(),
      handler: () => q.syncedL1Timestamp(),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getBlockData',
      summary: 'Block metadata without tx bodies',
      params: [{ name: 'param', schema: blockParameter }],
      resultName: 'blockData',
      result: blockData.optional(),
      handler: (param) => {
        const block = q.block(param);
        return (
          block && {
            header: block.header,
            archive: block.archive,
            blockHash: block.hash,
            checkpointNumber: block.checkpointNumber,
            indexWithinCheckpoint: block.indexWithinCheckpoint,
          }
        );
      },
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getCheckpoint',
      summary: 'A checkpoint by number, tag, {number} or {slot}; parts per options',
      params: [
        { name: 'param', schema: checkpointParameter },
        { name: 'options', schema: checkpointIncludeOptions, optional: true },
      ],
      resultName: 'checkpoint',
      result: checkpointResponse.optional(),
      handler: (param, options) => q.checkpoint(param, options),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getCheckpoints',
      summary: `Up to limit (≤ ${MAX_CHECKPOINTS}) checkpoints from a checkpoint number`,
      params: [
        { name: 'from', schema: from },
        { name: 'limit', schema: checkpointsLimit },
        { name: 'options', schema: checkpointIncludeOptions, optional: true },
      ],
      resultName: 'checkpoints',
      result: z.array(checkpointResponse),
      handler: (start, limit, options) => q.checkpointResponses(start, limit, options),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getCheckpointsData',
      summary: `Checkpoint metadata for a range, from a slot, or a whole epoch (≤ ${MAX_CHECKPOINTS_DATA})`,
      params: [{ name: 'query', schema: checkpointsQuery }],
      resultName: 'checkpointsData',
      result: z.array(checkpointData),
      handler: (query) => q.checkpointsData(query),
    }),
  ];
}

/** The methods both sets have, each declared once with where the earlier set's twin differs. */
function twinChainMethods({ chain: q, info }: ChainApiPorts): RpcMethod[] {
  return [
    ...defineMethods(['svc', 'node'], {
      name: 'getWorldStateSyncStatus',
      summary: 'How far the world state has synced',
      params: [],
      resultName: 'status',
      result: worldStateSyncStatus,
      handler: () => info.getWorldStateSyncStatus(),
    }),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getBlockNumber',
        summary: 'The block number at a chain tip (the latest proposed block when omitted)',
        params: [{ name: 'tip', schema: blockTagWithoutLatest, optional: true }],
        resultName: 'blockNumber',
        result: uint,
        handler: (tip) =>
          tip === undefined || tip === 'proposed' ? q.latestBlockNumber() : q.tips()[tip].block.number,
      },
      // The earlier set has no tip param: always the latest block.
      { node: { summary: 'The latest block number', params: [], handler: () => q.latestBlockNumber() } },
    ),
    ...defineMethods(
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
        handler: (param, options) => {
          const block = q.block(param);
          return block && q.blockResponse(block, options);
        },
      },
      // The earlier set takes a number or latest, and answers the whole block in its own shape.
      {
        node: {
          summary: 'A block by number, or the latest',
          params: [{ name: 'blockNumber', schema: blockNumberOrLatest }],
          result: l2Block.optional(),
          handler: (n) => earlierBlock(q, n),
        },
      },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getBlocks',
        summary: `Up to limit (≤ ${MAX_BLOCKS}) blocks from a block number; only those that exist`,
        params: [
          { name: 'from', schema: from },
          { name: 'limit', schema: blocksLimit },
          { name: 'options', schema: blocksIncludeOptions, optional: true },
        ],
        resultName: 'blocks',
        result: z.array(blockResponse),
        handler: (start, limit, options) => q.blockResponses(start, limit, options),
      },
      // The earlier set has no options, its own limit messages and its own block shape.
      {
        node: {
          summary: `Up to limit (1 to ${MAX_BLOCKS}) blocks from a block number (at least 1)`,
          params: [
            { name: 'from', schema: uint.min(1, 'from is at least 1') },
            {
              name: 'limit',
              schema: z.number().int().min(1).max(MAX_BLOCKS, `limit is 1 to ${MAX_BLOCKS}`),
            },
          ],
          result: z.array(l2Block),
          handler: (from, limit) => q.blocks(from, limit),
        },
      },
    ),
  ];
}

// ---- the earlier set (node_) ----------------------------------------------------------------

const blockNumberOrLatest = z
  .union([uint, z.literal('latest')], { error: 'expected a block number or "latest"' })
  .describe('A block number or "latest"');

/** A block as the earlier set names it: by number, or the latest when 'latest' or omitted. */
const earlierBlock = (q: ChainApiPorts['chain'], n: number | 'latest' | undefined) =>
  q.block(
    n === undefined || n === 'latest' ? { kind: 'tag', tag: 'proposed' } : { kind: 'number', number: n },
  );

function nodeChainMethods({ chain: q }: ChainApiPorts): RpcMethod[] {
  return [
    defineMethod({
      namespace: 'node',
      name: 'getProvenBlockNumber',
      summary: 'The latest proven block number',
      params: [],
      resultName: 'blockNumber',
      result: uint,
      handler: () => q.tips().proven.block.number,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getL2Tips',
      summary: 'The chain tips: latest (proposed), pending (checkpointed), proven',
      params: [],
      resultName: 'tips',
      result: l2TipsEarlier,
      handler: () => {
        const tips = q.tips();
        return { latest: tips.proposed, pending: tips.checkpointed.block, proven: tips.proven.block };
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockHeader',
      summary: 'The header of a block (the latest when omitted)',
      params: [{ name: 'blockNumber', schema: blockNumberOrLatest, optional: true }],
      resultName: 'header',
      result: blockHeader.optional(),
      handler: (n) => earlierBlock(q, n)?.header,
    }),
  ];
}
