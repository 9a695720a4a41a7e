// The side effects a private kernel tail outputs, each array at its fixed width as the circuit
// lays it out: the non-empty items first, then empty ones. The arrays are kept whole, padding
// included, because the tx hash covers every slot and the codec must give back the same bytes.

import type { PrivateLog } from '../block.js';
import { ZERO_ETH_ADDRESS } from '../block-header.js';
import type { Fr } from '../field.js';
import {
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from './constants.js';

export type { PrivateLog };

export interface L2ToL1Message {
  /** L1 recipient: `0x` + 40 hex digits. */
  recipient: string;
  content: Fr;
}

/** An L2-to-L1 message with the L2 contract that sent it. */
export interface ScopedL2ToL1Message {
  message: L2ToL1Message;
  contractAddress: Fr;
}

export interface LogHash {
  value: Fr;
  /** u32: the fields the log emitted. */
  length: number;
}

/** A contract class log's hash with the contract that emitted it (its fields travel beside the tx). */
export interface ScopedLogHash {
  logHash: LogHash;
  contractAddress: Fr;
}

export interface PublicCallRequest {
  msgSender: Fr;
  contractAddress: Fr;
  isStaticCall: boolean;
  /** Poseidon2 of the call's calldata with the PUBLIC_CALLDATA separator. */
  calldataHash: Fr;
}

/** A private-only tx's side effects, for the rollup. */
export interface PrivateToRollupAccumulatedData {
  /** MAX_NOTE_HASHES_PER_TX */
  noteHashes: Fr[];
  /** MAX_NULLIFIERS_PER_TX */
  nullifiers: Fr[];
  /** MAX_L2_TO_L1_MSGS_PER_TX */
  l2ToL1Msgs: ScopedL2ToL1Message[];
  /** MAX_PRIVATE_LOGS_PER_TX */
  privateLogs: PrivateLog[];
  /** MAX_CONTRACT_CLASS_LOGS_PER_TX */
  contractClassLogsHashes: ScopedLogHash[];
}

/** One part (non-revertible or revertible) of a tx with public calls: its side effects and calls. */
export interface PrivateToPublicAccumulatedData extends PrivateToRollupAccumulatedData {
  /** MAX_ENQUEUED_CALLS_PER_TX */
  publicCallRequests: PublicCallRequest[];
}

export const emptyL2ToL1Message = (): ScopedL2ToL1Message => ({
  message: { recipient: ZERO_ETH_ADDRESS, content: 0n },
  contractAddress: 0n,
});

export const emptyPrivateLog = (): PrivateLog => ({
  fields: new Array<Fr>(PRIVATE_LOG_SIZE_IN_FIELDS).fill(0n),
  emittedLength: 0,
});

export const emptyScopedLogHash = (): ScopedLogHash => ({
  logHash: { value: 0n, length: 0 },
  contractAddress: 0n,
});

export const emptyPublicCallRequest = (): PublicCallRequest => ({
  msgSender: 0n,
  contractAddress: 0n,
  isStaticCall: false,
  calldataHash: 0n,
});

const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

export function emptyRollupAccumulatedData(): PrivateToRollupAccumulatedData {
  return {
    noteHashes: new Array<Fr>(MAX_NOTE_HASHES_PER_TX).fill(0n),
    nullifiers: new Array<Fr>(MAX_NULLIFIERS_PER_TX).fill(0n),
    l2ToL1Msgs: times(MAX_L2_TO_L1_MSGS_PER_TX, emptyL2ToL1Message),
    privateLogs: times(MAX_PRIVATE_LOGS_PER_TX, emptyPrivateLog),
    contractClassLogsHashes: times(MAX_CONTRACT_CLASS_LOGS_PER_TX, emptyScopedLogHash),
  };
}

export function emptyPublicAccumulatedData(): PrivateToPublicAccumulatedData {
  return {
    ...emptyRollupAccumulatedData(),
    publicCallRequests: times(MAX_ENQUEUED_CALLS_PER_TX, emptyPublicCallRequest),
  };
}

// What "empty" means per item, as the reference counts items: every field zero, except that a
// private log is empty when it emitted nothing, whatever its fields hold.
export const isEmptyL2ToL1Message = (m: ScopedL2ToL1Message): boolean =>
  m.contractAddress === 0n && m.message.content === 0n && BigInt(m.message.recipient) === 0n;
export const isEmptyPrivateLog = (log: PrivateLog): boolean => log.emittedLength === 0;
export const isEmptyScopedLogHash = (h: ScopedLogHash): boolean =>
  h.contractAddress === 0n && h.logHash.value === 0n && h.logHash.length === 0;
export const isEmptyPublicCallRequest = (r: PublicCallRequest): boolean =>
  r.msgSender === 0n && r.contractAddress === 0n && !r.isStaticCall && r.calldataHash === 0n;
