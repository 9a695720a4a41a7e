// The reference node's published API (4.1.2's AztecNodeApiSchema) as cairn serves it at
// `POST /aztec` on the public port (docs/aztec-api.md): the 55 methods under the names the
// stock client sends (`node_<name>`), in one registry of their own (the seeds' `node_*` set at
// `/` has other methods under the same names). Each topic file declares its methods with the
// reference's params and result shapes and names the ports it calls; the handlers call the same
// query components as cairn's own API, so this face is declarations and codecs, not a second
// copy of the node's logic.
import { AZTEC_EXAMPLES } from '../client/methods/examples.js';
import { MethodRegistry } from '../rpc/registry.js';
import { type AztecChainApiPorts, aztecChainMethods } from './chain.js';
import { type AztecContractApiPorts, aztecContractMethods } from './contracts.js';
import { type AztecInfoApiPorts, aztecInfoMethods } from './info.js';
import { type AztecLogApiPorts, aztecLogMethods } from './logs.js';
import { type AztecMessageApiPorts, aztecMessageMethods } from './messages.js';
import { type AztecStateApiPorts, aztecStateMethods } from './state.js';
import { type AztecTxApiPorts, aztecTxMethods } from './txs.js';

/** The node as this API's topics see it, laid out as CairnNode holds its parts. */
export interface AztecApiNode {
  readonly queries: {
    readonly chain: AztecChainApiPorts['chain'];
    readonly state: AztecStateApiPorts['state'];
    readonly logs: AztecLogApiPorts['logs'];
    readonly contracts: AztecContractApiPorts['contracts'];
    readonly messages: AztecMessageApiPorts['messages'];
    readonly validators: AztecInfoApiPorts['validators'];
  };
  readonly txs: AztecTxApiPorts['txs'] & AztecInfoApiPorts['fees'];
  readonly info: AztecInfoApiPorts['info'] & AztecChainApiPorts['info'];
  readonly untilIncluded?: AztecTxApiPorts['untilIncluded'];
}

export function buildAztecRegistry(node: AztecApiNode): MethodRegistry {
  const { queries } = node;
  return new MethodRegistry()
    .add(
      ...aztecChainMethods({ chain: queries.chain, info: node.info }),
      ...aztecStateMethods({ state: queries.state }),
      ...aztecLogMethods({ logs: queries.logs }),
      ...aztecMessageMethods({ messages: queries.messages }),
      ...aztecContractMethods({ contracts: queries.contracts }),
      ...aztecTxMethods({ txs: node.txs, untilIncluded: node.untilIncluded?.bind(node) }),
      ...aztecInfoMethods({ info: node.info, fees: node.txs, validators: queries.validators }),
    )
    .withExamples(AZTEC_EXAMPLES);
}

/** The path of this API on the public port. */
export const AZTEC_API_PATH = '/aztec';

/** The 55 methods of 4.1.2's AztecNodeApiSchema, without the `node_` prefix. */
export const AZTEC_NODE_API_METHODS = [
  'getL2Tips',
  'getWorldStateSyncStatus',
  'findLeavesIndexes',
  'getNullifierMembershipWitness',
  'getLowNullifierMembershipWitness',
  'getPublicDataWitness',
  'getBlockHashMembershipWitness',
  'getNoteHashMembershipWitness',
  'getL1ToL2MessageMembershipWitness',
  'getL1ToL2MessageCheckpoint',
  'isL1ToL2MessageSynced',
  'getL2ToL1Messages',
  'getBlock',
  'getBlockByHash',
  'getBlockByArchive',
  'getBlockNumber',
  'getCheckpointNumber',
  'getProvenBlockNumber',
  'getCheckpointedBlockNumber',
  'isReady',
  'getNodeInfo',
  'getBlocks',
  'getCheckpoints',
  'getCheckpointedBlocks',
  'getCheckpointsDataForEpoch',
  'getCurrentMinFees',
  'getMaxPriorityFees',
  'getNodeVersion',
  'getVersion',
  'getChainId',
  'getL1ContractAddresses',
  'getProtocolContractAddresses',
  'registerContractFunctionSignatures',
  'getPublicLogs',
  'getContractClassLogs',
  'getPrivateLogsByTags',
  'getPublicLogsByTagsFromContract',
  'sendTx',
  'getTxReceipt',
  'getTxEffect',
  'getPendingTxs',
  'getPendingTxCount',
  'getTxByHash',
  'getTxsByHash',
  'getPublicStorageAt',
  'getBlockHeader',
  'getBlockHeaderByArchive',
  'getValidatorsStats',
  'getValidatorStats',
  'simulatePublicCalls',
  'isValidTx',
  'getContractClass',
  'getContract',
  'getEncodedEnr',
  'getAllowedPublicSetup',
] as const;
