// The chain (blocks, checkpoints, tips) methods' handlers, each added to its declaration in
// src/client/methods/chain.ts (names, params, result schema and words, shared with the typed
// client), and the ports they call.
import { chainDeclarations } from '../client/methods/chain.js';
import type { L1RollupConstants } from '../core/time.js';
import type { NodeStatus } from '../node/status.js';
import type { ChainQueries } from '../queries/chain.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';

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

function svcChainMethods({ chain: q, constants }: ChainApiPorts): RpcMethod[] {
  const tips = () => q.tips();
  return [
    defineMethod({
      ...chainDeclarations.svc_getCheckpointNumber,
      handler: (tip) => tips()[tip ?? 'checkpointed'].checkpoint.number,
    }),
    defineMethod({ ...chainDeclarations.svc_getChainTips, handler: () => tips() }),
    defineMethod({ ...chainDeclarations.svc_getL1Constants, handler: () => constants }),
    defineMethod({ ...chainDeclarations.svc_getSyncedL2SlotNumber, handler: () => q.syncedSlot() }),
    defineMethod({ ...chainDeclarations.svc_getSyncedL2EpochNumber, handler: () => q.syncedEpoch() }),
    defineMethod({ ...chainDeclarations.svc_getSyncedL1Timestamp, handler: () => q.syncedL1Timestamp() }),
    defineMethod({
      ...chainDeclarations.svc_getBlockData,
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
      ...chainDeclarations.svc_getCheckpoint,
      handler: (param, options) => q.checkpoint(param, options),
    }),
    defineMethod({
      ...chainDeclarations.svc_getCheckpoints,
      handler: (start, limit, options) => q.checkpointResponses(start, limit, options),
    }),
    defineMethod({
      ...chainDeclarations.svc_getCheckpointsData,
      handler: (query) => q.checkpointsData(query),
    }),
  ];
}

/** The methods both sets have, each declared once with where the earlier set's twin differs. */
function twinChainMethods({ chain: q, info }: ChainApiPorts): RpcMethod[] {
  return [
    ...defineMethods(chainDeclarations.getWorldStateSyncStatus.namespaces, {
      ...chainDeclarations.getWorldStateSyncStatus.spec,
      handler: () => info.getWorldStateSyncStatus(),
    }),
    ...defineMethods(
      chainDeclarations.getBlockNumber.namespaces,
      {
        ...chainDeclarations.getBlockNumber.spec,
        handler: (tip) =>
          tip === undefined || tip === 'proposed' ? q.latestBlockNumber() : q.tips()[tip].block.number,
      },
      { node: { ...chainDeclarations.getBlockNumber.overrides.node, handler: () => q.latestBlockNumber() } },
    ),
    ...defineMethods(
      chainDeclarations.getBlock.namespaces,
      {
        ...chainDeclarations.getBlock.spec,
        handler: (param, options) => {
          const block = q.block(param);
          return block && q.blockResponse(block, options);
        },
      },
      { node: { ...chainDeclarations.getBlock.overrides.node, handler: (n) => earlierBlock(q, n) } },
    ),
    ...defineMethods(
      chainDeclarations.getBlocks.namespaces,
      {
        ...chainDeclarations.getBlocks.spec,
        handler: (start, limit, options) => q.blockResponses(start, limit, options),
      },
      {
        node: {
          ...chainDeclarations.getBlocks.overrides.node,
          handler: (from, limit) => q.blocks(from, limit),
        },
      },
    ),
  ];
}

/** A block as the earlier set names it: by number, or the latest when 'latest' or omitted. */
const earlierBlock = (q: ChainApiPorts['chain'], n: number | 'latest' | undefined) =>
  q.block(
    n === undefined || n === 'latest' ? { kind: 'tag', tag: 'proposed' } : { kind: 'number', number: n },
  );

function nodeChainMethods({ chain: q }: ChainApiPorts): RpcMethod[] {
  return [
    defineMethod({
      ...chainDeclarations.node_getProvenBlockNumber,
      handler: () => q.tips().proven.block.number,
    }),
    defineMethod({
      ...chainDeclarations.node_getL2Tips,
      handler: () => {
        const tips = q.tips();
        return { latest: tips.proposed, pending: tips.checkpointed.block, proven: tips.proven.block };
      },
    }),
    defineMethod({ ...chainDeclarations.node_getBlockHeader, handler: (n) => earlierBlock(q, n)?.header }),
  ];
}
