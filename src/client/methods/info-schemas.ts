// Result shapes of the node information methods. Each is a codec: the node's values on one
// side, their JSON (docs/rpc.md, "Values") on the other.
import { z } from 'zod';
import {
  allowedElement,
  deployedL1ContractAddresses,
  ethAddress,
  l2Address,
  uint,
} from '../../core/codecs.js';

export const protocolContractAddresses = z
  .object({
    classRegistry: l2Address,
    feeJuice: l2Address,
    instanceRegistry: l2Address,
    multiCallEntrypoint: l2Address,
  })
  .describe('Addresses of the protocol contracts');

export const l1ContractAddresses = deployedL1ContractAddresses
  .extend({
    stakingAssetAddress: ethAddress,
    coinIssuerAddress: ethAddress,
    rewardDistributorAddress: ethAddress,
    governanceProposerAddress: ethAddress,
    governanceAddress: ethAddress,
  })
  .describe('Addresses of the rollup contracts on L1 (the zero address for contracts cairn does not have)');

export const gas = z.object({ daGas: uint, l2Gas: uint }).describe('Gas amounts in both dimensions');

export const nodeInfo = z
  .object({
    nodeVersion: z.string().describe('Version of the cairn package'),
    l1ChainId: uint.describe('Chain id of the L1 chain'),
    rollupVersion: uint.describe('Version of the rollup'),
    enr: z.string().optional().describe('Node record for peer discovery; absent while P2P is off'),
    l1ContractAddresses,
    protocolContractAddresses,
    realProofs: z.boolean().describe('Whether tx proofs are really verified (false: the dev verifier)'),
    txsLimits: z.object({ gas }).describe('Most gas a single tx may declare'),
  })
  .describe('Information about the node');

export const allowedElements = z.array(allowedElement);
