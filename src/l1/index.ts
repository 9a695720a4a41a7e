// The rollup's L1 side: contract artifacts, deployment and the embedded anvil.
export { type L1ContractAddresses, ZERO_ADDRESS } from './addresses.js';
export {
  type AnvilInstance,
  type AnvilLogger,
  resolveAnvilBinary,
  type StartAnvilOptions,
  startAnvil,
} from './anvil.js';
export {
  DEFAULT_DEPLOYER_PRIVATE_KEY,
  DEFAULT_FEE_JUICE_MINT,
  type DeployL1Params,
  deployL1Contracts,
  expectedL1ContractAddresses,
  type L1ClientOptions,
  l1Chain,
} from './deploy.js';
export { artifacts, type L1ContractName, SOLC_VERSION } from './generated/artifacts.js';
