// Wire codecs of transactions (docs/transactions.md): the JSON a client sends to sendTx / isValidTx and
// gets back from getTxByHash. Structural limits (per-tx maxima, log sizes) are part of the schema,
// so a malformed tx is -32602 before any validation runs.
import { z } from 'zod';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS } from './block.js';
import { gasFees } from './block-codecs.js';
import type { GasFees } from './block-header.js';
import { bigintDec, bytesHex, ethAddress, frHex, l2Address, txHash, uint } from './codecs.js';
import { type Fr, toHex32 } from './field.js';
import {
  type Gas,
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  type PublicCallRequest,
  type Tx,
  type TxSideEffects,
} from './tx.js';

const u32 = z.number().int().min(0).max(0xffffffff);

export const gas = z.object({ daGas: u32, l2Gas: u32 }).strict();

export const gasSettings = z
  .object({
    gasLimits: gas,
    teardownGasLimits: gas,
    maxFeesPerGas: gasFees.strict(),
    maxPriorityFeesPerGas: gasFees.strict(),
  })
  .strict();

/** A list of fields zero-padded to `size` in the node (shorter input is accepted). */
function paddedFields(size: number, what: string) {
  return z.codec(z.array(frHex).max(size, `${what} has at most ${size} fields`), z.array(z.bigint()), {
    decode: (fields) => {
      const out = [...fields];
      while (out.length < size) out.push(0n);
      return out;
    },
    encode: (fields) => fields,
  });
}

const privateLog = z
  .object({ fields: paddedFields(PRIVATE_LOG_SIZE_IN_FIELDS, 'a private log'), emittedLength: uint })
  .strict()
  .refine((l) => l.emittedLength <= PRIVATE_LOG_SIZE_IN_FIELDS, {
    message: `emittedLength is at most ${PRIVATE_LOG_SIZE_IN_FIELDS}`,
  });

export const publicCallRequest = z
  .object({
    msgSender: l2Address,
    contractAddress: l2Address,
    isStaticCall: z.boolean(),
    calldataHash: frHex,
  })
  .strict();

const sideEffects = z
  .object({
    noteHashes: z.array(frHex).max(MAX_NOTE_HASHES_PER_TX),
    nullifiers: z.array(frHex).max(MAX_NULLIFIERS_PER_TX),
    l2ToL1Msgs: z
      .array(z.object({ recipient: ethAddress, content: frHex, sender: l2Address }).strict())
      .max(MAX_L2_TO_L1_MSGS_PER_TX),
    privateLogs: z.array(privateLog).max(MAX_PRIVATE_LOGS_PER_TX),
    contractClassLogsHashes: z
      .array(
        z
          .object({
            contractAddress: l2Address,
            hash: frHex,
            length: uint.max(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS),
          })
          .strict(),
      )
      .max(MAX_CONTRACT_CLASS_LOGS_PER_TX),
    publicCallRequests: z.array(publicCallRequest).max(MAX_ENQUEUED_CALLS_PER_TX),
  })
  .strict();

type Parts = { nonRevertible: z.output<typeof sideEffects>; revertible: z.output<typeof sideEffects> };

/** Per-tx maxima over both parts together. */
const TOTALS: [string, (p: Parts['revertible']) => readonly unknown[], number][] = [
  ['note hashes', (p) => p.noteHashes, MAX_NOTE_HASHES_PER_TX],
  ['nullifiers', (p) => p.nullifiers, MAX_NULLIFIERS_PER_TX],
  ['L2-to-L1 messages', (p) => p.l2ToL1Msgs, MAX_L2_TO_L1_MSGS_PER_TX],
  ['private logs', (p) => p.privateLogs, MAX_PRIVATE_LOGS_PER_TX],
  ['contract class logs', (p) => p.contractClassLogsHashes, MAX_CONTRACT_CLASS_LOGS_PER_TX],
  ['public calls', (p) => p.publicCallRequests, MAX_ENQUEUED_CALLS_PER_TX],
];

export const txData = z
  .object({
    constants: z.object({ anchorBlockHash: frHex, chainId: uint, version: uint, gasSettings }).strict(),
    feePayer: l2Address,
    expirationTimestamp: bigintDec,
    gasUsed: gas,
    nonRevertible: sideEffects,
    revertible: sideEffects,
    publicTeardownCallRequest: publicCallRequest.nullable(),
  })
  .strict()
  .superRefine((data, ctx) => {
    for (const [name, pick, max] of TOTALS) {
      const total = pick(data.nonRevertible).length + pick(data.revertible).length;
      if (total > max) {
        ctx.addIssue({ code: 'custom', message: `a tx has at most ${max} ${name} in all, got ${total}` });
      }
    }
    if (data.nonRevertible.nullifiers.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['nonRevertible', 'nullifiers'],
        message: 'a tx has at least one non-revertible nullifier (the first is its protocol nullifier)',
      });
    }
  });

/**
 * The Tx as submitted. `txHash` is optional on input (when given it must match the hash the node
 * computes) and always present on output.
 */
export const tx = z
  .object({
    txHash: txHash.optional(),
    data: txData,
    proof: bytesHex,
    contractClassLogFields: z
      .array(
        z
          .object({ fields: paddedFields(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, 'a contract class log') })
          .strict(),
      )
      .max(MAX_CONTRACT_CLASS_LOGS_PER_TX),
    publicFunctionCalldata: z
      .array(z.object({ values: z.array(frHex), hash: frHex }).strict())
      .max(MAX_ENQUEUED_CALLS_PER_TX + 1),
  })
  .strict()
  .describe(
    'Transaction: data (constants, fee payer, side effects, public calls), proof, class-log fields, calldata',
  );

export type WireTx = z.output<typeof tx>;

/** A decoded tx as the node works with it, with the hash the client claimed (if any). */
export const toTx = (wire: WireTx): { tx: Tx; claimedHash: Fr | undefined } => {
  const { txHash: claimedHash, ...rest } = wire;
  return { tx: rest as Tx, claimedHash };
};

/** The wire form of a tx with its hash. */
export const fromTx = (value: Tx, hash: Fr): WireTx => ({ txHash: hash, ...value }) as WireTx;

// ---- The wire JSON of a tx, written by hand ---------------------------------------------------------
// `z.encode(tx, …)` walks every schema node with a copied context: ~120 µs for a small tx, paid for
// each tx the pool stores and each tx gossiped. This writes the same JSON object (same keys, in the
// same order, same values) directly; a property test holds it equal to z.encode.

const encodeGas = (g: Gas) => ({ daGas: g.daGas, l2Gas: g.l2Gas });
const encodeGasFees = (f: GasFees) => ({
  feePerDaGas: f.feePerDaGas.toString(10),
  feePerL2Gas: f.feePerL2Gas.toString(10),
});
const encodeCall = (c: PublicCallRequest) => ({
  msgSender: toHex32(c.msgSender),
  contractAddress: toHex32(c.contractAddress),
  isStaticCall: c.isStaticCall,
  calldataHash: toHex32(c.calldataHash),
});
const encodeSideEffects = (s: TxSideEffects) => ({
  noteHashes: s.noteHashes.map(toHex32),
  nullifiers: s.nullifiers.map(toHex32),
  l2ToL1Msgs: s.l2ToL1Msgs.map((m) => ({
    recipient: m.recipient.toLowerCase(),
    content: toHex32(m.content),
    sender: toHex32(m.sender),
  })),
  privateLogs: s.privateLogs.map((l) => ({ fields: l.fields.map(toHex32), emittedLength: l.emittedLength })),
  contractClassLogsHashes: s.contractClassLogsHashes.map((h) => ({
    contractAddress: toHex32(h.contractAddress),
    hash: toHex32(h.hash),
    length: h.length,
  })),
  publicCallRequests: s.publicCallRequests.map(encodeCall),
});

/** The wire form of a tx with its hash, as JSON values: equal to `z.encode(tx, fromTx(value, hash))`. */
export function encodeWireTx(value: Tx, hash: Fr): z.input<typeof tx> {
  const d = value.data;
  const g = d.constants.gasSettings;
  return {
    txHash: toHex32(hash),
    data: {
      constants: {
        anchorBlockHash: toHex32(d.constants.anchorBlockHash),
        chainId: d.constants.chainId,
        version: d.constants.version,
        gasSettings: {
          gasLimits: encodeGas(g.gasLimits),
          teardownGasLimits: encodeGas(g.teardownGasLimits),
          maxFeesPerGas: encodeGasFees(g.maxFeesPerGas),
          maxPriorityFeesPerGas: encodeGasFees(g.maxPriorityFeesPerGas),
        },
      },
      feePayer: toHex32(d.feePayer),
      expirationTimestamp: d.expirationTimestamp.toString(10),
      gasUsed: encodeGas(d.gasUsed),
      nonRevertible: encodeSideEffects(d.nonRevertible),
      revertible: encodeSideEffects(d.revertible),
      publicTeardownCallRequest:
        d.publicTeardownCallRequest === null ? null : encodeCall(d.publicTeardownCallRequest),
    },
    proof: `0x${Buffer.from(value.proof.buffer, value.proof.byteOffset, value.proof.byteLength).toString('hex')}`,
    contractClassLogFields: value.contractClassLogFields.map((l) => ({ fields: l.fields.map(toHex32) })),
    publicFunctionCalldata: value.publicFunctionCalldata.map((c) => ({
      values: c.values.map(toHex32),
      hash: toHex32(c.hash),
    })),
  };
}
