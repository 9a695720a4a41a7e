// The reference API's chain methods: tips, block numbers, blocks, headers and checkpoints,
// answered by the same chain queries as cairn's own set, in the reference's shapes.
import { z } from 'zod';
import { chainTips, checkpointData, worldStateSyncStatus } from '../client/methods/chain-schemas.js';
import { blockHeader, l2Block } from '../core/block-codecs.js';
import { uint } from '../core/codecs.js';
import type { NodeStatus } from '../node/status.js';
import type { ChainQueries } from '../queries/chain.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import {
  blockHash,
  blockParameter,
  checkpointNumber,
  epochNumber,
  fr,
  positiveBlockNumber,
} from './params.js';
import { checkpointedL2Block, publishedCheckpoint } from './schemas.js';
import { MAX_RPC_BLOCKS_LEN, MAX_RPC_CHECKPOINTS_LEN } from './versions.js';

/** What the chain methods call: the chain queries and the world state's sync status. */
export interface AztecChainApiPorts {
  chain: Pick<
    ChainQueries,
    | 'tips'
    | 'latestBlockNumber'
    | 'block'
    | 'blocks'
    | 'publishedCheckpoints'
    | 'checkpointedBlocks'
    | 'checkpointsData'
  >;
  info: Pick<NodeStatus, 'getWorldStateSyncStatus'>;
}

const limit = (max: number, what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(max, `at most ${max} ${what} per call`)
    .describe(`How many ${what} (1 to ${max})`);

export function aztecChainMethods({ chain: q, info }: AztecChainApiPorts): RpcMethod[] {
  return [
    defineMethod({
      namespace: 'node',
      name: 'getL2Tips',
      summary: 'The chain tips: proposed, checkpointed, proven and finalized',
      params: [],
      resultName: 'tips',
      result: chainTips,
      handler: () => q.tips(),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getWorldStateSyncStatus',
      summary: 'How far the world state has synced',
      params: [],
      resultName: 'status',
      result: worldStateSyncStatus,
      handler: () => info.getWorldStateSyncStatus(),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockNumber',
      summary: 'The latest block number (the proposed tip)',
      params: [],
      resultName: 'blockNumber',
      result: uint,
      handler: () => q.latestBlockNumber(),
    }),
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
      name: 'getCheckpointedBlockNumber',
      summary: 'The latest block number of a checkpoint on L1',
      params: [],
      resultName: 'blockNumber',
      result: uint,
      handler: () => q.tips().checkpointed.block.number,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getCheckpointNumber',
      summary: 'The latest checkpoint number on L1',
      params: [],
      resultName: 'checkpointNumber',
      result: uint,
      handler: () => q.tips().checkpointed.checkpoint.number,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlock',
      summary: 'A block with its txs effects, by number, hash or latest (none when the chain lacks it)',
      params: [{ name: 'block', schema: blockParameter }],
      resultName: 'block',
      result: l2Block.optional(),
      handler: (ref) => q.block(ref),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockByHash',
      summary: 'A block by its hash',
      params: [{ name: 'blockHash', schema: blockHash }],
      resultName: 'block',
      result: l2Block.optional(),
      handler: (hash) => q.block({ kind: 'hash', hash }),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockByArchive',
      summary: 'A block by the archive root after it',
      params: [{ name: 'archive', schema: fr }],
      resultName: 'block',
      result: l2Block.optional(),
      handler: (archive) => q.block({ kind: 'archive', archive }),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlocks',
      summary: 'Blocks from a number, as many as exist up to the limit',
      params: [
        { name: 'from', schema: positiveBlockNumber },
        { name: 'limit', schema: limit(MAX_RPC_BLOCKS_LEN, 'blocks') },
      ],
      resultName: 'blocks',
      result: z.array(l2Block),
      handler: (from, n) => q.blocks(from, n),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockHeader',
      summary: "A block's header, by number, hash or latest (the latest when omitted)",
      params: [{ name: 'block', schema: blockParameter, optional: true }],
      resultName: 'header',
      result: blockHeader.optional(),
      handler: (ref) => q.block(ref ?? { kind: 'tag', tag: 'proposed' })?.header,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockHeaderByArchive',
      summary: "A block's header by the archive root after it",
      params: [{ name: 'archive', schema: fr }],
      resultName: 'header',
      result: blockHeader.optional(),
      handler: (archive) => q.block({ kind: 'archive', archive })?.header,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getCheckpoints',
      summary: 'Checkpoints on L1 from a number, with their blocks, L1 publication and attestations',
      params: [
        { name: 'from', schema: checkpointNumber },
        { name: 'limit', schema: limit(MAX_RPC_CHECKPOINTS_LEN, 'checkpoints') },
      ],
      resultName: 'checkpoints',
      result: z.array(publishedCheckpoint),
      handler: (from, n) =>
        q.publishedCheckpoints(from, n).map(({ published, blocks }) => ({
          checkpoint: { ...published.checkpoint, blocks },
          l1: published.l1,
          attestations: published.attestations,
        })),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getCheckpointedBlocks',
      summary:
        'Blocks of checkpoints on L1 from a number, each with its checkpoint number, L1 publication and attestations',
      params: [
        { name: 'from', schema: positiveBlockNumber },
        { name: 'limit', schema: limit(MAX_RPC_BLOCKS_LEN, 'blocks') },
      ],
      resultName: 'blocks',
      result: z.array(checkpointedL2Block),
      handler: (from, n) =>
        q.checkpointedBlocks(from, n).map(({ block, published }) => ({
          checkpointNumber: published.checkpoint.number,
          block,
          l1: published.l1,
          attestations: published.attestations,
        })),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getCheckpointsDataForEpoch',
      summary: 'The checkpoints of an epoch: headers, archives, L1 publication and attestations',
      params: [{ name: 'epoch', schema: epochNumber }],
      resultName: 'checkpoints',
      result: z.array(checkpointData),
      handler: (epoch) => q.checkpointsData({ kind: 'epoch', epoch }),
    }),
  ];
}
