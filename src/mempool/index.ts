export { type AddResult, type PoolEntry, TxPool, type TxPoolOptions, type TxStatus } from './tx-pool.js';
