// The checkpoint body carried to L1 with each proposal (data availability): the checkpoint
// header and its blocks. Any node rebuilds the chain from these bodies, checking each against
// what L1 recorded for the checkpoint.
//
// Two formats are read; the second is written:
// - `cairn-checkpoint-body/1`: UTF-8 JSON in the wire form of the RPC results (a field as 69
//   bytes of hex). Bodies already on an L1 stay readable.
// - `cairn-checkpoint-body/2`: a sequence of 32-byte big-endian words, every value a field
//   element, lists prefixed by their length (layout below). A public Token transfer takes 19 words
//   (608 bytes) instead of ~1,420 bytes of JSON, so a checkpoint carries 2.3× the txs.
//
// Layout of /2, word by word:
//   FORMAT_2_TAG
//   checkpoint header: lastArchiveRoot blockHeadersHash blobsHash inHash epochOutHash slotNumber
//     timestamp coinbase feeRecipient feePerDaGas feePerL2Gas totalManaUsed
//   block count, then per block:
//     checkpointNumber indexWithinCheckpoint archive.root archive.nextAvailableLeafIndex
//     the 22 header fields (blockHeaderToFields)
//     tx count, then per tx effect:
//       txHash revertCode transactionFee
//       n noteHashes…  n nullifiers…  n l2ToL1Msgs…  n (leafSlot value)…
//       n private logs, each: emittedLength length stored fields[0, stored)
//       n public logs, each: contractAddress length fields…
//       n class logs, each: contractAddress emittedLength length stored fields[0, stored)
// A log's fields after `stored` are zeros up to `length` (logs are zero padded; trailing zeros
// are not sent).
import { z } from 'zod';
import type { ContractClassLog, L2Block, PrivateLog, PublicLog, TxEffect } from './block.js';
import { checkpointHeader, l2Block } from './block-codecs.js';
import {
  type AppendOnlyTreeSnapshot,
  blockHeaderFromFields,
  blockHeaderHash,
  blockHeaderToFields,
  type CheckpointHeader,
  checkpointHeaderHash,
  ethAddressToField,
  type FieldSource,
  U64_MAX,
  U128_MAX,
} from './block-header.js';
import { FR_MODULUS, type Fr } from './field.js';

export const CHECKPOINT_BODY_FORMAT_1 = 'cairn-checkpoint-body/1';
/** The first word of a /2 body: "cairn-checkpoint-body/2" in ASCII, as a number. */
export const FORMAT_2_TAG = BigInt(`0x${Buffer.from('cairn-checkpoint-body/2').toString('hex')}`);

export interface CheckpointBody {
  header: CheckpointHeader;
  blocks: L2Block[];
}

const bodySchema1 = z
  .object({
    format: z.literal(CHECKPOINT_BODY_FORMAT_1),
    header: checkpointHeader,
    blocks: z.array(l2Block).min(1, 'a checkpoint has at least one block'),
  })
  .strict();

/**
 * Most bytes of a checkpoint body: it travels as L1 calldata, which costs up to 40 gas a byte, and
 * the proposal must fit an L1 block (30M gas) with room for its own execution.
 */
export const MAX_CHECKPOINT_BODY_BYTES = 512 * 1024;
/** Room for the body's format tag, checkpoint header and block count (14 words, rounded up). */
export const CHECKPOINT_BODY_OVERHEAD_BYTES = 2048;
/** Room for one block's numbers, archive, header and tx count (27 words, rounded up). */
export const BLOCK_BODY_OVERHEAD_BYTES = 4096;

const WORD_BYTES = 32;

/**
 * An upper bound on the bytes a tx effect takes in the body (exact but for logs' trailing zeros),
 * cheap enough to check for every tx a block considers.
 */
export function txEffectBodyBytesBound(effect: TxEffect): number {
  let words =
    3 +
    1 +
    effect.noteHashes.length +
    1 +
    effect.nullifiers.length +
    1 +
    effect.l2ToL1Msgs.length +
    1 +
    2 * effect.publicDataWrites.length +
    3;
  for (const log of effect.privateLogs) words += 3 + log.fields.length;
  for (const log of effect.publicLogs) words += 2 + log.fields.length;
  for (const log of effect.contractClassLogs) words += 4 + log.fields.fields.length;
  return words * WORD_BYTES;
}

export class CheckpointBodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointBodyError';
  }
}

// ---- writing (/2) --------------------------------------------------------------------------------

/** Words as hex, joined into bytes at the end (one native conversion for the whole body). */
class WordWriter {
  private readonly hex: string[] = [];
  word(value: bigint | number): void {
    const v = typeof value === 'number' ? BigInt(value) : value;
    if (v < 0n || v >= FR_MODULUS)
      throw new RangeError(`a checkpoint body word must be a field element, got ${v}`);
    this.hex.push(v.toString(16).padStart(64, '0'));
  }
  list(values: readonly bigint[]): void {
    this.word(values.length);
    for (const v of values) this.word(v);
  }
  /** A zero-padded log's fields: its length, how many are sent, and those. */
  padded(fields: readonly bigint[]): void {
    let stored = fields.length;
    while (stored > 0 && fields[stored - 1] === 0n) stored--;
    this.word(fields.length);
    this.word(stored);
    for (let i = 0; i < stored; i++) this.word(fields[i]!);
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.from(this.hex.join(''), 'hex'));
  }
}

function writeCheckpointHeader(w: WordWriter, h: CheckpointHeader): void {
  for (const v of [h.lastArchiveRoot, h.blockHeadersHash, h.blobsHash, h.inHash, h.epochOutHash]) w.word(v);
  w.word(h.slotNumber);
  w.word(h.timestamp);
  w.word(ethAddressToField(h.coinbase, 'coinbase'));
  w.word(h.feeRecipient);
  w.word(h.gasFees.feePerDaGas);
  w.word(h.gasFees.feePerL2Gas);
  w.word(h.totalManaUsed);
}

function writeBlockStart(w: WordWriter, block: L2Block): void {
  w.word(block.checkpointNumber);
  w.word(block.indexWithinCheckpoint);
  w.word(block.archive.root);
  w.word(block.archive.nextAvailableLeafIndex);
  for (const f of blockHeaderToFields(block.header)) w.word(f);
  w.word(block.body.txEffects.length);
}

function writeTxEffect(w: WordWriter, e: TxEffect): void {
  w.word(e.txHash);
  w.word(e.revertCode);
  w.word(e.transactionFee);
  w.list(e.noteHashes);
  w.list(e.nullifiers);
  w.list(e.l2ToL1Msgs);
  w.word(e.publicDataWrites.length);
  for (const write of e.publicDataWrites) {
    w.word(write.leafSlot);
    w.word(write.value);
  }
  w.word(e.privateLogs.length);
  for (const log of e.privateLogs) {
    w.word(log.emittedLength);
    w.padded(log.fields);
  }
  w.word(e.publicLogs.length);
  for (const log of e.publicLogs) {
    w.word(log.contractAddress);
    w.list(log.fields);
  }
  w.word(e.contractClassLogs.length);
  for (const log of e.contractClassLogs) {
    w.word(log.contractAddress);
    w.word(log.emittedLength);
    w.padded(log.fields.fields);
  }
}

/** How many tx effects are encoded between pauses in encodeCheckpointBodyInSlices. */
const TX_EFFECTS_PER_SLICE = 64;

/** Writes the whole body, yielding after every TX_EFFECTS_PER_SLICE tx effects of a block. */
function* writeBody(w: WordWriter, body: CheckpointBody): Generator<void> {
  if (body.blocks.length === 0) throw new Error('a checkpoint has at least one block');
  w.word(FORMAT_2_TAG);
  writeCheckpointHeader(w, body.header);
  w.word(body.blocks.length);
  for (const block of body.blocks) {
    writeBlockStart(w, block);
    for (const [i, effect] of block.body.txEffects.entries()) {
      writeTxEffect(w, effect);
      if (i % TX_EFFECTS_PER_SLICE === TX_EFFECTS_PER_SLICE - 1) yield;
    }
  }
}

/** The body's bytes (format /2). */
export function encodeCheckpointBody(body: CheckpointBody): Uint8Array {
  const w = new WordWriter();
  for (const _ of writeBody(w, body));
  return w.bytes();
}

/**
 * The same bytes as encodeCheckpointBody, with `pause()` awaited every few tx effects: a full
 * checkpoint takes milliseconds to encode, and the node answers requests meanwhile.
 */
export async function encodeCheckpointBodyInSlices(
  body: CheckpointBody,
  pause: () => Promise<void>,
): Promise<Uint8Array> {
  const w = new WordWriter();
  for (const _ of writeBody(w, body)) await pause();
  return w.bytes();
}

/** The body in format /1 (JSON). Nodes no longer write it; tests use it to check it is still read. */
export function encodeCheckpointBodyFormat1(body: CheckpointBody): Uint8Array {
  const wire = z.encode(bodySchema1, {
    format: CHECKPOINT_BODY_FORMAT_1,
    header: body.header,
    blocks: body.blocks.map(({ archive, header, body: b, checkpointNumber, indexWithinCheckpoint }) => ({
      archive,
      header,
      body: b,
      checkpointNumber,
      indexWithinCheckpoint,
    })),
  });
  return new TextEncoder().encode(JSON.stringify(wire));
}

// ---- reading -------------------------------------------------------------------------------------

/** Reads words in order; every read checks the value's range and that the body has that word. */
class WordReader implements FieldSource {
  private index = 0;
  private readonly words: number;
  constructor(private readonly bytes: Buffer) {
    this.words = bytes.length / WORD_BYTES;
  }
  private fail(what: string, why: string): never {
    throw new CheckpointBodyError(`checkpoint body is malformed at word ${this.index} (${what}): ${why}`);
  }
  private next(what: string): bigint {
    if (this.index >= this.words) this.fail(what, 'the body ends early');
    const at = this.index * WORD_BYTES;
    this.index++;
    return BigInt(`0x${this.bytes.toString('hex', at, at + WORD_BYTES)}`);
  }
  fr(what: string): Fr {
    const v = this.next(what);
    if (v >= FR_MODULUS) this.fail(what, 'not a field element');
    return v;
  }
  uint(max: bigint, what: string): bigint {
    const v = this.next(what);
    if (v > max) this.fail(what, `more than ${max}`);
    return v;
  }
  u32(what: string): number {
    return Number(this.uint(0xffffffffn, what));
  }
  ethAddress(what: string): string {
    return `0x${this.uint((1n << 160n) - 1n, what)
      .toString(16)
      .padStart(40, '0')}`;
  }
  /** A length: each item takes at least `wordsPerItem` words, so it cannot exceed what is left. */
  count(what: string, wordsPerItem = 1): number {
    const n = this.uint(0xffffffffn, what);
    if (n * BigInt(wordsPerItem) > BigInt(this.words - this.index))
      this.fail(what, `${n} items do not fit in the body`);
    return Number(n);
  }
  list(what: string): Fr[] {
    const n = this.count(what);
    const out = new Array<Fr>(n);
    for (let i = 0; i < n; i++) out[i] = this.fr(what);
    return out;
  }
  padded(what: string): Fr[] {
    const length = this.u32(`${what} length`);
    const stored = this.count(`${what} fields sent`);
    if (stored > length) this.fail(what, `${stored} fields sent of ${length}`);
    const out = new Array<Fr>(length).fill(0n);
    for (let i = 0; i < stored; i++) out[i] = this.fr(what);
    return out;
  }
  end(): void {
    if (this.index !== this.words) this.fail('end', `${this.words - this.index} words after the last block`);
  }
}

function readTxEffect(r: WordReader): TxEffect {
  const txHash = r.fr('txHash');
  const revertCode = r.u32('revertCode');
  const transactionFee = r.fr('transactionFee');
  const noteHashes = r.list('noteHashes');
  const nullifiers = r.list('nullifiers');
  const l2ToL1Msgs = r.list('l2ToL1Msgs');
  const publicDataWrites = Array.from({ length: r.count('publicDataWrites', 2) }, () => ({
    leafSlot: r.fr('publicDataWrites.leafSlot'),
    value: r.fr('publicDataWrites.value'),
  }));
  const privateLogs: PrivateLog[] = Array.from({ length: r.count('privateLogs', 3) }, () => {
    const emittedLength = r.u32('privateLogs.emittedLength');
    return { fields: r.padded('privateLogs.fields'), emittedLength };
  });
  const publicLogs: PublicLog[] = Array.from({ length: r.count('publicLogs', 2) }, () => ({
    contractAddress: r.fr('publicLogs.contractAddress'),
    fields: r.list('publicLogs.fields'),
  }));
  const contractClassLogs: ContractClassLog[] = Array.from(
    { length: r.count('contractClassLogs', 4) },
    () => {
      const contractAddress = r.fr('contractClassLogs.contractAddress');
      const emittedLength = r.u32('contractClassLogs.emittedLength');
      return { contractAddress, fields: { fields: r.padded('contractClassLogs.fields') }, emittedLength };
    },
  );
  return {
    revertCode,
    txHash,
    transactionFee,
    noteHashes,
    nullifiers,
    l2ToL1Msgs,
    publicDataWrites,
    privateLogs,
    publicLogs,
    contractClassLogs,
  };
}

function decodeFormat2(bytes: Buffer): CheckpointBody {
  if (bytes.length % WORD_BYTES !== 0)
    throw new CheckpointBodyError(
      `checkpoint body is malformed: ${bytes.length} bytes is not a whole number of words`,
    );
  const r = new WordReader(bytes);
  r.fr('format');
  const header: CheckpointHeader = {
    lastArchiveRoot: r.fr('header.lastArchiveRoot'),
    blockHeadersHash: r.fr('header.blockHeadersHash'),
    blobsHash: r.fr('header.blobsHash'),
    inHash: r.fr('header.inHash'),
    epochOutHash: r.fr('header.epochOutHash'),
    slotNumber: r.u32('header.slotNumber'),
    timestamp: r.uint(U64_MAX, 'header.timestamp'),
    coinbase: r.ethAddress('header.coinbase'),
    feeRecipient: r.fr('header.feeRecipient'),
    gasFees: {
      feePerDaGas: r.uint(U128_MAX, 'header.gasFees.feePerDaGas'),
      feePerL2Gas: r.uint(U128_MAX, 'header.gasFees.feePerL2Gas'),
    },
    totalManaUsed: r.fr('header.totalManaUsed'),
  };
  const blockCount = r.count('block count', 27);
  if (blockCount === 0)
    throw new CheckpointBodyError('checkpoint body is malformed: a checkpoint has at least one block');
  const blocks: L2Block[] = [];
  for (let b = 0; b < blockCount; b++) {
    const checkpointNumber = r.u32('checkpointNumber');
    const indexWithinCheckpoint = r.u32('indexWithinCheckpoint');
    const archive: AppendOnlyTreeSnapshot = {
      root: r.fr('archive.root'),
      nextAvailableLeafIndex: r.u32('archive.nextAvailableLeafIndex'),
    };
    const blockHeaderRead = blockHeaderFromFields(r);
    const txCount = r.count('tx count', 10);
    const txEffects: TxEffect[] = [];
    for (let i = 0; i < txCount; i++) txEffects.push(readTxEffect(r));
    blocks.push({
      number: blockHeaderRead.globalVariables.blockNumber,
      hash: blockHeaderHash(blockHeaderRead),
      header: blockHeaderRead,
      archive,
      body: { txEffects },
      checkpointNumber,
      indexWithinCheckpoint,
    });
  }
  r.end();
  return { header, blocks };
}

function decodeFormat1(bytes: Uint8Array): CheckpointBody {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new CheckpointBodyError(`checkpoint body is not UTF-8 JSON: ${(err as Error).message}`);
  }
  const parsed = bodySchema1.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CheckpointBodyError(
      `checkpoint body is malformed at ${issue.path.join('.') || 'top'}: ${issue.message}`,
    );
  }
  return {
    header: parsed.data.header,
    blocks: parsed.data.blocks.map((b) => ({
      ...b,
      number: b.header.globalVariables.blockNumber,
      hash: blockHeaderHash(b.header),
    })),
  };
}

/** Decodes a body of either format; each block's number and hash are derived from its header. */
export function decodeCheckpointBody(bytes: Uint8Array): CheckpointBody {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length >= WORD_BYTES && BigInt(`0x${buffer.toString('hex', 0, WORD_BYTES)}`) === FORMAT_2_TAG)
    return decodeFormat2(buffer);
  if (buffer.length > 0 && buffer[0] === 0x7b /* { */) return decodeFormat1(bytes);
  throw new CheckpointBodyError('checkpoint body is in neither known format (/2 words, or /1 JSON)');
}

/** What L1 recorded for a checkpoint, and where the chain stood before it. */
export interface CheckpointOnL1 {
  checkpointNumber: number;
  slot: number;
  headerHash: Fr;
  archive: Fr;
  /** The archive after the previous checkpoint's last block (genesis for checkpoint 1). */
  previousArchive: AppendOnlyTreeSnapshot;
}

/** Throws a CheckpointBodyError naming the first way the body disagrees with L1. */
export function verifyCheckpointBody(body: CheckpointBody, l1: CheckpointOnL1): void {
  const fail = (why: string) => {
    throw new CheckpointBodyError(`checkpoint ${l1.checkpointNumber}: ${why}`);
  };
  if (checkpointHeaderHash(body.header) !== l1.headerHash)
    fail('its header does not hash to the header hash on L1');
  if (body.header.slotNumber !== l1.slot)
    fail(`its header is for slot ${body.header.slotNumber}, L1 says ${l1.slot}`);
  if (body.header.lastArchiveRoot !== l1.previousArchive.root)
    fail('its header does not build on the previous archive');
  let archive = l1.previousArchive;
  body.blocks.forEach((block, i) => {
    const where = `block ${i}`;
    if (block.checkpointNumber !== l1.checkpointNumber || block.indexWithinCheckpoint !== i) {
      fail(
        `${where} says it is block ${block.indexWithinCheckpoint} of checkpoint ${block.checkpointNumber}`,
      );
    }
    if (block.number !== archive.nextAvailableLeafIndex) {
      fail(`${where} is number ${block.number}, expected ${archive.nextAvailableLeafIndex}`);
    }
    if (block.header.globalVariables.slotNumber !== l1.slot) fail(`${where} is for another slot`);
    const last = block.header.lastArchive;
    if (last.root !== archive.root || last.nextAvailableLeafIndex !== archive.nextAvailableLeafIndex) {
      fail(`${where} does not build on the archive before it`);
    }
    if (block.archive.nextAvailableLeafIndex !== block.number + 1)
      fail(`${where} has an archive of the wrong size`);
    archive = block.archive;
  });
  if (archive.root !== l1.archive) fail('its last block does not end at the archive root on L1');
}
