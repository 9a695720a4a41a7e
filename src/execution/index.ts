export { DEV_ACCOUNT_BALANCE, type DevAccount, devAccounts, devAccountsGenesisData } from './dev-accounts.js';
export {
  type ExecutionOptions,
  executeTx,
  type GasUsed,
  TxExecutionError,
  type TxExecutionResult,
} from './executor.js';
export { feeJuiceBalanceSlot, PublicCallRevert, runPublicCall } from './protocol-contracts.js';
export { mapStorageSlot, PublicStateJournal, publicDataLeafSlot, readPublicData } from './public-storage.js';
