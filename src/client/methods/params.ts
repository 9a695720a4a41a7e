// Parameter shapes shared by block and checkpoint methods (docs/chain.md, "Block and checkpoint
// parameters"; docs/rpc.md, "Values").
import { z } from 'zod';
import { blockHash, frHex, slotNumber, uint } from '../../core/codecs.js';

// What the params decode to, restated from src/queries/chain.ts (a layer the client may not
// import); src/api/chain.ts checks at compile time that they are the same types.
export type BlockRef =
  | { kind: 'number'; number: number }
  | { kind: 'hash'; hash: bigint }
  | { kind: 'archive'; archive: bigint }
  | { kind: 'tag'; tag: 'proposed' | 'checkpointed' | 'proven' | 'finalized' }
  | { kind: 'anchored'; number: number; hash: bigint };
export type CheckpointRef =
  | { kind: 'number'; number: number }
  | { kind: 'slot'; slot: number }
  | { kind: 'tag'; tag: 'checkpointed' | 'proven' | 'finalized' };
/** Checkpoints by number range, from a slot (either way), or a whole epoch. */
export type CheckpointsQuery =
  | { kind: 'range'; from: number; limit: number }
  | { kind: 'slots'; fromSlot: number; limit: number; reverse: boolean }
  | { kind: 'epoch'; epoch: number };

/**
 * A union whose error says what was expected and, when the input has the JSON type of one of
 * the alternatives, why that alternative refused it (zod alone would say "Invalid input").
 */
function union<const T extends readonly [z.ZodType, z.ZodType, ...z.ZodType[]]>(
  options: T,
  expected: string,
) {
  return z.union(options, {
    error: (issue) => {
      const branches = (issue as { errors?: { code: string; message: string }[][] }).errors ?? [];
      const reasons = branches
        .filter(
          (b) => b.length > 0 && b.every((i) => i.code !== 'invalid_type' && i.code !== 'invalid_value'),
        )
        .map((b) => b.map((i) => i.message).join('; '));
      return reasons.length > 0 ? `expected ${expected}: ${reasons[0]}` : `expected ${expected}`;
    },
  });
}

export const BLOCK_TAGS = ['proposed', 'checkpointed', 'proven', 'finalized'] as const;
export type BlockTag = (typeof BLOCK_TAGS)[number];
export const CHECKPOINT_TAGS = ['checkpointed', 'proven', 'finalized'] as const;
export type CheckpointTag = (typeof CHECKPOINT_TAGS)[number];

/** A block tag; `latest` is not one (getBlockNumber's tip). */
export const blockTagWithoutLatest = z
  .enum(BLOCK_TAGS, { error: `expected one of ${BLOCK_TAGS.join(', ')}` })
  .describe('Chain tip: proposed, checkpointed, proven or finalized');

/** A checkpoint tag; `proposed` is not one. */
export const checkpointTag = z
  .string()
  .refine((t) => t !== 'proposed', 'proposed is not a checkpoint tag: use checkpointed, proven or finalized')
  .pipe(z.enum(CHECKPOINT_TAGS, { error: `expected one of ${CHECKPOINT_TAGS.join(', ')}` }))
  .describe('Checkpoint tip: checkpointed, proven or finalized');

/** What a block parameter names (resolved by the archiver's queries). */
export type BlockParameter = BlockRef;

const AMBIGUOUS =
  'a block parameter object must name exactly one block: {number}, {hash}, {archive} or {tag}, or {number, hash} together';

const blockParameterObject = z
  .object({
    number: uint.optional(),
    hash: blockHash.optional(),
    archive: frHex.optional(),
    tag: blockTagWithoutLatest.optional(),
  })
  .transform((o, ctx): BlockParameter => {
    const named = (['number', 'hash', 'archive', 'tag'] as const).filter((k) => o[k] !== undefined);
    if (named.length === 2 && o.number !== undefined && o.hash !== undefined) {
      return { kind: 'anchored', number: o.number, hash: o.hash };
    }
    if (named.length !== 1) {
      ctx.issues.push({ code: 'custom', message: AMBIGUOUS, input: o });
      return z.NEVER;
    }
    if (o.number !== undefined) return { kind: 'number', number: o.number };
    if (o.hash !== undefined) return { kind: 'hash', hash: o.hash };
    if (o.archive !== undefined) return { kind: 'archive', archive: o.archive };
    return { kind: 'tag', tag: o.tag! };
  });

/**
 * A block: a number, a block hash, `latest` (= proposed) or another tag, or an object
 * {number} | {hash} | {archive} | {tag} | {number, hash}.
 */
export const blockParameter = union(
  [
    uint.transform((number): BlockParameter => ({ kind: 'number', number })),
    z.literal('latest').transform((): BlockParameter => ({ kind: 'tag', tag: 'proposed' })),
    blockTagWithoutLatest.transform((tag): BlockParameter => ({ kind: 'tag', tag })),
    blockHash.transform((hash): BlockParameter => ({ kind: 'hash', hash })),
    blockParameterObject,
  ],
  'a block number, a 0x block hash, latest, proposed, checkpointed, proven, finalized, or an object',
).describe(
  'Block: a number, a block hash (0x…), latest, proposed, checkpointed, proven, finalized, or {number} | {hash} | {archive} | {tag} | {number, hash}',
);

/**
 * The reference block of a state query: every block parameter form (docs/chain.md) — a
 * number, a block hash, `latest` or a tag, or {number} | {hash} | {archive} | {tag} | {number, hash}.
 */
export const referenceBlock = blockParameter.describe(
  'Reference block (whose state is read): a number, a block hash (0x…), latest, proposed, checkpointed, proven, finalized, or {number} | {hash} | {archive} | {tag} | {number, hash}',
);

export type CheckpointParameter = CheckpointRef;

/** A checkpoint: a number, a tag, {number} or {slot}. */
export const checkpointParameter = union(
  [
    uint.transform((number): CheckpointParameter => ({ kind: 'number', number })),
    checkpointTag.transform((tag): CheckpointParameter => ({ kind: 'tag', tag })),
    z
      .object({ number: uint })
      .strict()
      .transform(({ number }): CheckpointParameter => ({ kind: 'number', number })),
    z
      .object({ slot: slotNumber })
      .strict()
      .transform(({ slot }): CheckpointParameter => ({ kind: 'slot', slot })),
  ],
  'a checkpoint number, checkpointed, proven, finalized, {number} or {slot}',
).describe('Checkpoint: a number, checkpointed, proven, finalized, {number} or {slot}');

export const MAX_CHECKPOINTS_DATA = 200;
const dataLimit = z
  .number()
  .int()
  .min(1)
  .max(MAX_CHECKPOINTS_DATA, `at most ${MAX_CHECKPOINTS_DATA} checkpoint-data entries per call`);

/** {from, limit} (from ≥ 1), {fromSlot, limit, reverse?} or {epoch}. */
export const checkpointsQuery = union(
  [
    z
      .object({ from: uint.min(1, 'checkpoint numbers start at 1'), limit: dataLimit })
      .strict()
      .transform((q): CheckpointsQuery => ({ kind: 'range', ...q })),
    z
      .object({ fromSlot: slotNumber, limit: dataLimit, reverse: z.boolean().optional() })
      .strict()
      .transform(
        (q): CheckpointsQuery => ({
          kind: 'slots',
          fromSlot: q.fromSlot,
          limit: q.limit,
          reverse: q.reverse ?? false,
        }),
      ),
    z
      .object({ epoch: uint })
      .strict()
      .transform((q): CheckpointsQuery => ({ kind: 'epoch', epoch: q.epoch })),
  ],
  '{from, limit}, {fromSlot, limit, reverse?} or {epoch}',
).describe('Checkpoints: {from, limit} | {fromSlot, limit, reverse?} | {epoch}');
