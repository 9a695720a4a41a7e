// Transactions (docs/transactions.md): what a client submits. The tx's `data` stands for the private
// kernel's output — the private side effects (already siloed), split into a non-revertible and
// a revertible part, the public calls it enqueued, its gas settings and its fee payer. The node
// computes the tx hash from `data`; the proof is checked by a pluggable verifier.

import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS, type PrivateLog } from './block.js';
import type { GasFees } from './block-header.js';
import { type Fr, toBytes32 } from './field.js';
import { poseidon2HashOffThread } from './hash/hash-worker.js';
import { poseidon2Hash, poseidon2HashWithSeparator } from './hash/poseidon2.js';

export type { GasFees };

// Per-tx maxima and gas constants (docs/transactions.md, "Format").
export const MAX_NOTE_HASHES_PER_TX = 64;
export const MAX_NULLIFIERS_PER_TX = 64;
export const MAX_L2_TO_L1_MSGS_PER_TX = 8;
export const MAX_PRIVATE_LOGS_PER_TX = 64;
export const MAX_CONTRACT_CLASS_LOGS_PER_TX = 1;
export const MAX_ENQUEUED_CALLS_PER_TX = 32;
/** The most calldata fields all of a tx's public calls may carry together. */
export const MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS = 12_288;
export const MAX_TX_LIFETIME = 86_400n;
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
export const PRIVATE_TX_HASH_SEPARATOR = 1_971_680_439;
export const PUBLIC_TX_HASH_SEPARATOR = 1_630_108_851;

export interface Gas {
  daGas: number;
  l2Gas: number;
}

export interface GasSettings {
  gasLimits: Gas;
  teardownGasLimits: Gas;
  maxFeesPerGas: GasFees;
  maxPriorityFeesPerGas: GasFees;
}

export interface TxConstants {
  /** The block whose state the tx was built against (its hash is in the archive tree). */
  anchorBlockHash: Fr;
  chainId: number;
  version: number;
  gasSettings: GasSettings;
}

/** An L2-to-L1 message with the L2 contract that sent it. */
export interface ScopedL2ToL1Message {
  /** L1 recipient, `0x` + 40 lowercase hex digits. */
  recipient: string;
  content: Fr;
  sender: Fr;
}

/** Commitment to a contract class log whose fields travel beside the tx data. */
export interface ContractClassLogHash {
  contractAddress: Fr;
  /** poseidon2Hash over the log's CONTRACT_CLASS_LOG_SIZE_IN_FIELDS fields (zero padded). */
  hash: Fr;
  /** Fields emitted; those after it are zero. */
  length: number;
}

export interface PublicCallRequest {
  msgSender: Fr;
  contractAddress: Fr;
  isStaticCall: boolean;
  /** calldataHash(values) of the call's calldata: selector first, then the arguments. */
  calldataHash: Fr;
}

/** Side effects of one part (non-revertible or revertible) of a tx. */
export interface TxSideEffects {
  noteHashes: Fr[];
  nullifiers: Fr[];
  l2ToL1Msgs: ScopedL2ToL1Message[];
  privateLogs: PrivateLog[];
  contractClassLogsHashes: ContractClassLogHash[];
  publicCallRequests: PublicCallRequest[];
}

export interface TxData {
  constants: TxConstants;
  feePayer: Fr;
  /** Unix seconds: the tx may be included in a block with a timestamp up to this one. */
  expirationTimestamp: bigint;
  /** Gas the private part used (what the node derives from the side effects). */
  gasUsed: Gas;
  nonRevertible: TxSideEffects;
  revertible: TxSideEffects;
  publicTeardownCallRequest: PublicCallRequest | null;
}

export interface PublicCalldata {
  values: Fr[];
  hash: Fr;
}

export interface Tx {
  data: TxData;
  proof: Uint8Array;
  /** The fields of each contract class log, in the order of the hashes (non-revertible first). */
  contractClassLogFields: { fields: Fr[] }[];
  /** Calldata of each public call: setup calls, app-logic calls, then teardown. */
  publicFunctionCalldata: PublicCalldata[];
}

export const emptyGas = (): Gas => ({ daGas: 0, l2Gas: 0 });

export const emptySideEffects = (): TxSideEffects => ({
  noteHashes: [],
  nullifiers: [],
  l2ToL1Msgs: [],
  privateLogs: [],
  contractClassLogsHashes: [],
  publicCallRequests: [],
});

/** The hash of a public call's calldata. */
export function calldataHash(values: readonly Fr[]): Fr {
  return poseidon2HashWithSeparator(values, PUBLIC_CALLDATA_SEPARATOR);
}

/** The hash of a contract class log's fields, zero padded to their full size. */
export function contractClassLogHash(fields: readonly Fr[]): Fr {
  const padded = [...fields];
  while (padded.length < CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) padded.push(0n);
  return poseidon2Hash(padded);
}

/** Every public call a tx makes, in execution order: setup, app logic, teardown. */
export function publicCallsOf(data: TxData): PublicCallRequest[] {
  return [
    ...data.nonRevertible.publicCallRequests,
    ...data.revertible.publicCallRequests,
    ...(data.publicTeardownCallRequest ? [data.publicTeardownCallRequest] : []),
  ];
}

export const hasPublicCalls = (data: TxData): boolean =>
  data.nonRevertible.publicCallRequests.length > 0 ||
  data.revertible.publicCallRequests.length > 0 ||
  data.publicTeardownCallRequest !== null;

export const allNullifiers = (data: TxData): Fr[] => [
  ...data.nonRevertible.nullifiers,
  ...data.revertible.nullifiers,
];

const ethToField = (address: string): Fr => BigInt(address);

function gasFields(gas: Gas): Fr[] {
  return [BigInt(gas.daGas), BigInt(gas.l2Gas)];
}

function feeFields(fees: GasFees): Fr[] {
  return [fees.feePerDaGas, fees.feePerL2Gas];
}

function callFields(call: PublicCallRequest): Fr[] {
  return [call.msgSender, call.contractAddress, call.isStaticCall ? 1n : 0n, call.calldataHash];
}

function sideEffectFields(part: TxSideEffects): Fr[] {
  const out: Fr[] = [];
  const list = <T>(items: readonly T[], fields: (item: T) => Fr[]) => {
    out.push(BigInt(items.length));
    for (const item of items) out.push(...fields(item));
  };
  list(part.noteHashes, (h) => [h]);
  list(part.nullifiers, (n) => [n]);
  list(part.l2ToL1Msgs, (m) => [ethToField(m.recipient), m.content, m.sender]);
  list(part.privateLogs, (l) => [BigInt(l.emittedLength), ...l.fields]);
  list(part.contractClassLogsHashes, (c) => [c.contractAddress, c.hash, BigInt(c.length)]);
  list(part.publicCallRequests, callFields);
  return out;
}

/** The tx data as fields, in a fixed order with a count before each list (what the hash covers). */
export function txDataToFields(data: TxData): Fr[] {
  const { constants: c } = data;
  const g = c.gasSettings;
  return [
    c.anchorBlockHash,
    BigInt(c.chainId),
    BigInt(c.version),
    ...gasFields(g.gasLimits),
    ...gasFields(g.teardownGasLimits),
    ...feeFields(g.maxFeesPerGas),
    ...feeFields(g.maxPriorityFeesPerGas),
    data.feePayer,
    data.expirationTimestamp,
    ...gasFields(data.gasUsed),
    ...sideEffectFields(data.nonRevertible),
    ...sideEffectFields(data.revertible),
    ...(data.publicTeardownCallRequest ? [1n, ...callFields(data.publicTeardownCallRequest)] : [0n]),
  ];
}

/**
 * The tx hash: Poseidon2 of the data fields, with the reference's separator for txs with public
 * calls or for private-only txs.
 */
export function computeTxHash(data: TxData): Fr {
  return poseidon2HashWithSeparator(
    txDataToFields(data),
    hasPublicCalls(data) ? PUBLIC_TX_HASH_SEPARATOR : PRIVATE_TX_HASH_SEPARATOR,
  );
}

/** `computeTxHash(data)` on the hash worker thread, for callers that can wait for it. */
export function computeTxHashOffThread(data: TxData): Promise<Fr> {
  const separator = BigInt(hasPublicCalls(data) ? PUBLIC_TX_HASH_SEPARATOR : PRIVATE_TX_HASH_SEPARATOR);
  return poseidon2HashOffThread([separator, ...txDataToFields(data)]);
}

/**
 * The canonical serialization: the data fields, then the proof, the class-log fields and the
 * calldata, each with a 4-byte big-endian length. Its length is the tx's size.
 */
export function serializeTx(tx: Tx): Buffer {
  const chunks: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    chunks.push(b);
  };
  const fields = (values: readonly Fr[]) => {
    u32(values.length);
    for (const v of values) chunks.push(Buffer.from(toBytes32(v)));
  };
  fields(txDataToFields(tx.data));
  u32(tx.proof.length);
  chunks.push(Buffer.from(tx.proof));
  u32(tx.contractClassLogFields.length);
  for (const log of tx.contractClassLogFields) fields(log.fields);
  u32(tx.publicFunctionCalldata.length);
  for (const call of tx.publicFunctionCalldata) {
    fields(call.values);
    chunks.push(Buffer.from(toBytes32(call.hash)));
  }
  return Buffer.concat(chunks);
}

/** `serializeTx(tx).length`, counted without building the bytes (every tx is sized on admission). */
export function txSize(tx: Tx): number {
  const fieldList = (count: number) => 4 + 32 * count;
  let size = fieldList(txDataToFields(tx.data).length) + 4 + tx.proof.length + 4;
  for (const log of tx.contractClassLogFields) size += fieldList(log.fields.length);
  size += 4;
  for (const call of tx.publicFunctionCalldata) size += fieldList(call.values.length) + 32;
  return size;
}

/**
 * Gas of a tx's private part, derived from its side effects: the fixed overhead (higher when the
 * tx enqueues public calls) plus a price per side effect; DA gas per field of published data.
 */
export function computePrivateGasUsed(data: TxData): Gas {
  const parts = [data.nonRevertible, data.revertible];
  const count = (pick: (p: TxSideEffects) => readonly unknown[]) =>
    parts.reduce((n, p) => n + pick(p).length, 0);
  const noteHashes = count((p) => p.noteHashes);
  const nullifiers = count((p) => p.nullifiers);
  const messages = count((p) => p.l2ToL1Msgs);
  const logs = count((p) => p.privateLogs);
  const classLogs = parts.flatMap((p) => p.contractClassLogsHashes);
  const l2Gas =
    (hasPublicCalls(data) ? PUBLIC_TX_L2_GAS_OVERHEAD : PRIVATE_TX_L2_GAS_OVERHEAD) +
    noteHashes * L2_GAS_PER_NOTE_HASH +
    nullifiers * L2_GAS_PER_NULLIFIER +
    messages * L2_GAS_PER_L2_TO_L1_MSG +
    logs * L2_GAS_PER_PRIVATE_LOG +
    classLogs.length * L2_GAS_PER_CONTRACT_CLASS_LOG;
  const daFields =
    noteHashes +
    nullifiers +
    messages +
    logs * PRIVATE_LOG_SIZE_IN_FIELDS +
    classLogs.reduce((n, c) => n + c.length + 1, 0);
  return { daGas: TX_DA_GAS_OVERHEAD + daFields * DA_GAS_PER_FIELD, l2Gas };
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

/** The priority a tx has in the pool: its total max priority fee per gas. */
export const txPriorityFee = (data: TxData): bigint =>
  data.constants.gasSettings.maxPriorityFeesPerGas.feePerDaGas +
  data.constants.gasSettings.maxPriorityFeesPerGas.feePerL2Gas;

/** A copy of the tx without its proof (what queries return unless asked to include it). */
export const withoutProof = (tx: Tx): Tx => ({ ...tx, proof: new Uint8Array(0) });
