// Transactions (docs/transactions.md): the protocol constants a tx is held to, and its gas and fees.
// The tx itself is the reference's kernel model (src/core/kernel/); what the node reads from it is
// its view (tx-view.ts).

import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from './block.js';
import type { GasFees } from './block-header.js';
import type { Fr } from './field.js';
import { poseidon2Hash } from './hash/poseidon2.js';

export type { Gas, GasSettings } from './kernel/public-inputs.js';
export type { GasFees };

import type { Gas, GasSettings } from './kernel/public-inputs.js';

// The kernel's per-tx capacities, named where the node's code looks for them.
export {
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_TX_HASH_SEPARATOR,
  PUBLIC_TX_HASH_SEPARATOR,
} from './kernel/constants.js';

// Gas constants (docs/transactions.md).
export const MAX_TX_LIFETIME = 86_400n;

/**
 * Whether a tx that expires at `expiration` is too late for block `blockNumber` at `timestamp`.
 * Block 1 takes any tx, as the reference's: a tx built on a fresh chain anchors at the genesis
 * header, whose timestamp is 0, so its wallet-set expiration (anchor + lifetime) is long past.
 */
export const expiredFor = (expiration: bigint, blockNumber: number, timestamp: bigint): boolean =>
  blockNumber > 1 && expiration < timestamp;
/** A serialized tx may be at most this many bytes (512 KiB). */
export const MAX_TX_SIZE_BYTES = 512 * 1024;

export const DA_GAS_PER_FIELD = 32;
export const TX_DA_GAS_OVERHEAD = 96;
export const PRIVATE_TX_L2_GAS_OVERHEAD = 440_000;
export const PUBLIC_TX_L2_GAS_OVERHEAD = 540_000;
export const FIXED_AVM_STARTUP_L2_GAS = 20_000;
export const L2_GAS_PER_NOTE_HASH = 9_200;
export const L2_GAS_PER_NULLIFIER = 16_000;
export const L2_GAS_PER_L2_TO_L1_MSG = 5_200;
export const L2_GAS_PER_PRIVATE_LOG = 2_500;
export const L2_GAS_PER_CONTRACT_CLASS_LOG = 73_000;
/** cairn's price of one public storage write made by a (natively executed) public call. */
export const L2_GAS_PER_PUBLIC_DATA_WRITE = 16_000;
export const MAX_PROCESSABLE_L2_GAS = 6_540_000;

// Domain separators (reference constants).
export const PUBLIC_CALLDATA_SEPARATOR = 2_760_353_947;

export { emptyGas } from './kernel/public-inputs.js';
/**
 * A tx as the node holds it: the reference's model (src/core/kernel/): the private kernel tail's
 * public inputs, the proof, and the class logs' fields and public calldata its hashes commit to.
 * What the node reads from it (side effects per part, calls) is its view (tx-view.ts).
 */
export type { TxBody as Tx } from './kernel/tx.js';

/** What a public call's calldata hash is Poseidon2 of: its separator, then the calldata. */
export const calldataHashInput = (values: readonly Fr[]): Fr[] => [
  BigInt(PUBLIC_CALLDATA_SEPARATOR),
  ...values,
];

/** The hash of a public call's calldata. */
export function calldataHash(values: readonly Fr[]): Fr {
  return poseidon2Hash(calldataHashInput(values));
}

/** What a contract class log's hash is Poseidon2 of: its fields, zero padded to their full size. */
export function contractClassLogHashInput(fields: readonly Fr[]): Fr[] {
  const padded = [...fields];
  while (padded.length < CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) padded.push(0n);
  return padded;
}

/** The hash of a contract class log's fields, zero padded to their full size. */
export function contractClassLogHash(fields: readonly Fr[]): Fr {
  return poseidon2Hash(contractClassLogHashInput(fields));
}

/** The most a tx can be charged: gas limits (teardown included) times max fees per gas. */
export function txFeeLimit(settings: GasSettings): bigint {
  return (
    BigInt(settings.gasLimits.daGas) * settings.maxFeesPerGas.feePerDaGas +
    BigInt(settings.gasLimits.l2Gas) * settings.maxFeesPerGas.feePerL2Gas
  );
}

/** What the tx pays per unit of gas in a block with `gasFees`: the fee plus its priority fee, capped by its maximum. */
export function effectiveFeesPerGas(settings: GasSettings, gasFees: GasFees): GasFees {
  const min = (a: bigint, b: bigint) => (a < b ? a : b);
  return {
    feePerDaGas: min(
      settings.maxFeesPerGas.feePerDaGas,
      gasFees.feePerDaGas + settings.maxPriorityFeesPerGas.feePerDaGas,
    ),
    feePerL2Gas: min(
      settings.maxFeesPerGas.feePerL2Gas,
      gasFees.feePerL2Gas + settings.maxPriorityFeesPerGas.feePerL2Gas,
    ),
  };
}

/** The fee for `gas` at `feesPerGas`. */
export const feeFor = (gas: Gas, feesPerGas: GasFees): bigint =>
  BigInt(gas.daGas) * feesPerGas.feePerDaGas + BigInt(gas.l2Gas) * feesPerGas.feePerL2Gas;
