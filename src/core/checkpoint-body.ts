// The checkpoint body carried to L1 with each proposal (data availability): the checkpoint
// header and its blocks, as UTF-8 JSON in the wire form of the RPC results. Any node rebuilds
// the chain from these bodies, checking each against what L1 recorded for the checkpoint.
import { z } from 'zod';
import type { L2Block, TxEffect } from './block.js';
import { appendOnlyTreeSnapshot, blockHeader, checkpointHeader, l2Block, txEffect } from './block-codecs.js';
import {
  type AppendOnlyTreeSnapshot,
  blockHeaderHash,
  type CheckpointHeader,
  checkpointHeaderHash,
} from './block-header.js';
import { uint } from './codecs.js';
import type { Fr } from './field.js';

export const CHECKPOINT_BODY_FORMAT = 'cairn-checkpoint-body/1';

export interface CheckpointBody {
  header: CheckpointHeader;
  blocks: L2Block[];
}

const bodySchema = z
  .object({
    format: z.literal(CHECKPOINT_BODY_FORMAT),
    header: checkpointHeader,
    blocks: z.array(l2Block).min(1, 'a checkpoint has at least one block'),
  })
  .strict();

/**
 * Most bytes of a checkpoint body: it travels as L1 calldata, which costs up to 40 gas a byte, and
 * the proposal must fit an L1 block (30M gas) with room for its own execution.
 */
export const MAX_CHECKPOINT_BODY_BYTES = 512 * 1024;
/** Room for the body's checkpoint header and format tag. */
export const CHECKPOINT_BODY_OVERHEAD_BYTES = 2048;
/** Room for one block's header, archive and framing in the body. */
export const BLOCK_BODY_OVERHEAD_BYTES = 4096;

// A field element is at most `"0x` + 64 hex + `",` = 69 bytes; a count or flag at most 20.
const FIELD_BYTES = 69;
const ITEM_BYTES = 48;

/**
 * An upper bound on the bytes a tx effect takes in the body (JSON, every field as hex), cheap
 * enough to check for every tx a block considers.
 */
export function txEffectBodyBytesBound(effect: TxEffect): number {
  const fields =
    3 +
    effect.noteHashes.length +
    effect.nullifiers.length +
    effect.l2ToL1Msgs.length +
    2 * effect.publicDataWrites.length +
    effect.privateLogs.reduce((n, l) => n + l.fields.length, 0) +
    effect.publicLogs.reduce((n, l) => n + 1 + l.fields.length, 0) +
    effect.contractClassLogs.reduce((n, l) => n + 1 + l.fields.fields.length, 0);
  const items =
    effect.publicDataWrites.length +
    effect.privateLogs.length +
    effect.publicLogs.length +
    effect.contractClassLogs.length;
  return 400 + fields * FIELD_BYTES + items * ITEM_BYTES;
}

export class CheckpointBodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointBodyError';
  }
}

export function encodeCheckpointBody(body: CheckpointBody): Uint8Array {
  const wire = z.encode(bodySchema, {
    format: CHECKPOINT_BODY_FORMAT,
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

/** How many tx effects are encoded between pauses in encodeCheckpointBodyInSlices. */
const TX_EFFECTS_PER_SLICE = 32;

/**
 * The same bytes as encodeCheckpointBody, encoded piece by piece with `pause()` awaited every
 * few tx effects: a full checkpoint takes tens of milliseconds to encode, too long to hold the
 * event loop while the node answers requests. Each piece goes through its part of the same
 * codec, and the JSON is assembled in the codec's key order.
 */
export async function encodeCheckpointBodyInSlices(
  body: CheckpointBody,
  pause: () => Promise<void>,
): Promise<Uint8Array> {
  if (body.blocks.length === 0) throw new Error('a checkpoint has at least one block');
  const json = (schema: z.ZodType, value: unknown) => JSON.stringify(z.encode(schema, value));
  const parts = [
    `{"format":${JSON.stringify(CHECKPOINT_BODY_FORMAT)},"header":${json(checkpointHeader, body.header)},"blocks":[`,
  ];
  for (const [b, block] of body.blocks.entries()) {
    const effects: string[] = [];
    for (const [i, effect] of block.body.txEffects.entries()) {
      effects.push(json(txEffect, effect));
      if (i % TX_EFFECTS_PER_SLICE === TX_EFFECTS_PER_SLICE - 1) await pause();
    }
    parts.push(
      `${b === 0 ? '' : ','}{"archive":${json(appendOnlyTreeSnapshot, block.archive)},"header":${json(blockHeader, block.header)},` +
        `"body":{"txEffects":[${effects.join(',')}]},"checkpointNumber":${json(uint, block.checkpointNumber)},` +
        `"indexWithinCheckpoint":${json(uint, block.indexWithinCheckpoint)}}`,
    );
  }
  parts.push(']}');
  return new TextEncoder().encode(parts.join(''));
}

/** Decodes a body; each block's number and hash are derived from its header. */
export function decodeCheckpointBody(bytes: Uint8Array): CheckpointBody {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new CheckpointBodyError(`checkpoint body is not UTF-8 JSON: ${(err as Error).message}`);
  }
  const parsed = bodySchema.safeParse(json);
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
