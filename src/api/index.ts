// All method sets of the node, in one registry. Each topic file declares its methods of both
// sets side by side (svc_ and node_, or svcAdmin_ and nodeAdmin_), with their schemas beside it.
import type { NodeApi } from '../node/node-api.js';
import { MethodRegistry } from '../rpc/registry.js';
import { adminMethods } from './admin.js';
import { chainMethods } from './chain.js';
import { contractMethods } from './contracts.js';
import { devMethods } from './dev.js';
import { infoMethods } from './info.js';
import { logMethods } from './logs.js';
import { messageMethods } from './messages.js';
import { stateMethods } from './state.js';
import { txMethods } from './txs.js';
import { validatorMethods } from './validators.js';

export function buildRegistry(node: NodeApi): MethodRegistry {
  return new MethodRegistry().add(
    ...infoMethods(node),
    ...chainMethods(node),
    ...txMethods(node),
    ...validatorMethods(node),
    ...stateMethods(node),
    ...logMethods(node),
    ...contractMethods(node),
    ...messageMethods(node),
    ...adminMethods(node),
    ...devMethods(node),
  );
}
