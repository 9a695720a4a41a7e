// State query methods of both sets (docs/state-queries.md): leaf indexes, membership witnesses, sibling paths
// and public storage, at a reference block (svc_) or a block number / latest (node_).
import { z } from 'zod';
import { bigintDec, blockHash, frHex, l2Address, uint } from '../core/codecs.js';
import type { BlockRef } from '../queries/chain.js';
import type { IndexedWitnessResult, StateQueries } from '../queries/state.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';
import { TreeId } from '../world-state/types.js';
import { referenceBlock } from './params.js';

/** At most this many leaf values per findLeavesIndexes call. */
export const MAX_LEAF_VALUES = 1000;

const TREE_ID_NAMES = [
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

const leafValues = z
  .array(frHex)
  .max(MAX_LEAF_VALUES, `at most ${MAX_LEAF_VALUES} leaf values per call`)
  .describe(
    `Leaf values (at most ${MAX_LEAF_VALUES}); keys for the indexed trees (nullifiers, public data slots)`,
  );

/** A leaf index: a decimal string (a JSON integer is accepted too). */
const leafIndex = bigintDec.describe('Leaf index: a decimal string');

export const siblingPath = z.array(frHex).describe('Sibling path: leaf level first, one per tree level');

const leafInBlock = z
  .object({ l2BlockNumber: uint, l2BlockHash: blockHash, data: bigintDec })
  .describe('A leaf index with the block that inserted the leaf');

const membershipWitness = z
  .object({ leafIndex: bigintDec, siblingPath })
  .describe('Membership witness: leaf index and sibling path');

const nullifierMembershipWitness = z
  .object({
    index: bigintDec,
    leafPreimage: z.object({ leaf: z.object({ nullifier: frHex }), nextKey: frHex, nextIndex: bigintDec }),
    siblingPath,
  })
  .describe('A nullifier tree leaf (index, preimage) and its sibling path');

const publicDataWitness = z
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

const nullifierShape = (w: IndexedWitnessResult) => ({
  index: w.index,
  leafPreimage: { leaf: { nullifier: w.leaf.key }, nextKey: w.leaf.nextKey, nextIndex: w.leaf.nextIndex },
  siblingPath: w.siblingPath,
});

const publicDataShape = (w: IndexedWitnessResult) => ({
  index: w.index,
  leafPreimage: {
    leaf: { slot: w.leaf.key, value: w.leaf.value },
    nextKey: w.leaf.nextKey,
    nextIndex: w.leaf.nextIndex,
  },
  siblingPath: w.siblingPath,
});

/** The earlier set's block parameter: a number or latest. */
export const blockNumberOrLatest = z
  .union([uint, z.literal('latest')], { error: 'expected a block number or "latest"' })
  .transform(
    (n): BlockRef => (n === 'latest' ? { kind: 'tag', tag: 'proposed' } : { kind: 'number', number: n }),
  )
  .describe('A block number or "latest"');

/** What the state methods call: the state queries' witnesses, leaf indexes and storage reads. */
export interface StateApiPorts {
  state: Pick<
    StateQueries,
    | 'findLeavesIndexes'
    | 'nullifierMembershipWitness'
    | 'lowNullifierMembershipWitness'
    | 'publicDataWitness'
    | 'noteHashMembershipWitness'
    | 'publicStorageAt'
    | 'blockHashMembershipWitness'
    | 'archiveMembershipWitness'
    | 'siblingPath'
  >;
}

/** Where a state query reads: a reference block (svc_), or a block number or latest (node_). */
const svcRef = { name: 'referenceBlock', schema: referenceBlock };
const nodeRef = { name: 'blockNumber', schema: blockNumberOrLatest };

export function stateMethods({ state: q }: StateApiPorts): RpcMethod[] {
  // Each twin is declared with the svc_ reference block; node_ takes a block number or latest in
  // its place, which decodes to the same BlockRef, so the handler is shared.
  const nullifierParam = { name: 'nullifier', schema: frHex };
  const methods: RpcMethod[] = [
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'findLeavesIndexes',
        summary: `For each leaf value (at most ${MAX_LEAF_VALUES}), in input order: its index and inserting block, or null`,
        params: [svcRef, { name: 'treeId', schema: treeId }, { name: 'leafValues', schema: leafValues }],
        resultName: 'leaves',
        result: z.array(leafInBlock.nullable()),
        handler: (r, tree, values) => q.findLeavesIndexes(r, tree, values).map((e) => e ?? null),
      },
      {
        node: {
          params: [nodeRef, { name: 'treeId', schema: treeId }, { name: 'leafValues', schema: leafValues }],
        },
      },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getNullifierMembershipWitness',
        summary: 'The leaf of a nullifier and its sibling path, or null when absent',
        params: [svcRef, nullifierParam],
        resultName: 'witness',
        result: nullifierMembershipWitness.optional(),
        handler: (r, nullifier) => {
          const w = q.nullifierMembershipWitness(r, nullifier);
          return w && nullifierShape(w);
        },
      },
      { node: { params: [nodeRef, nullifierParam] } },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getLowNullifierMembershipWitness',
        summary: 'The low leaf of an absent nullifier (a non-inclusion proof); -32000 when it exists',
        params: [svcRef, nullifierParam],
        resultName: 'witness',
        result: nullifierMembershipWitness.optional(),
        handler: (r, nullifier) => nullifierShape(q.lowNullifierMembershipWitness(r, nullifier)),
      },
      { node: { params: [nodeRef, nullifierParam] } },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getPublicDataWitness',
        summary: 'The leaf of a present leaf slot, or the low leaf of an absent one (its value is then 0)',
        params: [svcRef, { name: 'leafSlot', schema: frHex }],
        resultName: 'witness',
        result: publicDataWitness.optional(),
        handler: (r, slot) => publicDataShape(q.publicDataWitness(r, slot)),
      },
      { node: { params: [nodeRef, { name: 'leafSlot', schema: frHex }] } },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getNoteHashMembershipWitness',
        summary: 'The index and sibling path of a note hash, or null when absent',
        params: [svcRef, { name: 'noteHash', schema: frHex }],
        resultName: 'witness',
        result: membershipWitness.optional(),
        handler: (r, noteHash) => q.noteHashMembershipWitness(r, noteHash),
      },
      { node: { params: [nodeRef, { name: 'noteHash', schema: frHex }] } },
    ),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getPublicStorageAt',
        summary: "A contract's public storage value at a (contract-level) slot; 0 when never written",
        params: [svcRef, { name: 'contract', schema: l2Address }, { name: 'slot', schema: frHex }],
        resultName: 'value',
        result: frHex,
        handler: (r, contract, slot) => q.publicStorageAt(r, contract, slot),
      },
      {
        node: { params: [nodeRef, { name: 'contract', schema: l2Address }, { name: 'slot', schema: frHex }] },
      },
    ),
  ];
  methods.push(
    defineMethod({
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
      handler: (r, hash) => q.blockHashMembershipWitness(r, hash),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getArchiveMembershipWitness',
      summary: "A block hash's witness in the archive tree as of the block given",
      params: [
        { name: 'blockNumber', schema: blockNumberOrLatest },
        { name: 'archive', schema: frHex },
      ],
      resultName: 'witness',
      result: membershipWitness.optional(),
      handler: (r, hash) => q.archiveMembershipWitness(r, hash),
    }),
  );
  const paths: [string, TreeId][] = [
    ['getNullifierSiblingPath', TreeId.NULLIFIER],
    ['getNoteHashSiblingPath', TreeId.NOTE_HASH],
    ['getArchiveSiblingPath', TreeId.ARCHIVE],
    ['getPublicDataSiblingPath', TreeId.PUBLIC_DATA],
  ];
  for (const [name, tree] of paths) {
    methods.push(
      defineMethod({
        namespace: 'node',
        name,
        summary: `The sibling path of a leaf of ${name.slice(3, -11)} tree at a block`,
        params: [
          { name: 'blockNumber', schema: blockNumberOrLatest },
          { name: 'leafIndex', schema: leafIndex },
        ],
        resultName: 'siblingPath',
        result: siblingPath,
        handler: (r, index) => q.siblingPath(r, tree, index),
      }),
    );
  }
  return methods;
}
