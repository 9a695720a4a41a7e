// Block, checkpoint and tip methods of the current set (svc_).
import { z } from 'zod';
import { bigintDec, uint } from '../../core/codecs.js';
import type { CairnNode } from '../../node/node.js';
import { defineMethod, type RpcMethod } from '../../rpc/registry.js';
import {
  blockData,
  blockResponse,
  chainTips,
  checkpointData,
  checkpointResponse,
  l1RollupConstants,
} from '../chain-schemas.js';
import {
  blockParameter,
  blockTagWithoutLatest,
  checkpointParameter,
  checkpointsQuery,
  checkpointTag,
  MAX_CHECKPOINTS_DATA,
} from '../params.js';

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

export function svcChainMethods(node: CairnNode): RpcMethod[] {
  const q = node.queries;
  const tips = () => node.chain.getTips();
  return [
    defineMethod({
      namespace: 'svc',
      name: 'getBlockNumber',
      summary: 'The block number at a chain tip (the latest proposed block when omitted)',
      params: [{ name: 'tip', schema: blockTagWithoutLatest, optional: true }],
      resultName: 'blockNumber',
      result: uint,
      handler: (tip) =>
        tip === undefined || tip === 'proposed' ? tips().proposed.number : tips()[tip].block.number,
    }),
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
      handler: () => node.constants,
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
      handler: () => node.chain.l1SyncPoint?.timestamp,
    }),
    defineMethod({
      namespace: 'svc',
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
      name: 'getBlocks',
      summary: `Up to limit (≤ ${MAX_BLOCKS}) blocks from a block number; only those that exist`,
      params: [
        { name: 'from', schema: from },
        { name: 'limit', schema: blocksLimit },
        { name: 'options', schema: blocksIncludeOptions, optional: true },
      ],
      resultName: 'blocks',
      result: z.array(blockResponse),
      handler: (start, limit, options) => {
        const checkpointed = tips().checkpointed.block.number;
        return q
          .blocks(start, limit)
          .filter((b) => !options?.onlyCheckpointed || b.number <= checkpointed)
          .map((b) => q.blockResponse(b, options));
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
      handler: (param, options) => {
        const n = q.checkpointNumberOf(param);
        const published = n === undefined ? undefined : node.chain.getCheckpoint(n);
        return published && q.checkpointResponse(published, options);
      },
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
      handler: (start, limit, options) => {
        const out = [];
        for (let n = start; n < start + limit && n <= node.chain.latestCheckpointNumber; n++) {
          out.push(q.checkpointResponse(node.chain.getCheckpoint(n)!, options));
        }
        return out;
      },
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getCheckpointsData',
      summary: `Checkpoint metadata for a range, from a slot, or a whole epoch (≤ ${MAX_CHECKPOINTS_DATA})`,
      params: [{ name: 'query', schema: checkpointsQuery }],
      resultName: 'checkpointsData',
      result: z.array(checkpointData),
      handler: (query) => {
        const store = node.chain;
        if (query.kind === 'epoch') return q.checkpointsOfEpoch(query.epoch).map((p) => q.checkpointData(p));
        const numbers =
          query.kind === 'range'
            ? Array.from({ length: query.limit }, (_, i) => query.from + i).filter(
                (n) => n <= store.latestCheckpointNumber,
              )
            : store.checkpointNumbersFromSlot(query.fromSlot, query.limit, query.reverse);
        return numbers.map((n) => q.checkpointData(store.getCheckpoint(n)!));
      },
    }),
  ];
}
