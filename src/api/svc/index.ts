// The current method set (svc_*).
import type { CairnNode } from '../../node/node.js';
import type { RpcMethod } from '../../rpc/registry.js';
import { defineMethods } from '../../rpc/registry.js';
import { worldStateSyncStatus } from '../chain-schemas.js';
import { svcChainMethods } from './chain.js';
import { infoMethods } from './info.js';

/** Methods the two sets share word for word. */
export function sharedChainMethods(node: CairnNode, namespaces: readonly ('svc' | 'node')[]): RpcMethod[] {
  return defineMethods(namespaces, {
    name: 'getWorldStateSyncStatus',
    summary: 'How far the world state has synced',
    params: [],
    resultName: 'status',
    result: worldStateSyncStatus,
    handler: () => node.getWorldStateSyncStatus(),
  });
}

export function svcMethods(node: CairnNode): RpcMethod[] {
  return [...infoMethods(node, ['svc']), ...svcChainMethods(node), ...sharedChainMethods(node, ['svc'])];
}
