// The binary form of a whole tx, the reference's `Tx.toBuffer()`:
//   txHash 32 | data (tail-codec.ts) |
//   chonkProof: length u32 (always CHONK_PROOF_LENGTH), fields × 32 |
//   contractClassLogFields: count u8, each CONTRACT_CLASS_LOG_SIZE_IN_FIELDS × 32 |
//   publicFunctionCalldata: count u8, each (length u32, values × 32, hash 32)
// and the pieces of its JSON form (tx-json.ts), which carries `data` and the proof as these bytes.

import type { Fr } from '../field.js';
import { ByteReader, ByteWriter } from './bytes.js';
import {
  CHONK_PROOF_LENGTH,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX,
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX,
} from './constants.js';
import { readTail, writeTail } from './tail-codec.js';
import type { ContractClassLogFields, HashedValues, Tx } from './tx.js';

export const CHONK_PROOF_SIZE_IN_BYTES = 4 + CHONK_PROOF_LENGTH * 32;

function readChonkProof(r: ByteReader): Uint8Array {
  const at = r.offset;
  const n = r.u32('chonkProof.length');
  if (n !== CHONK_PROOF_LENGTH) r.fail('chonkProof.length', `is ${n}, not ${CHONK_PROOF_LENGTH}`, at);
  return r.frWords(CHONK_PROOF_LENGTH, 'chonkProof');
}

function writeChonkProof(w: ByteWriter, proof: Uint8Array): void {
  if (!(proof instanceof Uint8Array) || proof.length !== CHONK_PROOF_LENGTH * 32) {
    throw new RangeError(
      `chonkProof must be ${CHONK_PROOF_LENGTH} fields (${CHONK_PROOF_LENGTH * 32} bytes)`,
    );
  }
  new ByteReader(proof, 'chonkProof').frWords(CHONK_PROOF_LENGTH, 'chonkProof');
  w.u32(CHONK_PROOF_LENGTH, 'chonkProof.length');
  w.bytes(proof);
}

/** The ChonkProof's own binary form (its length, then its fields), as the JSON form carries it. */
export function decodeChonkProof(bytes: Uint8Array): Uint8Array {
  const r = new ByteReader(bytes, 'chonkProof');
  const proof = readChonkProof(r);
  r.end();
  return proof;
}

export function encodeChonkProof(proof: Uint8Array): Buffer {
  const w = new ByteWriter(CHONK_PROOF_SIZE_IN_BYTES);
  writeChonkProof(w, proof);
  return w.finish();
}

function readFields(r: ByteReader, n: number, what: string): Fr[] {
  const out = new Array<Fr>(n);
  for (let i = 0; i < n; i++) out[i] = r.fr(what);
  return out;
}

function readTxAfterHash(r: ByteReader, txHash: Fr): Tx {
  const data = readTail(r);
  const chonkProof = readChonkProof(r);
  const logs = r.count(1, MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX, 'contractClassLogFields.count');
  const contractClassLogFields: ContractClassLogFields[] = [];
  for (let i = 0; i < logs; i++) {
    contractClassLogFields.push({
      fields: readFields(r, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, 'contractClassLogFields'),
    });
  }
  const calls = r.count(1, MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX, 'publicFunctionCalldata.count');
  const publicFunctionCalldata: HashedValues[] = [];
  let budget = MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS;
  for (let i = 0; i < calls; i++) {
    const n = r.count(4, budget, 'publicFunctionCalldata.values.length (all calls together)');
    budget -= n;
    const values = readFields(r, n, 'publicFunctionCalldata.values');
    publicFunctionCalldata.push({ values, hash: r.fr('publicFunctionCalldata.hash') });
  }
  return { txHash, data, chonkProof, contractClassLogFields, publicFunctionCalldata };
}

/** The tx these bytes hold, all of them. Its hash is as carried: compare it with computeTxHash. */
export function decodeTx(bytes: Uint8Array): Tx {
  const r = new ByteReader(bytes, 'tx');
  const tx = readTxAfterHash(r, r.fr('txHash'));
  r.end();
  return tx;
}

/** The reference's `Tx.toBuffer()`. */
export function encodeTx(tx: Tx): Buffer {
  const w = new ByteWriter(200_000);
  w.fr(tx.txHash, 'txHash');
  writeTail(w, tx.data);
  writeChonkProof(w, tx.chonkProof);
  const logs = tx.contractClassLogFields;
  checkCount(logs, MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX, 'contractClassLogFields');
  w.u8(logs.length, 'contractClassLogFields.count');
  for (const log of logs) {
    if (!Array.isArray(log.fields) || log.fields.length !== CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(
        `contractClassLogFields.fields must have exactly ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} items`,
      );
    }
    for (const f of log.fields) w.fr(f, 'contractClassLogFields.fields');
  }
  const calls = tx.publicFunctionCalldata;
  checkCount(calls, MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX, 'publicFunctionCalldata');
  w.u8(calls.length, 'publicFunctionCalldata.count');
  let total = 0;
  for (const call of calls) {
    total += call.values.length;
    if (total > MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS) {
      throw new RangeError(
        `publicFunctionCalldata holds more than ${MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS} values`,
      );
    }
    w.u32(call.values.length, 'publicFunctionCalldata.values.length');
    for (const v of call.values) w.fr(v, 'publicFunctionCalldata.values');
    w.fr(call.hash, 'publicFunctionCalldata.hash');
  }
  return w.finish();
}

function checkCount(items: readonly unknown[], max: number, what: string): void {
  if (!Array.isArray(items) || items.length > max)
    throw new RangeError(`${what} must be an array of at most ${max}`);
}
