// Parameter shapes of the reference's published API (4.1.2), decoded into what cairn's query
// components take. They accept what the reference's own schemas accept for the same params: a
// block as a number (or numeric string), a block hash or `latest`; numbers as numbers, bigints or
// numeric strings.
import { z } from 'zod';
import { blockHash, frHex, l2Address } from '../core/codecs.js';
import type { BlockRef } from '../queries/chain.js';
import { TreeId } from '../world-state/types.js';

/** A number, a bigint or a decimal string, as an integer of at least `min` (the reference's number schemas). */
export const integer = (min: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, 'expected a whole number')])
    .transform((v) => Number(v))
    .pipe(z.number().int().min(min).max(Number.MAX_SAFE_INTEGER));

export const blockNumber = integer(0).describe('Block number');
export const positiveBlockNumber = integer(1).describe('Block number (from 1)');
export const checkpointNumber = integer(1).describe('Checkpoint number (from 1)');
export const epochNumber = integer(0).describe('Epoch number');

/** BlockParameter: a block hash, a block number, or `latest` (the proposed tip). */
export const blockParameter = z
  .union([
    z.literal('latest').transform((): BlockRef => ({ kind: 'tag', tag: 'proposed' })),
    blockNumber.transform((number): BlockRef => ({ kind: 'number', number })),
    blockHash.transform((hash): BlockRef => ({ kind: 'hash', hash })),
  ])
  .describe('Block: a block hash (0x…), a block number, or latest');

export const fr = frHex;
export const aztecAddress = l2Address;
export { blockHash };

/** MerkleTreeId: 0 nullifier, 1 note hash, 2 public data, 3 L1-to-L2 message, 4 archive. */
export const merkleTreeId = z
  .enum(TreeId)
  .describe('Tree: 0 nullifier, 1 note hash, 2 public data, 3 L1-to-L2 messages, 4 archive');
