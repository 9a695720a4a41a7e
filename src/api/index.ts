// All method sets of the node, in one registry.
import type { CairnNode } from '../node/node.js';
import { MethodRegistry } from '../rpc/registry.js';
import { adminMethods } from './admin/index.js';
import { contractMethods } from './contracts.js';
import { devMethods } from './dev/index.js';
import { logMethods } from './logs.js';
import { messageMethods } from './messages.js';
import { nodeMethods } from './node/index.js';
import { stateMethods } from './state.js';
import { svcMethods } from './svc/index.js';
import { txMethods } from './txs.js';
import { validatorMethods } from './validators.js';

export function buildRegistry(node: CairnNode): MethodRegistry {
  return new MethodRegistry().add(
    ...svcMethods(node),
    ...nodeMethods(node),
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
