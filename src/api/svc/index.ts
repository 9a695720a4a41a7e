// The current method set (svc_*).
import type { CairnNode } from '../../node/node.js';
import type { RpcMethod } from '../../rpc/registry.js';
import { infoMethods } from './info.js';

export function svcMethods(node: CairnNode): RpcMethod[] {
  return [...infoMethods(node, ['svc'])];
}
