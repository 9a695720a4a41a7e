// Node information methods. The current set (svc_) and the earlier set (node_) answer
// them identically, so both sets are declared from this one list.
import { z } from 'zod';
import { uint } from '../../core/codecs.js';
import type { CairnNode } from '../../node/node.js';
import { defineMethods, type Namespace, type RpcMethod } from '../../rpc/registry.js';
import { allowedElements, l1ContractAddresses, nodeInfo, protocolContractAddresses } from '../schemas.js';

export function infoMethods(node: CairnNode, namespaces: readonly Namespace[]): RpcMethod[] {
  return [
    ...defineMethods(namespaces, {
      name: 'getNodeInfo',
      summary: 'Information about the node: versions, chain id, protocol contracts, tx limits',
      params: [],
      resultName: 'nodeInfo',
      result: nodeInfo,
      handler: () => node.getNodeInfo(),
    }),
    ...defineMethods(namespaces, {
      name: 'getNodeVersion',
      summary: 'The version of the node package',
      params: [],
      resultName: 'version',
      result: z.string(),
      handler: () => node.getNodeInfo().nodeVersion,
    }),
    ...defineMethods(namespaces, {
      name: 'getVersion',
      summary: 'The rollup version',
      params: [],
      resultName: 'rollupVersion',
      result: uint,
      handler: () => node.getNodeInfo().rollupVersion,
    }),
    ...defineMethods(namespaces, {
      name: 'getChainId',
      summary: 'The chain id of the L1 chain',
      params: [],
      resultName: 'chainId',
      result: uint,
      handler: () => node.getNodeInfo().l1ChainId,
    }),
    ...defineMethods(namespaces, {
      name: 'isReady',
      summary: 'Whether the node is ready to accept transactions',
      params: [],
      resultName: 'ready',
      result: z.boolean(),
      handler: () => node.isReady(),
    }),
    ...defineMethods(namespaces, {
      name: 'getEncodedEnr',
      summary: 'The node record for peer discovery, or null while P2P is off',
      params: [],
      resultName: 'enr',
      result: z.string().optional(),
      handler: () => node.getEncodedEnr(),
    }),
    ...defineMethods(namespaces, {
      name: 'getAllowedPublicSetup',
      summary: 'Public functions allowed in the setup phase of a tx: protocol defaults plus configuration',
      params: [],
      resultName: 'allowedElements',
      result: allowedElements,
      handler: () => node.getAllowedPublicSetup(),
    }),
    ...defineMethods(namespaces, {
      name: 'getL1ContractAddresses',
      summary: 'Addresses of the rollup contracts on L1',
      params: [],
      resultName: 'l1ContractAddresses',
      result: l1ContractAddresses,
      handler: () => node.getL1ContractAddresses(),
    }),
    ...defineMethods(namespaces, {
      name: 'getProtocolContractAddresses',
      summary: 'Addresses of the protocol contracts',
      params: [],
      resultName: 'protocolContractAddresses',
      result: protocolContractAddresses,
      handler: () => node.getNodeInfo().protocolContractAddresses,
    }),
  ];
}
