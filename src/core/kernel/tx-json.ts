// A tx's JSON form as the reference's client sends it (`node_sendTx`) and its node returns it:
//   { txHash: hex, data: base64 (tail-codec.ts), chonkProof: base64 (the proof's binary form),
//     contractClassLogFields: [{ fields: hex[] }], publicFunctionCalldata: [{ values: hex[], hash: hex }] }
// Field elements are `0x` + 64 lowercase hex digits on output; on input `0x` + 1 to 64 hex digits.
// Base64 must be the standard, padded form, so that the same tx always has the same JSON. Keys
// the reference does not define are ignored, as its schema ignores them.

import { FR_MODULUS, type Fr, toHex32 } from '../field.js';
import { KernelCodecError } from './bytes.js';
import {
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX,
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX,
} from './constants.js';
import { decodeTail, encodeTail } from './tail-codec.js';
import type { HashedValues, Tx, TxBody } from './tx.js';
import { decodeChonkProof, encodeChonkProof } from './tx-codec.js';

export interface TxJson {
  txHash: string;
  data: string;
  chonkProof: string;
  contractClassLogFields: { fields: string[] }[];
  publicFunctionCalldata: { values: string[]; hash: string }[];
}

export function encodeTxJson(tx: Tx): TxJson {
  return {
    txHash: toHex32(tx.txHash),
    data: encodeTail(tx.data).toString('base64'),
    chonkProof: encodeChonkProof(tx.chonkProof).toString('base64'),
    contractClassLogFields: tx.contractClassLogFields.map((log) => ({ fields: log.fields.map(toHex32) })),
    publicFunctionCalldata: tx.publicFunctionCalldata.map((c) => ({
      values: c.values.map(toHex32),
      hash: toHex32(c.hash),
    })),
  };
}

const fail = (path: string, problem: string): never => {
  throw new KernelCodecError(`tx JSON: ${path} ${problem}`);
};

const HEX_FIELD_RE = /^0x[0-9a-fA-F]{1,64}$/;

function field(value: unknown, path: string): Fr {
  if (typeof value !== 'string' || !HEX_FIELD_RE.test(value))
    fail(path, 'must be 0x followed by 1 to 64 hex digits');
  const v = BigInt(value as string);
  if (v >= FR_MODULUS) fail(path, 'is not below the field modulus');
  return v;
}

function fields(value: unknown, path: string, min: number, max: number): Fr[] {
  if (!Array.isArray(value)) return fail(path, 'must be an array');
  if (value.length < min || value.length > max) {
    fail(path, min === max ? `must have exactly ${max} items` : `must have at most ${max} items`);
  }
  const out = new Array<Fr>(value.length);
  for (let i = 0; i < value.length; i++) out[i] = field(value[i], `${path}[${i}]`);
  return out;
}

function base64(value: unknown, path: string): Buffer {
  if (typeof value !== 'string') return fail(path, 'must be a base64 string');
  const bytes = Buffer.from(value, 'base64');
  // Buffer.from skips what is not base64: only a string that is exactly the bytes' encoding passes.
  if (bytes.toString('base64') !== value) fail(path, 'must be standard padded base64');
  return bytes;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function list(value: unknown, path: string, max: number): Record<string, unknown>[] {
  if (!Array.isArray(value)) return fail(path, 'must be an array');
  if (value.length > max) fail(path, `must have at most ${max} items`);
  return value.map((item, i) => (isObject(item) ? item : fail(`${path}[${i}]`, 'must be an object')));
}

/**
 * The tx a JSON value describes, and the hash it claims if it names one (the reference's schema
 * ignores it and computes the hash: compare the two, or compute it, with computeTxHash).
 */
export function decodeTxJson(value: unknown): { body: TxBody; txHash: Fr | undefined } {
  if (!isObject(value)) return fail('the tx', 'must be an object');
  const txHash = value.txHash === undefined ? undefined : field(value.txHash, 'txHash');
  const data = decodeTail(base64(value.data, 'data'));
  const chonkProof = decodeChonkProof(base64(value.chonkProof, 'chonkProof'));
  const contractClassLogFields = list(
    value.contractClassLogFields,
    'contractClassLogFields',
    MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX,
  ).map((log, i) => ({
    fields: fields(
      log.fields,
      `contractClassLogFields[${i}].fields`,
      CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
      CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
    ),
  }));
  let budget = MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS;
  const publicFunctionCalldata = list(
    value.publicFunctionCalldata,
    'publicFunctionCalldata',
    MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX,
  ).map((call, i): HashedValues => {
    const values = fields(call.values, `publicFunctionCalldata[${i}].values (all calls together)`, 0, budget);
    budget -= values.length;
    return { values, hash: field(call.hash, `publicFunctionCalldata[${i}].hash`) };
  });
  return { body: { data, chonkProof, contractClassLogFields, publicFunctionCalldata }, txHash };
}
