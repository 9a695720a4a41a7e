// The info methods as declared, without their handlers (src/api/info.ts adds them).
// Node information methods. The current set (svc_) and the earlier set (node_) answer them
// identically, so both sets are declared from one list; the earlier set's debug method that
// registers function signatures (named in logs) follows.
import { z } from 'zod';
import { uint } from '../../core/codecs.js';
import { method, twins } from './declare.js';
import { BAD_SIGNATURE } from './errors.js';
import { allowedElements, l1ContractAddresses, nodeInfo, protocolContractAddresses } from './info-schemas.js';
import { voidResult } from './schemas.js';

/** The earlier set's limits on its debug method (docs/rpc.md, "Limits"): count and length. */
export const MAX_SIGNATURES = 100;
export const MAX_SIGNATURE_LENGTH = 10_000;

export const functionSignature = z
  .string()
  .min(3, 'a function signature looks like name(type,...)')
  .max(MAX_SIGNATURE_LENGTH, `a function signature is at most ${MAX_SIGNATURE_LENGTH} characters`)
  .regex(/^[^\s()]+\(\S*\)$/, 'a function signature looks like name(type,...) and has no whitespace');

export const BOTH = ['svc', 'node'] as const;

export const infoDeclarations = {
  getNodeInfo: twins(BOTH, {
    name: 'getNodeInfo',
    summary: 'Information about the node: versions, chain id, protocol contracts, tx limits',
    params: [],
    resultName: 'nodeInfo',
    result: nodeInfo,
  }),
  getNodeVersion: twins(BOTH, {
    name: 'getNodeVersion',
    summary: 'The version of the node package',
    params: [],
    resultName: 'version',
    result: z.string(),
  }),
  getVersion: twins(BOTH, {
    name: 'getVersion',
    summary: 'The rollup version',
    params: [],
    resultName: 'rollupVersion',
    result: uint,
  }),
  getChainId: twins(BOTH, {
    name: 'getChainId',
    summary: 'The chain id of the L1 chain',
    params: [],
    resultName: 'chainId',
    result: uint,
  }),
  isReady: twins(BOTH, {
    name: 'isReady',
    summary: 'Whether the node is ready to accept transactions',
    params: [],
    resultName: 'ready',
    result: z.boolean(),
  }),
  getEncodedEnr: twins(BOTH, {
    name: 'getEncodedEnr',
    summary: 'The node record for peer discovery, or null while P2P is off',
    params: [],
    resultName: 'enr',
    result: z.string().optional(),
  }),
  getAllowedPublicSetup: twins(BOTH, {
    name: 'getAllowedPublicSetup',
    summary: 'Public functions allowed in the setup phase of a tx: protocol defaults plus configuration',
    params: [],
    resultName: 'allowedElements',
    result: allowedElements,
  }),
  getL1ContractAddresses: twins(BOTH, {
    name: 'getL1ContractAddresses',
    summary: 'Addresses of the rollup contracts on L1',
    params: [],
    resultName: 'l1ContractAddresses',
    result: l1ContractAddresses,
  }),
  getProtocolContractAddresses: twins(BOTH, {
    name: 'getProtocolContractAddresses',
    summary: 'Addresses of the protocol contracts',
    params: [],
    resultName: 'protocolContractAddresses',
    result: protocolContractAddresses,
  }),
  node_registerContractFunctionSignatures: method({
    namespace: 'node',
    name: 'registerContractFunctionSignatures',
    summary: 'Registers function signatures so that their selectors are named in logs',
    params: [
      {
        name: 'functionSignatures',
        schema: z
          .array(functionSignature)
          .max(MAX_SIGNATURES, `at most ${MAX_SIGNATURES} signatures per call`),
        description: 'Signatures such as transfer((Field),u128)',
      },
    ],
    resultName: 'void',
    result: voidResult,
    errors: [BAD_SIGNATURE],
  }),
} as const;
