// The reference API's methods about the node itself, its fees and its validators. Where the
// reference's params and result are those of cairn's own declaration, the method is that
// declaration served under the reference's name; the handlers call the same parts.
import { z } from 'zod';
import { BAD_SIGNATURE } from '../client/methods/errors.js';
import { infoDeclarations } from '../client/methods/info.js';
import { voidResult } from '../client/methods/schemas.js';
import { txsDeclarations } from '../client/methods/txs.js';
import { validatorsDeclarations } from '../client/methods/validators.js';
import type { TxService } from '../mempool/tx-service.js';
import type { NodeStatus } from '../node/status.js';
import type { ValidatorQueries } from '../queries/validators.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { MAX_SIGNATURE_LENGTH, MAX_SIGNATURES_PER_CALL } from './versions.js';

/** What the node methods call: node info, fees and validator stats. */
export interface AztecInfoApiPorts {
  info: Pick<
    NodeStatus,
    | 'getNodeInfo'
    | 'isReady'
    | 'getEncodedEnr'
    | 'getAllowedPublicSetup'
    | 'getL1ContractAddresses'
    | 'registerFunctionSignatures'
  >;
  fees: Pick<TxService, 'currentMinFees' | 'maxPriorityFees'>;
  validators: Pick<ValidatorQueries, 'getValidatorsStats' | 'getValidatorStats'>;
}

export function aztecInfoMethods({ info, fees, validators }: AztecInfoApiPorts): RpcMethod[] {
  const d = infoDeclarations;
  return [
    defineMethod({ ...d.getNodeInfo.spec, namespace: 'node', handler: () => info.getNodeInfo() }),
    defineMethod({
      ...d.getNodeVersion.spec,
      namespace: 'node',
      handler: () => info.getNodeInfo().nodeVersion,
    }),
    defineMethod({
      ...d.getVersion.spec,
      namespace: 'node',
      handler: () => info.getNodeInfo().rollupVersion,
    }),
    defineMethod({ ...d.getChainId.spec, namespace: 'node', handler: () => info.getNodeInfo().l1ChainId }),
    defineMethod({ ...d.isReady.spec, namespace: 'node', handler: () => info.isReady() }),
    defineMethod({ ...d.getEncodedEnr.spec, namespace: 'node', handler: () => info.getEncodedEnr() }),
    defineMethod({
      ...d.getAllowedPublicSetup.spec,
      namespace: 'node',
      handler: () => info.getAllowedPublicSetup(),
    }),
    defineMethod({
      ...d.getL1ContractAddresses.spec,
      namespace: 'node',
      handler: () => info.getL1ContractAddresses(),
    }),
    defineMethod({
      ...d.getProtocolContractAddresses.spec,
      namespace: 'node',
      handler: () => info.getNodeInfo().protocolContractAddresses,
    }),
    defineMethod({
      namespace: 'node',
      name: 'registerContractFunctionSignatures',
      summary: 'Registers function signatures, so that logs and errors can name the functions',
      params: [
        {
          name: 'functionSignatures',
          schema: z
            .array(z.string().max(MAX_SIGNATURE_LENGTH))
            .max(MAX_SIGNATURES_PER_CALL, `at most ${MAX_SIGNATURES_PER_CALL} signatures per call`),
          description: 'Signatures such as transfer((Field),u128)',
        },
      ],
      resultName: 'nothing',
      result: voidResult,
      errors: [BAD_SIGNATURE],
      handler: async (signatures) => {
        await info.registerFunctionSignatures(signatures);
      },
    }),
    defineMethod({
      ...txsDeclarations.svc_getCurrentMinFees,
      namespace: 'node',
      handler: () => fees.currentMinFees(),
    }),
    defineMethod({
      ...txsDeclarations.svc_getMaxPriorityFees,
      namespace: 'node',
      handler: () => fees.maxPriorityFees(),
    }),
    defineMethod({
      ...validatorsDeclarations.getValidatorsStats.spec,
      namespace: 'node',
      handler: () => validators.getValidatorsStats(),
    }),
    defineMethod({
      ...validatorsDeclarations.getValidatorStats.spec,
      namespace: 'node',
      result: validatorsDeclarations.getValidatorStats.spec.result.optional(),
      handler: (address, from, to) => validators.getValidatorStats(address, from, to),
    }),
  ];
}
