// Wire codecs of transactions (docs/transactions.md): the JSON a client sends to svc_sendTx /
// svc_isValidTx and gets back from svc_getTxByHash — the reference (4.1.2) kernel tx, every field
// as hex JSON. Lossless but compact: fixed-width arrays are written without their trailing empty
// items (padded back on input), log fields without their trailing zeros, the proof without its
// trailing zero words, an absent teardown call as null. Structural limits are part of the schema,
// so a malformed tx is -32602 before any validation runs.
import { z } from 'zod';
import { blockHeader } from './block-codecs.js';
import { type BlockHeader, blockHeaderToFields, type GasFees, U64_MAX, U128_MAX } from './block-header.js';
import { bigintDec, ethAddress, frHex, l2Address, txHash } from './codecs.js';
import { FR_MODULUS, type Fr, toBytes32, toHex32 } from './field.js';
import {
  CHONK_PROOF_LENGTH,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX,
  MAX_CONTRACT_CLASS_LOGS_PER_TX,
  MAX_ENQUEUED_CALLS_PER_TX,
  MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
  MAX_L2_TO_L1_MSGS_PER_TX,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from './kernel/constants.js';
import type { Gas, PrivateKernelTailCircuitPublicInputs } from './kernel/public-inputs.js';
import {
  emptyL2ToL1Message,
  emptyPrivateLog,
  emptyPublicCallRequest,
  emptyScopedLogHash,
  isEmptyL2ToL1Message,
  isEmptyPublicCallRequest,
  isEmptyScopedLogHash,
  type PrivateLog,
  type PrivateToPublicAccumulatedData,
  type PrivateToRollupAccumulatedData,
  type PublicCallRequest,
  type ScopedL2ToL1Message,
  type ScopedLogHash,
} from './kernel/side-effects.js';
import type { TxBody } from './kernel/tx.js';

const u32 = z.number().int().min(0).max(0xffff_ffff);

/** bigintDec with an upper bound (the kernel's u64 / u128): the same JSON. */
const boundedDec = (max: bigint, what: string) =>
  z.codec(bigintDec, z.bigint().max(max, `expected ${what}: at most ${max}`), {
    decode: (v) => v,
    encode: (v) => v,
  });
const u64Dec = boundedDec(U64_MAX, 'a u64');
const u128Dec = boundedDec(U128_MAX, 'a u128');

export const gas = z.object({ daGas: u32, l2Gas: u32 }).strict();

// block-codecs' gasFees has no u128 bound; these are the same JSON with it.
const fees = z.object({ feePerDaGas: u128Dec, feePerL2Gas: u128Dec }).strict();

export const gasSettings = z
  .object({ gasLimits: gas, teardownGasLimits: gas, maxFeesPerGas: fees, maxPriorityFeesPerGas: fees })
  .strict();

export const publicCallRequest = z
  .object({
    msgSender: l2Address,
    contractAddress: l2Address,
    isStaticCall: z.boolean(),
    calldataHash: frHex,
  })
  .strict();

// ---- Compaction ------------------------------------------------------------------------------------

/** How many items stay once the trailing ones `isEmpty` holds for are dropped. */
function keptLength<T>(items: readonly T[], isEmpty: (item: T) => boolean): number {
  let n = items.length;
  while (n > 0 && isEmpty(items[n - 1]!)) n--;
  return n;
}

const isZero = (v: Fr): boolean => v === 0n;

/**
 * A fixed-width array: written without its trailing items that are exactly `empty()`, padded
 * back with fresh `empty()` items on input.
 */
function fixedWidth<S extends z.ZodType>(
  item: S,
  width: number,
  isEmpty: (item: z.output<S>) => boolean,
  empty: () => z.output<S>,
  what: string,
) {
  return z.codec(
    z.array(item).max(width, `too many ${what}: at most ${width}`),
    z.custom<z.output<S>[]>((v) => Array.isArray(v)),
    {
      decode: (items) => {
        const out = items.slice();
        while (out.length < width) out.push(empty());
        return out;
      },
      encode: (items) => items.slice(0, keptLength(items, isEmpty)),
    },
  );
}

/** Fields zero padded to `size`: written without their trailing zeros. */
function paddedFields(size: number, what: string) {
  return z.codec(
    z.array(frHex).max(size, `${what} has at most ${size} fields`),
    z.custom<Fr[]>((v) => Array.isArray(v)),
    {
      decode: (fields) => {
        const out = fields.slice();
        while (out.length < size) out.push(0n);
        return out;
      },
      encode: (fields) => fields.slice(0, keptLength(fields, isZero)),
    },
  );
}

// Exactly emptyPrivateLog(): the reference counts a log with emittedLength 0 as empty whatever
// its fields hold, but those fields are in the tx hash and must survive.
const isExactlyEmptyLog = (log: PrivateLog): boolean =>
  log.emittedLength === 0 && log.fields.length === PRIVATE_LOG_SIZE_IN_FIELDS && log.fields.every(isZero);

// ---- The tail's output -----------------------------------------------------------------------------

/**
 * blockHeader with every object strict (the same JSON as svc_getBlockHeader), checked to be a
 * header the kernel can hold: u32 indices and numbers, u64 timestamp, u128 fees.
 */
const anchorBlockHeader = z.codec(strictDeep(blockHeader), z.custom<BlockHeader>(), {
  decode: (header, ctx) => {
    try {
      blockHeaderToFields(header);
    } catch (err) {
      ctx.issues.push({ code: 'custom', message: (err as Error).message, input: header });
      return z.NEVER;
    }
    return header;
  },
  encode: (header) => header,
});

/** `schema` rebuilt with each object in it strict; other schemas are kept as they are. */
function strictDeep<T extends z.ZodType>(schema: T): T {
  if (!(schema instanceof z.ZodObject)) return schema;
  const shape = Object.fromEntries(
    Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strictDeep(v)]),
  );
  const strict = z.object(shape).strict();
  // Same shape, only stricter input: the types are those of `schema`.
  return (schema.description === undefined ? strict : strict.describe(schema.description)) as unknown as T;
}

const constants = z
  .object({
    anchorBlockHeader,
    txContext: z.object({ chainId: frHex, version: frHex, gasSettings }).strict(),
    vkTreeRoot: frHex,
    protocolContractsHash: frHex,
  })
  .strict();

const l2ToL1Message = z
  .object({
    message: z.object({ recipient: ethAddress, content: frHex }).strict(),
    contractAddress: l2Address,
  })
  .strict();

const privateLog = z
  .object({
    fields: paddedFields(PRIVATE_LOG_SIZE_IN_FIELDS, 'a private log'),
    emittedLength: u32.max(
      PRIVATE_LOG_SIZE_IN_FIELDS,
      `a private log's emittedLength is at most ${PRIVATE_LOG_SIZE_IN_FIELDS}`,
    ),
  })
  .strict();

const scopedLogHash = z
  .object({
    logHash: z
      .object({
        value: frHex,
        length: u32.max(
          CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
          `a contract class log's length is at most ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS}`,
        ),
      })
      .strict(),
    contractAddress: l2Address,
  })
  .strict();

const rollupDataShape = {
  noteHashes: fixedWidth(frHex, MAX_NOTE_HASHES_PER_TX, isZero, () => 0n, 'note hashes'),
  nullifiers: fixedWidth(frHex, MAX_NULLIFIERS_PER_TX, isZero, () => 0n, 'nullifiers'),
  l2ToL1Msgs: fixedWidth(
    l2ToL1Message,
    MAX_L2_TO_L1_MSGS_PER_TX,
    isEmptyL2ToL1Message,
    emptyL2ToL1Message,
    'L2-to-L1 messages',
  ),
  privateLogs: fixedWidth(
    privateLog,
    MAX_PRIVATE_LOGS_PER_TX,
    isExactlyEmptyLog,
    emptyPrivateLog,
    'private logs',
  ),
  contractClassLogsHashes: fixedWidth(
    scopedLogHash,
    MAX_CONTRACT_CLASS_LOGS_PER_TX,
    isEmptyScopedLogHash,
    emptyScopedLogHash,
    'contract class log hashes',
  ),
};

const publicData = z
  .object({
    ...rollupDataShape,
    publicCallRequests: fixedWidth(
      publicCallRequest,
      MAX_ENQUEUED_CALLS_PER_TX,
      isEmptyPublicCallRequest,
      emptyPublicCallRequest,
      'public call requests',
    ),
  })
  .strict();

/** The teardown call, null when the tx has none (the all-zero request). */
const teardownCall = z.codec(publicCallRequest.nullable(), z.custom<PublicCallRequest>(), {
  decode: (request) => request ?? emptyPublicCallRequest(),
  encode: (request) => (isEmptyPublicCallRequest(request) ? null : request),
});

const tailJson = z
  .object({
    constants,
    gasUsed: gas,
    feePayer: l2Address,
    expirationTimestamp: u64Dec,
    forRollup: z
      .object({ end: z.object(rollupDataShape).strict() })
      .strict()
      .optional(),
    forPublic: z
      .object({
        nonRevertibleAccumulatedData: publicData,
        revertibleAccumulatedData: publicData,
        publicTeardownCallRequest: teardownCall,
      })
      .strict()
      .optional(),
  })
  .strict();

const tail = z.codec(tailJson, z.custom<PrivateKernelTailCircuitPublicInputs>(), {
  decode: ({ forRollup, forPublic, ...common }, ctx) => {
    if (forRollup !== undefined && forPublic === undefined) return { ...common, forRollup };
    if (forPublic !== undefined && forRollup === undefined) return { ...common, forPublic };
    ctx.issues.push({
      code: 'custom',
      message: `a tx's data has exactly one of forRollup (private only) and forPublic (with public calls), got ${forRollup === undefined ? 'neither' : 'both'}`,
      input: { forRollup, forPublic },
    });
    return z.NEVER;
  },
  encode: (data) => data,
});

// ---- The proof ---------------------------------------------------------------------------------

const PROOF_BYTES = CHONK_PROOF_LENGTH * 32;
const MODULUS_BYTES = toBytes32(FR_MODULUS);

/** Whether the 32-byte big-endian word at `at` is below the field modulus. */
function belowModulus(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < 32; i++) {
    const b = bytes[at + i]!;
    const m = MODULUS_BYTES[i]!;
    if (b !== m) return b < m;
  }
  return false;
}

/** Bytes of the proof up to its last word that is not all zero. */
function keptProofBytes(proof: Uint8Array): number {
  let end = proof.length;
  while (end > 0 && proof[end - 1] === 0) end--;
  return Math.ceil(end / 32) * 32;
}

const proofHex = (proof: Uint8Array): string =>
  `0x${Buffer.from(proof.buffer, proof.byteOffset, keptProofBytes(proof)).toString('hex')}`;

const chonkProof = z
  .codec(
    z
      .string()
      .max(2 + 64 * CHONK_PROOF_LENGTH, `chonkProof has at most ${CHONK_PROOF_LENGTH} words (32 bytes each)`)
      .regex(/^0x[0-9a-fA-F]*$/, 'expected 0x followed by hex digits'),
    z.custom<Uint8Array>(
      (p) => p instanceof Uint8Array && p.length === PROOF_BYTES,
      `chonkProof is ${CHONK_PROOF_LENGTH} fields (${PROOF_BYTES} bytes)`,
    ),
    {
      decode: (text, ctx) => {
        const digits = text.length - 2;
        if (digits % 64 !== 0) {
          ctx.issues.push({
            code: 'custom',
            message: `chonkProof is a whole number of 32-byte words (64 hex digits each), got ${digits} hex digits`,
            input: text,
          });
          return z.NEVER;
        }
        const proof = new Uint8Array(PROOF_BYTES);
        Buffer.from(proof.buffer).write(text.slice(2), 'hex');
        for (let w = 0; w < digits / 64; w++) {
          if (!belowModulus(proof, w * 32)) {
            ctx.issues.push({
              code: 'custom',
              message: `chonkProof word ${w} is not below the BN254 scalar field modulus`,
              input: text,
            });
            return z.NEVER;
          }
        }
        return proof;
      },
      encode: proofHex,
    },
  )
  .describe(
    `ChonkProof: its ${CHONK_PROOF_LENGTH} fields as 32-byte big-endian words in hex, trailing all-zero words dropped ("0x" is the all-zero proof)`,
  );

// ---- The tx --------------------------------------------------------------------------------------

const calldata = z
  .array(
    z
      .object({
        values: z
          .array(frHex)
          .max(
            MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS,
            `a tx has at most ${MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS} calldata values in all`,
          ),
        hash: frHex,
      })
      .strict(),
  )
  .max(
    MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX,
    `too many calldata entries: at most ${MAX_PUBLIC_FUNCTION_CALLDATA_PER_TX}`,
  )
  .superRefine((calls, ctx) => {
    let total = 0;
    for (const call of calls) total += call.values.length;
    if (total > MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS) {
      ctx.addIssue({
        code: 'custom',
        message: `a tx has at most ${MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS} calldata values in all, got ${total}`,
      });
    }
  });

/**
 * The tx as submitted. `txHash` is optional on input (when given it must match the hash the node
 * computes) and always present on output.
 */
export const tx = z
  .object({
    txHash: txHash.optional(),
    data: tail,
    chonkProof,
    contractClassLogFields: z
      .array(
        z
          .object({ fields: paddedFields(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, 'a contract class log') })
          .strict(),
      )
      .max(
        MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX,
        `too many contract class logs: at most ${MAX_CONTRACT_CLASS_LOG_FIELDS_PER_TX}`,
      ),
    publicFunctionCalldata: calldata,
  })
  .strict()
  .describe(
    'Transaction (the private kernel tail output, reference 4.1.2): data {constants, gasUsed, feePayer, ' +
      'expirationTimestamp, exactly one of forRollup / forPublic}, chonkProof, contractClassLogFields, ' +
      'publicFunctionCalldata. Fixed-width arrays omit their trailing empty items and log fields their ' +
      'trailing zeros (both padded back on input); a missing teardown call is null',
  );

export type WireTx = z.output<typeof tx>;

/** A decoded tx as the node works with it, with the hash the client claimed (if any). */
export const toTx = (wire: WireTx): { tx: TxBody; claimedHash: Fr | undefined } => {
  const { txHash: claimedHash, ...body } = wire;
  return { tx: body, claimedHash };
};

/** The wire form of a tx with its hash. */
export const fromTx = (body: TxBody, hash: Fr): WireTx => ({ txHash: hash, ...body });

// ---- The wire JSON of a tx, written by hand ----------------------------------------------------------
// `z.encode(tx, …)` walks every schema node with a copied context, and a tail holds hundreds of
// slots; this is paid for each tx the pool stores and each tx gossiped. This writes the same JSON
// (same keys in the same order, same values) directly; a property test holds it equal to z.encode.

/** `f` of the items kept when the trailing ones `isEmpty` holds for are dropped. */
function mapKept<T, U>(items: readonly T[], isEmpty: (item: T) => boolean, f: (item: T) => U): U[] {
  const n = keptLength(items, isEmpty);
  const out = new Array<U>(n);
  for (let i = 0; i < n; i++) out[i] = f(items[i]!);
  return out;
}

const keptHex = (fields: readonly Fr[]): string[] => mapKept(fields, isZero, toHex32);

const encodeGas = (g: Gas) => ({ daGas: g.daGas, l2Gas: g.l2Gas });
const encodeFees = (f: GasFees) => ({
  feePerDaGas: f.feePerDaGas.toString(10),
  feePerL2Gas: f.feePerL2Gas.toString(10),
});
const encodeSnapshot = (s: { root: Fr; nextAvailableLeafIndex: number }) => ({
  root: toHex32(s.root),
  nextAvailableLeafIndex: s.nextAvailableLeafIndex,
});

function encodeHeader(h: BlockHeader) {
  const g = h.globalVariables;
  return {
    lastArchive: encodeSnapshot(h.lastArchive),
    state: {
      l1ToL2MessageTree: encodeSnapshot(h.state.l1ToL2MessageTree),
      partial: {
        noteHashTree: encodeSnapshot(h.state.partial.noteHashTree),
        nullifierTree: encodeSnapshot(h.state.partial.nullifierTree),
        publicDataTree: encodeSnapshot(h.state.partial.publicDataTree),
      },
    },
    spongeBlobHash: toHex32(h.spongeBlobHash),
    globalVariables: {
      chainId: toHex32(g.chainId),
      version: toHex32(g.version),
      blockNumber: g.blockNumber,
      slotNumber: g.slotNumber,
      timestamp: g.timestamp.toString(10),
      coinbase: g.coinbase.toLowerCase(),
      feeRecipient: toHex32(g.feeRecipient),
      gasFees: encodeFees(g.gasFees),
    },
    totalFees: toHex32(h.totalFees),
    totalManaUsed: toHex32(h.totalManaUsed),
  };
}

const encodeCall = (c: PublicCallRequest) => ({
  msgSender: toHex32(c.msgSender),
  contractAddress: toHex32(c.contractAddress),
  isStaticCall: c.isStaticCall,
  calldataHash: toHex32(c.calldataHash),
});
const encodeMessage = (m: ScopedL2ToL1Message) => ({
  message: { recipient: m.message.recipient.toLowerCase(), content: toHex32(m.message.content) },
  contractAddress: toHex32(m.contractAddress),
});
const encodeLog = (l: PrivateLog) => ({ fields: keptHex(l.fields), emittedLength: l.emittedLength });
const encodeLogHash = (h: ScopedLogHash) => ({
  logHash: { value: toHex32(h.logHash.value), length: h.logHash.length },
  contractAddress: toHex32(h.contractAddress),
});

const encodeRollupData = (d: PrivateToRollupAccumulatedData) => ({
  noteHashes: keptHex(d.noteHashes),
  nullifiers: keptHex(d.nullifiers),
  l2ToL1Msgs: mapKept(d.l2ToL1Msgs, isEmptyL2ToL1Message, encodeMessage),
  privateLogs: mapKept(d.privateLogs, isExactlyEmptyLog, encodeLog),
  contractClassLogsHashes: mapKept(d.contractClassLogsHashes, isEmptyScopedLogHash, encodeLogHash),
});
const encodePublicData = (d: PrivateToPublicAccumulatedData) => ({
  ...encodeRollupData(d),
  publicCallRequests: mapKept(d.publicCallRequests, isEmptyPublicCallRequest, encodeCall),
});

/** The wire form of a tx with its hash, as JSON values: equal to `z.encode(tx, fromTx(body, hash))`. */
export function encodeWireTx(body: TxBody, hash: Fr): z.input<typeof tx> {
  const d = body.data;
  const c = d.constants;
  const g = c.txContext.gasSettings;
  const common = {
    constants: {
      anchorBlockHeader: encodeHeader(c.anchorBlockHeader),
      txContext: {
        chainId: toHex32(c.txContext.chainId),
        version: toHex32(c.txContext.version),
        gasSettings: {
          gasLimits: encodeGas(g.gasLimits),
          teardownGasLimits: encodeGas(g.teardownGasLimits),
          maxFeesPerGas: encodeFees(g.maxFeesPerGas),
          maxPriorityFeesPerGas: encodeFees(g.maxPriorityFeesPerGas),
        },
      },
      vkTreeRoot: toHex32(c.vkTreeRoot),
      protocolContractsHash: toHex32(c.protocolContractsHash),
    },
    gasUsed: encodeGas(d.gasUsed),
    feePayer: toHex32(d.feePayer),
    expirationTimestamp: d.expirationTimestamp.toString(10),
  };
  let data: z.input<typeof tailJson>;
  if (d.forPublic !== undefined) {
    const p = d.forPublic;
    const teardown = p.publicTeardownCallRequest;
    data = {
      ...common,
      forPublic: {
        nonRevertibleAccumulatedData: encodePublicData(p.nonRevertibleAccumulatedData),
        revertibleAccumulatedData: encodePublicData(p.revertibleAccumulatedData),
        publicTeardownCallRequest: isEmptyPublicCallRequest(teardown) ? null : encodeCall(teardown),
      },
    };
  } else {
    data = { ...common, forRollup: { end: encodeRollupData(d.forRollup.end) } };
  }
  return {
    txHash: toHex32(hash),
    data,
    chonkProof: proofHex(body.chonkProof),
    contractClassLogFields: body.contractClassLogFields.map((l) => ({ fields: keptHex(l.fields) })),
    publicFunctionCalldata: body.publicFunctionCalldata.map((call) => ({
      values: call.values.map(toHex32),
      hash: toHex32(call.hash),
    })),
  };
}
