// What the node reads from a tx: the kernel output's fixed-width arrays (src/core/kernel/) cut to
// their non-empty items, split into the part that stays if public execution reverts and the part
// that does not. A private-only tx (`forRollup`) cannot revert, so all its side effects are in the
// non-revertible part. The view is derived once per tx and kept beside it (never on the wire).

import { PRIVATE_LOG_SIZE_IN_FIELDS, type PrivateLog } from './block.js';
import { blockHeaderHash } from './block-header.js';
import type { Fr } from './field.js';
import {
  CHONK_PROOF_LENGTH,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  TAIL_FOR_PUBLIC_SIZE_IN_BYTES,
  TAIL_FOR_ROLLUP_SIZE_IN_BYTES,
} from './kernel/constants.js';
import {
  isForPublic,
  type PrivateKernelTailCircuitPublicInputs,
  type TailForPublic,
} from './kernel/public-inputs.js';
import {
  isEmptyL2ToL1Message,
  isEmptyPrivateLog,
  isEmptyPublicCallRequest,
  isEmptyScopedLogHash,
  type PrivateToPublicAccumulatedData,
  type PrivateToRollupAccumulatedData,
  type PublicCallRequest,
} from './kernel/side-effects.js';
import {
  DA_GAS_PER_FIELD,
  type Gas,
  type GasSettings,
  L2_GAS_PER_CONTRACT_CLASS_LOG,
  L2_GAS_PER_L2_TO_L1_MSG,
  L2_GAS_PER_NOTE_HASH,
  L2_GAS_PER_NULLIFIER,
  L2_GAS_PER_PRIVATE_LOG,
  PRIVATE_TX_L2_GAS_OVERHEAD,
  PUBLIC_TX_L2_GAS_OVERHEAD,
  TX_DA_GAS_OVERHEAD,
  type Tx,
} from './tx.js';

export type { PublicCallRequest };

/** An L2-to-L1 message with the L2 contract that sent it. */
export interface TxL2ToL1Message {
  /** L1 recipient, `0x` + 40 lowercase hex digits. */
  recipient: string;
  content: Fr;
  sender: Fr;
}

/** A contract class log's hash with its emitter; its fields travel beside the tx data. */
export interface TxClassLogHash {
  contractAddress: Fr;
  hash: Fr;
  /** Fields emitted; those after it are zero. */
  length: number;
}

/** The non-empty side effects of one part of a tx. */
export interface TxSideEffects {
  noteHashes: Fr[];
  nullifiers: Fr[];
  l2ToL1Msgs: TxL2ToL1Message[];
  privateLogs: PrivateLog[];
  contractClassLogsHashes: TxClassLogHash[];
  publicCallRequests: PublicCallRequest[];
}

export interface TxView {
  /** The hash of the anchor block header: the block the tx was built on. */
  anchorBlockHash: Fr;
  chainId: Fr;
  version: Fr;
  vkTreeRoot: Fr;
  protocolContractsHash: Fr;
  gasSettings: GasSettings;
  feePayer: Fr;
  /** Unix seconds: the tx may be included in a block with a timestamp up to this one. */
  expirationTimestamp: bigint;
  /** Gas the private part used, as the kernel output states it. */
  gasUsed: Gas;
  nonRevertible: TxSideEffects;
  revertible: TxSideEffects;
  publicTeardownCallRequest: PublicCallRequest | null;
}

export const emptySideEffects = (): TxSideEffects => ({
  noteHashes: [],
  nullifiers: [],
  l2ToL1Msgs: [],
  privateLogs: [],
  contractClassLogsHashes: [],
  publicCallRequests: [],
});

function partOf(data: PrivateToRollupAccumulatedData, calls: readonly PublicCallRequest[]): TxSideEffects {
  return {
    noteHashes: data.noteHashes.filter((h) => h !== 0n),
    nullifiers: data.nullifiers.filter((n) => n !== 0n),
    l2ToL1Msgs: data.l2ToL1Msgs
      .filter((m) => !isEmptyL2ToL1Message(m))
      .map((m) => ({
        recipient: m.message.recipient.toLowerCase(),
        content: m.message.content,
        sender: m.contractAddress,
      })),
    privateLogs: data.privateLogs.filter((l) => !isEmptyPrivateLog(l)),
    contractClassLogsHashes: data.contractClassLogsHashes
      .filter((h) => !isEmptyScopedLogHash(h))
      .map((h) => ({ contractAddress: h.contractAddress, hash: h.logHash.value, length: h.logHash.length })),
    publicCallRequests: calls.filter((c) => !isEmptyPublicCallRequest(c)),
  };
}

const publicPart = (data: PrivateToPublicAccumulatedData): TxSideEffects =>
  partOf(data, data.publicCallRequests);

function deriveView(data: PrivateKernelTailCircuitPublicInputs): TxView {
  const { constants } = data;
  let nonRevertible: TxSideEffects;
  let revertible: TxSideEffects;
  let teardown: PublicCallRequest | null = null;
  if (isForPublic(data)) {
    const p = (data as TailForPublic).forPublic;
    nonRevertible = publicPart(p.nonRevertibleAccumulatedData);
    revertible = publicPart(p.revertibleAccumulatedData);
    teardown = isEmptyPublicCallRequest(p.publicTeardownCallRequest) ? null : p.publicTeardownCallRequest;
  } else {
    nonRevertible = partOf(data.forRollup.end, []);
    revertible = emptySideEffects();
  }
  return {
    anchorBlockHash: blockHeaderHash(constants.anchorBlockHeader),
    chainId: constants.txContext.chainId,
    version: constants.txContext.version,
    vkTreeRoot: constants.vkTreeRoot,
    protocolContractsHash: constants.protocolContractsHash,
    gasSettings: constants.txContext.gasSettings,
    feePayer: data.feePayer,
    expirationTimestamp: data.expirationTimestamp,
    gasUsed: data.gasUsed,
    nonRevertible,
    revertible,
    publicTeardownCallRequest: teardown,
  };
}

// Keyed by the kernel output object: a tx's data is never changed once the tx is built.
const views = new WeakMap<PrivateKernelTailCircuitPublicInputs, TxView>();

/** The view of a tx (derived on first use, then kept). */
export function txView(tx: Pick<Tx, 'data'>): TxView {
  let view = views.get(tx.data);
  if (view === undefined) {
    view = deriveView(tx.data);
    views.set(tx.data, view);
  }
  return view;
}

/** Every public call a tx makes, in execution order: setup, app logic, teardown. */
export function publicCallsOf(tx: Pick<Tx, 'data'>): PublicCallRequest[] {
  const v = txView(tx);
  return [
    ...v.nonRevertible.publicCallRequests,
    ...v.revertible.publicCallRequests,
    ...(v.publicTeardownCallRequest ? [v.publicTeardownCallRequest] : []),
  ];
}

/** Whether the tx has a public phase: the kernel output's variant says so. */
export const hasPublicCalls = (tx: Pick<Tx, 'data'>): boolean => isForPublic(tx.data);

export const allNullifiers = (tx: Pick<Tx, 'data'>): Fr[] => {
  const v = txView(tx);
  return [...v.nonRevertible.nullifiers, ...v.revertible.nullifiers];
};

/** The priority a tx has in the pool: its total max priority fee per gas. */
export const txPriorityFee = (tx: Pick<Tx, 'data'>): bigint => {
  const fees = tx.data.constants.txContext.gasSettings.maxPriorityFeesPerGas;
  return fees.feePerDaGas + fees.feePerL2Gas;
};

/**
 * The tx's size: the length of its binary form (the reference's `Tx.toBuffer()`: hash, kernel
 * output, proof, class logs' fields, calldata), counted without building the bytes.
 */
export function txSize(tx: Tx): number {
  let size = 32 + (isForPublic(tx.data) ? TAIL_FOR_PUBLIC_SIZE_IN_BYTES : TAIL_FOR_ROLLUP_SIZE_IN_BYTES);
  size += 4 + CHONK_PROOF_LENGTH * 32;
  size += 1 + tx.contractClassLogFields.length * CONTRACT_CLASS_LOG_SIZE_IN_FIELDS * 32;
  size += 1;
  for (const call of tx.publicFunctionCalldata) size += 4 + call.values.length * 32 + 32;
  return size;
}

/** A proof of all zeros: what a tx carries once its proof is stripped (the reference's empty proof). */
export const emptyChonkProof = (): Uint8Array => new Uint8Array(CHONK_PROOF_LENGTH * 32);

// One all-zero proof for every stripped tx (a pool holds thousands); nothing writes into a proof.
const STRIPPED_PROOF = emptyChonkProof();

/** A copy of the tx with its proof stripped (what queries return unless asked to include it). */
export const withoutProof = (tx: Tx): Tx =>
  tx.chonkProof === STRIPPED_PROOF ? tx : { ...tx, chonkProof: STRIPPED_PROOF };

/**
 * cairn's rule for the gas of a tx's private part, from its side effects: the fixed overhead
 * (higher when the tx enqueues public calls) plus a price per side effect; DA gas per field of
 * published data. cairn's own tx builder states this as the kernel output's `gasUsed`.
 */
export function computePrivateGasUsed(parts: readonly TxSideEffects[], withPublicCalls: boolean): Gas {
  const count = (pick: (p: TxSideEffects) => readonly unknown[]) =>
    parts.reduce((n, p) => n + pick(p).length, 0);
  const noteHashes = count((p) => p.noteHashes);
  const nullifiers = count((p) => p.nullifiers);
  const messages = count((p) => p.l2ToL1Msgs);
  const logs = count((p) => p.privateLogs);
  const classLogs = parts.flatMap((p) => p.contractClassLogsHashes);
  const l2Gas =
    (withPublicCalls ? PUBLIC_TX_L2_GAS_OVERHEAD : PRIVATE_TX_L2_GAS_OVERHEAD) +
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
