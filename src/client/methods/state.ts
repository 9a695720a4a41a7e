// The state methods as declared, without their handlers (src/api/state.ts adds them).
// State query methods of both sets (docs/state-queries.md): leaf indexes, membership witnesses, sibling paths
// and public storage, at a reference block (svc_) or a block number / latest (node_).
import { z } from 'zod';
import { bigintDec, blockHash, frHex, l2Address, uint } from '../../core/codecs.js';
import { TreeId } from '../../world-state/types.js';
import { method, twins } from './declare.js';
import {
  BLOCK_NUMBER_ERRORS,
  LEAF_INDEX_BEYOND_TREE,
  NULLIFIER_PRESENT,
  REFERENCE_BLOCK_ERRORS,
} from './errors.js';
import type { BlockRef } from './params.js';
import { referenceBlock } from './params.js';

/** At most this many leaf values per findLeavesIndexes call. */
export const MAX_LEAF_VALUES = 1000;

export const TREE_ID_NAMES = [
  '0 NULLIFIER_TREE',
  '1 NOTE_HASH_TREE',
  '2 PUBLIC_DATA_TREE',
  '3 L1_TO_L2_MESSAGE_TREE',
  '4 ARCHIVE',
  '5 BLOCKS_TREE (the archive)',
];

/** A tree id, 0..5; 5 (BLOCKS_TREE, the earlier name) reads the archive. */
export const treeId = z
  .number({ error: `expected a tree id: ${TREE_ID_NAMES.join(', ')}` })
  .int({ error: `expected a tree id: ${TREE_ID_NAMES.join(', ')}` })
  .refine((id) => id >= 0 && id <= 5, { error: `unknown tree id: valid ids are ${TREE_ID_NAMES.join(', ')}` })
  .transform((id): TreeId => (id === 5 ? TreeId.ARCHIVE : (id as TreeId)))
  .describe(`Tree id: ${TREE_ID_NAMES.join(', ')}`);

export const leafValues = z
  .array(frHex)
  .max(MAX_LEAF_VALUES, `at most ${MAX_LEAF_VALUES} leaf values per call`)
  .describe(
    `Leaf values (at most ${MAX_LEAF_VALUES}); keys for the indexed trees (nullifiers, public data slots)`,
  );

/** A leaf index: a decimal string (a JSON integer is accepted too). */
export const leafIndex = bigintDec.describe('Leaf index: a decimal string');

export const siblingPath = z.array(frHex).describe('Sibling path: leaf level first, one per tree level');

export const leafInBlock = z
  .object({ l2BlockNumber: uint, l2BlockHash: blockHash, data: bigintDec })
  .describe('A leaf index with the block that inserted the leaf');

export const membershipWitness = z
  .object({ leafIndex: bigintDec, siblingPath })
  .describe('Membership witness: leaf index and sibling path');

export const nullifierMembershipWitness = z
  .object({
    index: bigintDec,
    leafPreimage: z.object({ leaf: z.object({ nullifier: frHex }), nextKey: frHex, nextIndex: bigintDec }),
    siblingPath,
  })
  .describe('A nullifier tree leaf (index, preimage) and its sibling path');

export const publicDataWitness = z
  .object({
    index: bigintDec,
    leafPreimage: z.object({
      leaf: z.object({ slot: frHex, value: frHex }),
      nextKey: frHex,
      nextIndex: bigintDec,
    }),
    siblingPath,
  })
  .describe('A public data tree leaf (index, preimage) and its sibling path');

/** The earlier set's block parameter: a number or latest. */
export const blockNumberOrLatest = z
  .union([uint, z.literal('latest')], { error: 'expected a block number or "latest"' })
  .transform(
    (n): BlockRef => (n === 'latest' ? { kind: 'tag', tag: 'proposed' } : { kind: 'number', number: n }),
  )
  .describe('A block number or "latest"');

/** Where a state query reads: a reference block (svc_), or a block number or latest (node_). */
export const svcRef = { name: 'referenceBlock', schema: referenceBlock };
export const nodeRef = { name: 'blockNumber', schema: blockNumberOrLatest };

const nullifierParam = { name: 'nullifier', schema: frHex };

/** The earlier set's sibling path of a leaf of one tree at a block. */
const siblingPathMethod = <const N extends string>(name: N) =>
  method({
    namespace: 'node',
    name,
    summary: `The sibling path of a leaf of ${name.slice(3, -11)} tree at a block`,
    params: [
      { name: 'blockNumber', schema: blockNumberOrLatest },
      { name: 'leafIndex', schema: leafIndex },
    ],
    resultName: 'siblingPath',
    result: siblingPath,
    errors: [...BLOCK_NUMBER_ERRORS, LEAF_INDEX_BEYOND_TREE],
  });

export const stateDeclarations = {
  findLeavesIndexes: twins(
    ['svc', 'node'],
    {
      name: 'findLeavesIndexes',
      summary: `For each leaf value (at most ${MAX_LEAF_VALUES}), in input order: its index and inserting block, or null`,
      params: [svcRef, { name: 'treeId', schema: treeId }, { name: 'leafValues', schema: leafValues }],
      resultName: 'leaves',
      result: z.array(leafInBlock.nullable()),
      errors: REFERENCE_BLOCK_ERRORS,
    },
    {
      node: {
        errors: BLOCK_NUMBER_ERRORS,
        params: [nodeRef, { name: 'treeId', schema: treeId }, { name: 'leafValues', schema: leafValues }],
      },
    },
  ),
  getNullifierMembershipWitness: twins(
    ['svc', 'node'],
    {
      name: 'getNullifierMembershipWitness',
      summary: 'The leaf of a nullifier and its sibling path, or null when absent',
      params: [svcRef, nullifierParam],
      resultName: 'witness',
      result: nullifierMembershipWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
    },
    {
      node: {
        errors: BLOCK_NUMBER_ERRORS,
        params: [nodeRef, nullifierParam],
      },
    },
  ),
  getLowNullifierMembershipWitness: twins(
    ['svc', 'node'],
    {
      name: 'getLowNullifierMembershipWitness',
      summary: 'The low leaf of an absent nullifier (a non-inclusion proof); -32000 when it exists',
      params: [svcRef, nullifierParam],
      resultName: 'witness',
      result: nullifierMembershipWitness.optional(),
      errors: [...REFERENCE_BLOCK_ERRORS, NULLIFIER_PRESENT],
    },
    {
      node: {
        errors: [...BLOCK_NUMBER_ERRORS, NULLIFIER_PRESENT],
        params: [nodeRef, nullifierParam],
      },
    },
  ),
  getPublicDataWitness: twins(
    ['svc', 'node'],
    {
      name: 'getPublicDataWitness',
      summary: 'The leaf of a present leaf slot, or the low leaf of an absent one (its value is then 0)',
      params: [svcRef, { name: 'leafSlot', schema: frHex }],
      resultName: 'witness',
      result: publicDataWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
    },
    {
      node: {
        errors: BLOCK_NUMBER_ERRORS,
        params: [nodeRef, { name: 'leafSlot', schema: frHex }],
      },
    },
  ),
  getNoteHashMembershipWitness: twins(
    ['svc', 'node'],
    {
      name: 'getNoteHashMembershipWitness',
      summary: 'The index and sibling path of a note hash, or null when absent',
      params: [svcRef, { name: 'noteHash', schema: frHex }],
      resultName: 'witness',
      result: membershipWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
    },
    {
      node: {
        errors: BLOCK_NUMBER_ERRORS,
        params: [nodeRef, { name: 'noteHash', schema: frHex }],
      },
    },
  ),
  getPublicStorageAt: twins(
    ['svc', 'node'],
    {
      name: 'getPublicStorageAt',
      summary: "A contract's public storage value at a (contract-level) slot; 0 when never written",
      params: [svcRef, { name: 'contract', schema: l2Address }, { name: 'slot', schema: frHex }],
      resultName: 'value',
      result: frHex,
      errors: REFERENCE_BLOCK_ERRORS,
    },
    {
      node: {
        errors: BLOCK_NUMBER_ERRORS,
        params: [nodeRef, { name: 'contract', schema: l2Address }, { name: 'slot', schema: frHex }],
      },
    },
  ),
  svc_getBlockHashMembershipWitness: method({
    namespace: 'svc',
    name: 'getBlockHashMembershipWitness',
    summary:
      "A block hash's witness in the archive the reference block's header commits to (its last archive)",
    params: [
      { name: 'referenceBlock', schema: referenceBlock },
      { name: 'blockHash', schema: blockHash },
    ],
    resultName: 'witness',
    result: membershipWitness.optional(),
    errors: REFERENCE_BLOCK_ERRORS,
  }),
  node_getArchiveMembershipWitness: method({
    namespace: 'node',
    name: 'getArchiveMembershipWitness',
    summary: "A block hash's witness in the archive tree as of the block given",
    params: [
      { name: 'blockNumber', schema: blockNumberOrLatest },
      { name: 'archive', schema: frHex },
    ],
    resultName: 'witness',
    result: membershipWitness.optional(),
    errors: BLOCK_NUMBER_ERRORS,
  }),
  node_getNullifierSiblingPath: siblingPathMethod('getNullifierSiblingPath'),
  node_getNoteHashSiblingPath: siblingPathMethod('getNoteHashSiblingPath'),
  node_getArchiveSiblingPath: siblingPathMethod('getArchiveSiblingPath'),
  node_getPublicDataSiblingPath: siblingPathMethod('getPublicDataSiblingPath'),
} as const;
