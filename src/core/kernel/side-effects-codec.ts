// The binary form of the accumulated side effects, every array at its full width, padding and
// all, with no length prefixes (the widths are fixed):
//   noteHashes 64 × 32 | nullifiers 64 × 32 |
//   l2ToL1Msgs 8 × (recipient 20, content 32, contractAddress 32) |
//   privateLogs 64 × (fields 16 × 32, emittedLength u32) |
//   contractClassLogsHashes 1 × (value 32, length u32, contractAddress 32)
// and for a part of a tx with public calls, then
//   publicCallRequests 32 × (msgSender 32, contractAddress 32, isStaticCall bool, calldataHash 32)

import type { Fr } from '../field.js';
import { type ByteReader, type ByteWriter, checkWidth } from './bytes.js';
import {
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from './constants.js';
import type {
  PrivateLog,
  PrivateToPublicAccumulatedData,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
  ScopedL2ToL1Message,
  ScopedLogHash,
} from './side-effects.js';

function readArray<T>(width: number, read: () => T): T[] {
  const out = new Array<T>(width);
  for (let i = 0; i < width; i++) out[i] = read();
  return out;
}

function writeArray<T>(items: readonly T[], width: number, what: string, write: (item: T) => void): void {
  checkWidth(items, width, what);
  for (const item of items) write(item);
}

export function readPublicCallRequest(r: ByteReader, what: string): PublicCallRequest {
  return {
    msgSender: r.fr(`${what}.msgSender`),
    contractAddress: r.fr(`${what}.contractAddress`),
    isStaticCall: r.bool(`${what}.isStaticCall`),
    calldataHash: r.fr(`${what}.calldataHash`),
  };
}

export function writePublicCallRequest(w: ByteWriter, c: PublicCallRequest, what: string): void {
  w.fr(c.msgSender, `${what}.msgSender`);
  w.fr(c.contractAddress, `${what}.contractAddress`);
  w.bool(c.isStaticCall, `${what}.isStaticCall`);
  w.fr(c.calldataHash, `${what}.calldataHash`);
}

// The element readers name their array, not the index: the error's byte offset says which item,
// and building an indexed name per read would cost more than the read.
const readMessage = (r: ByteReader): ScopedL2ToL1Message => ({
  message: { recipient: r.ethAddress('l2ToL1Msgs.recipient'), content: r.fr('l2ToL1Msgs.content') },
  contractAddress: r.fr('l2ToL1Msgs.contractAddress'),
});

function readPrivateLog(r: ByteReader): PrivateLog {
  const fields = new Array<Fr>(PRIVATE_LOG_SIZE_IN_FIELDS);
  for (let i = 0; i < PRIVATE_LOG_SIZE_IN_FIELDS; i++) fields[i] = r.fr('privateLogs.fields');
  return { fields, emittedLength: r.u32('privateLogs.emittedLength') };
}

const readLogHash = (r: ByteReader): ScopedLogHash => ({
  logHash: { value: r.fr('contractClassLogsHashes.value'), length: r.u32('contractClassLogsHashes.length') },
  contractAddress: r.fr('contractClassLogsHashes.contractAddress'),
});

export function readRollupAccumulatedData(r: ByteReader): PrivateToRollupAccumulatedData {
  return {
    noteHashes: readArray(MAX_NOTE_HASHES_PER_TX, () => r.fr('noteHashes')),
    nullifiers: readArray(MAX_NULLIFIERS_PER_TX, () => r.fr('nullifiers')),
    l2ToL1Msgs: readArray(MAX_L2_TO_L1_MSGS_PER_TX, () => readMessage(r)),
    privateLogs: readArray(MAX_PRIVATE_LOGS_PER_TX, () => readPrivateLog(r)),
    contractClassLogsHashes: readArray(MAX_CONTRACT_CLASS_LOGS_PER_TX, () => readLogHash(r)),
  };
}

export function readPublicAccumulatedData(r: ByteReader): PrivateToPublicAccumulatedData {
  const data = readRollupAccumulatedData(r);
  const publicCallRequests = readArray(MAX_ENQUEUED_CALLS_PER_TX, () =>
    readPublicCallRequest(r, 'publicCallRequests'),
  );
  return { ...data, publicCallRequests };
}

export function writeRollupAccumulatedData(
  w: ByteWriter,
  d: PrivateToRollupAccumulatedData,
  what: string,
): void {
  writeArray(d.noteHashes, MAX_NOTE_HASHES_PER_TX, `${what}.noteHashes`, (h) =>
    w.fr(h, `${what}.noteHashes`),
  );
  writeArray(d.nullifiers, MAX_NULLIFIERS_PER_TX, `${what}.nullifiers`, (n) => w.fr(n, `${what}.nullifiers`));
  writeArray(d.l2ToL1Msgs, MAX_L2_TO_L1_MSGS_PER_TX, `${what}.l2ToL1Msgs`, (m) => {
    w.ethAddress(m.message.recipient, `${what}.l2ToL1Msgs.recipient`);
    w.fr(m.message.content, `${what}.l2ToL1Msgs.content`);
    w.fr(m.contractAddress, `${what}.l2ToL1Msgs.contractAddress`);
  });
  writeArray(d.privateLogs, MAX_PRIVATE_LOGS_PER_TX, `${what}.privateLogs`, (log) => {
    writeArray(log.fields, PRIVATE_LOG_SIZE_IN_FIELDS, `${what}.privateLogs.fields`, (f) =>
      w.fr(f, `${what}.privateLogs.fields`),
    );
    w.u32(log.emittedLength, `${what}.privateLogs.emittedLength`);
  });
  writeArray(
    d.contractClassLogsHashes,
    MAX_CONTRACT_CLASS_LOGS_PER_TX,
    `${what}.contractClassLogsHashes`,
    (h) => {
      w.fr(h.logHash.value, `${what}.contractClassLogsHashes.value`);
      w.u32(h.logHash.length, `${what}.contractClassLogsHashes.length`);
      w.fr(h.contractAddress, `${what}.contractClassLogsHashes.contractAddress`);
    },
  );
}

export function writePublicAccumulatedData(
  w: ByteWriter,
  d: PrivateToPublicAccumulatedData,
  what: string,
): void {
  writeRollupAccumulatedData(w, d, what);
  const calls = `${what}.publicCallRequests`;
  writeArray(d.publicCallRequests, MAX_ENQUEUED_CALLS_PER_TX, calls, (c) =>
    writePublicCallRequest(w, c, calls),
  );
}
