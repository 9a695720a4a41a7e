// The `cairn/client` package: a small client of a cairn node for scripts, tests and the `cairn`
// commands — JSON-RPC calls and tx building (node-client.ts), and contracts from compiled
// artifacts: ABI encoding, deployment, calls, simulation and storage reads (contracts.ts). Every
// method the node serves is typed by the declarations the node serves it from (methods/):
// `NodeClient.request('svc_getBlock', 'latest')`.

export {
  AbiError,
  type AbiParameter,
  type AbiType,
  type AbiValue,
  abiValueToJson,
  decodeValue,
  encodeArguments,
  functionSignature,
} from '../core/abi.js';
export {
  type ArtifactFunction,
  type ContractArtifact,
  contractClassOf,
  decodeReturn,
  findFunction,
  InvalidArtifactError,
  parseArtifact,
  privateFunctionsOf,
  publicCalldata,
  revertMessage,
} from '../core/artifact.js';
export {
  CONTRACT_INSTANCE_PUBLISHED_TAG,
  type ContractClassPublic,
  type ContractInstance,
  DEFAULT_PUBLIC_KEYS,
  initializationHash,
  makeContractClass,
  makeContractInstance,
  siloNullifier,
  siloPrivateLogFirstField,
} from '../core/contracts.js';
export { functionSelector } from '../core/hash/selector.js';
export { computeSecretHash, l1ToL2MessageHash } from '../core/l1-to-l2.js';
export { l2ToL1MessageLeaf } from '../core/out-hash.js';
export {
  buildTx,
  classUpdateCall,
  feeJuiceClaimCall,
  type PublicCallSpec,
  randomFr,
  type SideEffectsSpec,
  type TxSpec,
} from '../core/tx-builder.js';
export { DEV_ACCOUNT_BALANCE, devAccounts } from '../execution/dev-accounts.js';
export { mapStorageSlot } from '../execution/public-storage.js';
export * from './contracts.js';
export {
  declaredMethodNames,
  declaredMethods,
  type MethodMap,
  type MethodName,
  type MethodParams,
  type MethodResult,
  type WireParams,
  type WireResult,
} from './methods/index.js';
export * from './node-client.js';
