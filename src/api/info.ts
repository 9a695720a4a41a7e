// The node information methods' handlers, each added to its declaration in
// src/client/methods/info.ts (names, params, result schema and words, shared with the typed
// client), and the ports they call.

import { callsDeclarations } from '../client/methods/calls.js';
import { infoDeclarations } from '../client/methods/info.js';
import type { NodeStatus } from '../node/status.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';

/** What the info methods call: what the node says about itself, and the signature book. */
export interface InfoApiPorts {
  info: Pick<
    NodeStatus,
    | 'getNodeInfo'
    | 'isReady'
    | 'getEncodedEnr'
    | 'getAllowedPublicSetup'
    | 'getL1ContractAddresses'
    | 'registerFunctionSignatures'
    | 'functionSignatures'
  >;
}

export function infoMethods({ info }: InfoApiPorts): RpcMethod[] {
  return [
    ...defineMethods(infoDeclarations.getNodeInfo.namespaces, {
      ...infoDeclarations.getNodeInfo.spec,
      handler: () => info.getNodeInfo(),
    }),
    ...defineMethods(infoDeclarations.getNodeVersion.namespaces, {
      ...infoDeclarations.getNodeVersion.spec,
      handler: () => info.getNodeInfo().nodeVersion,
    }),
    ...defineMethods(infoDeclarations.getVersion.namespaces, {
      ...infoDeclarations.getVersion.spec,
      handler: () => info.getNodeInfo().rollupVersion,
    }),
    ...defineMethods(infoDeclarations.getChainId.namespaces, {
      ...infoDeclarations.getChainId.spec,
      handler: () => info.getNodeInfo().l1ChainId,
    }),
    ...defineMethods(infoDeclarations.isReady.namespaces, {
      ...infoDeclarations.isReady.spec,
      handler: () => info.isReady(),
    }),
    ...defineMethods(infoDeclarations.getEncodedEnr.namespaces, {
      ...infoDeclarations.getEncodedEnr.spec,
      handler: () => info.getEncodedEnr(),
    }),
    ...defineMethods(infoDeclarations.getAllowedPublicSetup.namespaces, {
      ...infoDeclarations.getAllowedPublicSetup.spec,
      handler: () => info.getAllowedPublicSetup(),
    }),
    ...defineMethods(infoDeclarations.getL1ContractAddresses.namespaces, {
      ...infoDeclarations.getL1ContractAddresses.spec,
      handler: () => info.getL1ContractAddresses(),
    }),
    ...defineMethods(infoDeclarations.getProtocolContractAddresses.namespaces, {
      ...infoDeclarations.getProtocolContractAddresses.spec,
      handler: () => info.getNodeInfo().protocolContractAddresses,
    }),
    defineMethod({
      ...infoDeclarations.node_registerContractFunctionSignatures,
      handler: (signatures) => info.registerFunctionSignatures(signatures),
    }),
    defineMethod({
      ...callsDeclarations.svc_getFunctionSignatures,
      handler: (selectors) => info.functionSignatures(selectors),
    }),
  ];
}
