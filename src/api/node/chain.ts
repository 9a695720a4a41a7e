// Block and tip methods of the earlier set (node_), with its limits.
import { z } from 'zod';
import { uint } from '../../core/codecs.js';
import type { CairnNode } from '../../node/node.js';
import { defineMethod, type RpcMethod } from '../../rpc/registry.js';
import { blockHeader, l2Block, l2TipsEarlier } from '../chain-schemas.js';
import { MAX_BLOCKS } from '../svc/chain.js';

const blockNumberOrLatest = z
  .union([uint, z.literal('latest')], { error: 'expected a block number or "latest"' })
  .describe('A block number or "latest"');

export function nodeChainMethods(node: CairnNode): RpcMethod[] {
  const chain = node.chain;
  const numberOf = (n: number | 'latest' | undefined) =>
    n === undefined || n === 'latest' ? chain.latestBlockNumber : n;
  const asL2Block = (n: number) => chain.getBlock(n);
  return [
    defineMethod({
      namespace: 'node',
      name: 'getBlockNumber',
      summary: 'The latest block number',
      params: [],
      resultName: 'blockNumber',
      result: uint,
      handler: () => chain.latestBlockNumber,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getProvenBlockNumber',
      summary: 'The latest proven block number',
      params: [],
      resultName: 'blockNumber',
      result: uint,
      handler: () => chain.getTips().proven.block.number,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getL2Tips',
      summary: 'The chain tips: latest (proposed), pending (checkpointed), proven',
      params: [],
      resultName: 'tips',
      result: l2TipsEarlier,
      handler: () => {
        const tips = chain.getTips();
        return { latest: tips.proposed, pending: tips.checkpointed.block, proven: tips.proven.block };
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlock',
      summary: 'A block by number, or the latest',
      params: [{ name: 'blockNumber', schema: blockNumberOrLatest }],
      resultName: 'block',
      result: l2Block.optional(),
      handler: (n) => asL2Block(numberOf(n)),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlocks',
      summary: `Up to limit (1 to ${MAX_BLOCKS}) blocks from a block number (at least 1)`,
      params: [
        { name: 'from', schema: uint.min(1, 'from is at least 1') },
        { name: 'limit', schema: z.number().int().min(1).max(MAX_BLOCKS, `limit is 1 to ${MAX_BLOCKS}`) },
      ],
      resultName: 'blocks',
      result: z.array(l2Block),
      handler: (from, limit) => node.queries.blocks(from, limit),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockHeader',
      summary: 'The header of a block (the latest when omitted)',
      params: [{ name: 'blockNumber', schema: blockNumberOrLatest, optional: true }],
      resultName: 'header',
      result: blockHeader.optional(),
      handler: (n) => asL2Block(numberOf(n))?.header,
    }),
  ];
}
