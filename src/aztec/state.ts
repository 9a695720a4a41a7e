// The reference API's state methods: leaf indexes, membership witnesses and storage reads at a
// block, answered by the same state queries as cairn's own set, with the reference's witness
// encodings (sibling paths and membership witnesses as base64 of their binary forms).
import { z } from 'zod';
import { REFERENCE_BLOCK_ERRORS } from '../client/methods/errors.js';
import { bigintDec, frHex } from '../core/codecs.js';
import { nullifierWitnessShape, publicDataWitnessShape, type StateQueries } from '../queries/state.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { TREE_HEIGHTS, TreeId } from '../world-state/types.js';
import { membershipWitnessBase64, siblingPathBase64 } from './buffers.js';
import { aztecAddress, blockHash, blockParameter, fr, merkleTreeId } from './params.js';
import { inBlock } from './schemas.js';
import { MAX_RPC_LEN } from './versions.js';

/** What the state methods call. */
export interface AztecStateApiPorts {
  state: Pick<
    StateQueries,
    | 'findLeavesIndexes'
    | 'nullifierMembershipWitness'
    | 'lowNullifierMembershipWitness'
    | 'publicDataWitness'
    | 'noteHashMembershipWitness'
    | 'blockHashMembershipWitness'
    | 'publicStorageAt'
  >;
}

const ref = { name: 'referenceBlock', schema: blockParameter };

const nullifierWitness = z
  .object({
    index: bigintDec,
    leafPreimage: z.object({ leaf: z.object({ nullifier: frHex }), nextKey: frHex, nextIndex: bigintDec }),
    siblingPath: siblingPathBase64,
  })
  .describe('NullifierMembershipWitness: index, leaf preimage and sibling path (base64)');

const publicDataWitness = z
  .object({
    index: bigintDec,
    leafPreimage: z.object({
      leaf: z.object({ slot: frHex, value: frHex }),
      nextKey: frHex,
      nextIndex: bigintDec,
    }),
    siblingPath: siblingPathBase64,
  })
  .describe('PublicDataWitness: index, leaf preimage and sibling path (base64)');

export function aztecStateMethods({ state: q }: AztecStateApiPorts): RpcMethod[] {
  return [
    defineMethod({
      namespace: 'node',
      name: 'findLeavesIndexes',
      summary:
        'Where leaves are in a tree as of a block: per value, its index and the block that inserted it',
      params: [
        ref,
        { name: 'treeId', schema: merkleTreeId },
        {
          name: 'leafValues',
          schema: z.array(fr).max(MAX_RPC_LEN, `at most ${MAX_RPC_LEN} leaves`),
          description: `The leaf values to find, at most ${MAX_RPC_LEN}`,
        },
      ],
      resultName: 'indexes',
      result: z.array(inBlock(bigintDec).optional()),
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (r, tree, values) => q.findLeavesIndexes(r, tree, values),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getNullifierMembershipWitness',
      summary: "A nullifier's membership witness as of a block (none when it is not in the tree)",
      params: [ref, { name: 'nullifier', schema: fr }],
      resultName: 'witness',
      result: nullifierWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (r, nullifier) => {
        const w = q.nullifierMembershipWitness(r, nullifier);
        return w && nullifierWitnessShape(w);
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'getLowNullifierMembershipWitness',
      summary:
        'The witness of the low leaf of a nullifier as of a block: the leaf with the largest key not above it (the nullifier itself when it is in the tree)',
      params: [ref, { name: 'nullifier', schema: fr }],
      resultName: 'witness',
      result: nullifierWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
      // cairn's own set refuses a nullifier already in the tree (its low leaf proves nothing);
      // the reference answers that leaf, whose key equals the nullifier.
      handler: (r, nullifier) =>
        nullifierWitnessShape(
          q.nullifierMembershipWitness(r, nullifier) ?? q.lowNullifierMembershipWitness(r, nullifier),
        ),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getPublicDataWitness',
      summary: 'The public data witness of a leaf slot as of a block (the low leaf when the slot is unset)',
      params: [ref, { name: 'leafSlot', schema: fr }],
      resultName: 'witness',
      result: publicDataWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (r, slot) => publicDataWitnessShape(q.publicDataWitness(r, slot)),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getBlockHashMembershipWitness',
      summary: "A block hash's witness in the archive the reference block's header commits to",
      params: [ref, { name: 'blockHash', schema: blockHash }],
      resultName: 'witness',
      result: membershipWitnessBase64(TREE_HEIGHTS[TreeId.ARCHIVE]).optional(),
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (r, hash) => q.blockHashMembershipWitness(r, hash),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getNoteHashMembershipWitness',
      summary: "A note hash's membership witness as of a block (none when it is not in the tree)",
      params: [ref, { name: 'noteHash', schema: fr }],
      resultName: 'witness',
      result: membershipWitnessBase64(TREE_HEIGHTS[TreeId.NOTE_HASH]).optional(),
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (r, noteHash) => q.noteHashMembershipWitness(r, noteHash),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getPublicStorageAt',
      summary: "A contract's public storage value at a slot as of a block (0 when never written)",
      params: [ref, { name: 'contract', schema: aztecAddress }, { name: 'slot', schema: fr }],
      resultName: 'value',
      result: frHex,
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (r, contract, slot) => q.publicStorageAt(r, contract, slot),
    }),
  ];
}
