// The world state's public shapes: tree ids and heights, snapshots, indexed leaves and
// the read interface shared by committed blocks and forks.
import type { Fr } from '../core/field.js';

/** Wire tree ids (docs/state-queries.md); 5 (BLOCKS_TREE) is an alias of ARCHIVE handled by the API. */
export enum TreeId {
  NULLIFIER = 0,
  NOTE_HASH = 1,
  PUBLIC_DATA = 2,
  L1_TO_L2_MESSAGE = 3,
  ARCHIVE = 4,
}

export const TREE_IDS = [
  TreeId.NULLIFIER,
  TreeId.NOTE_HASH,
  TreeId.PUBLIC_DATA,
  TreeId.L1_TO_L2_MESSAGE,
  TreeId.ARCHIVE,
] as const;

export const TREE_NAMES: Record<TreeId, string> = {
  [TreeId.NULLIFIER]: 'NULLIFIER_TREE',
  [TreeId.NOTE_HASH]: 'NOTE_HASH_TREE',
  [TreeId.PUBLIC_DATA]: 'PUBLIC_DATA_TREE',
  [TreeId.L1_TO_L2_MESSAGE]: 'L1_TO_L2_MESSAGE_TREE',
  [TreeId.ARCHIVE]: 'ARCHIVE',
};

/** Heights (docs/world-state.md). */
export const TREE_HEIGHTS: Record<TreeId, number> = {
  [TreeId.NULLIFIER]: 42,
  [TreeId.NOTE_HASH]: 42,
  [TreeId.PUBLIC_DATA]: 40,
  [TreeId.L1_TO_L2_MESSAGE]: 36,
  [TreeId.ARCHIVE]: 30,
};

export type IndexedTreeId = TreeId.NULLIFIER | TreeId.PUBLIC_DATA;
export type AppendOnlyTreeId = TreeId.NOTE_HASH | TreeId.L1_TO_L2_MESSAGE | TreeId.ARCHIVE;

export const isIndexedTree = (tree: TreeId): tree is IndexedTreeId =>
  tree === TreeId.NULLIFIER || tree === TreeId.PUBLIC_DATA;

/** Per-tx maxima that shape how blocks fill the trees (docs/world-state.md). */
export const MAX_NOTE_HASHES_PER_TX = 64;
export const MAX_NULLIFIERS_PER_TX = 64;
export const MAX_PUBLIC_DATA_WRITES_PER_TX = 64;
export const NULLIFIER_SUBTREE_HEIGHT = 6;
/** Genesis prefill sizes of the indexed trees (docs/world-state.md, "Genesis"). */
export const INITIAL_NULLIFIER_TREE_SIZE = 2 * MAX_NULLIFIERS_PER_TX;
export const INITIAL_PUBLIC_DATA_TREE_SIZE = 2 * MAX_PUBLIC_DATA_WRITES_PER_TX;

/** `{root, nextAvailableLeafIndex}` of a tree at some block. */
export interface TreeSnapshot {
  root: Fr;
  nextAvailableLeafIndex: number;
}

/**
 * A leaf of an indexed tree. Nullifier leaves have `value` 0 (their preimage is
 * [key, nextKey, nextIndex]); public-data leaves are [slot = key, value, nextKey, nextIndex].
 */
export interface IndexedLeaf {
  key: Fr;
  value: Fr;
  nextKey: Fr;
  nextIndex: number;
}

/** Where a value sits in a tree and the block that inserted it. */
export interface LeafLocation {
  index: number;
  blockNumber: number;
}

/** The predecessor of a key in an indexed tree: the leaf with the largest key ≤ the one asked. */
export interface LowLeaf {
  index: number;
  leaf: IndexedLeaf;
  /** True when the leaf's key equals the key asked (the key is in the tree). */
  alreadyPresent: boolean;
}

/** A leaf's index and the sibling path that proves it against the tree root. */
export interface MembershipWitness {
  index: number;
  siblingPath: Fr[];
}

/** An indexed-tree leaf with its preimage and sibling path (membership or low-leaf witness). */
export interface IndexedLeafWitness extends MembershipWitness {
  leaf: IndexedLeaf;
}

/** A public-data write: the value of a (derived) leaf slot. */
export interface PublicDataWrite {
  slot: Fr;
  value: Fr;
}

/** Read access to the trees as of one block (committed) or a fork's current state. */
export interface WorldStateReader {
  /** The block these reads see (for a fork: the block it was created on). */
  readonly blockNumber: number;
  snapshot(tree: TreeId): TreeSnapshot;
  /**
   * Siblings from the leaf level up; length = tree height. Any index below 2^height has one (past
   * the last leaf, of empty leaves); an index at or beyond that throws.
   */
  getSiblingPath(tree: TreeId, leafIndex: number): Fr[];
  /** The leaf value of an append-only tree, or the leaf hash of an indexed tree; undefined beyond the tree. */
  getLeafValue(tree: TreeId, leafIndex: number): Fr | undefined;
  getLeafPreimage(tree: IndexedTreeId, leafIndex: number): IndexedLeaf | undefined;
  /** The first index holding `value` (a key, for indexed trees) and the block that inserted it. */
  findLeaf(tree: TreeId, value: Fr): LeafLocation | undefined;
  findLowLeaf(tree: IndexedTreeId, key: Fr): LowLeaf;
  /** The witness of the first leaf holding `value` (a key, for indexed trees), or undefined. */
  getMembershipWitness(tree: TreeId, value: Fr): MembershipWitness | undefined;
  /** The witness of the leaf holding `key` in an indexed tree, with its preimage, or undefined. */
  getIndexedLeafWitness(tree: IndexedTreeId, key: Fr): IndexedLeafWitness | undefined;
  /** The witness of the low leaf of `key` (the leaf with the largest key ≤ it), with its preimage. */
  getLowLeafWitness(tree: IndexedTreeId, key: Fr): IndexedLeafWitness & { alreadyPresent: boolean };
}

/** A mutable view on the latest committed block, for building or simulating the next block. */
export interface WorldStateFork extends WorldStateReader {
  /** Appends leaves to an append-only tree, unpadded. */
  appendLeaves(tree: AppendOnlyTreeId, leaves: readonly Fr[]): void;
  /** Appends one tx's note hashes, padded with zeros to 64 leaves. */
  appendNoteHashes(txNoteHashes: readonly Fr[]): void;
  /**
   * Inserts one tx's nullifiers (at most 64) as one subtree of 64 leaves: nullifier j goes to
   * index start + j; zeros are empty padding leaves. Throws on a duplicate (in the tx or the tree).
   */
  insertNullifiers(txNullifiers: readonly Fr[]): void;
  /** Applies public-data writes in order: an existing slot's leaf is updated, a new slot appended. */
  writePublicData(writes: readonly PublicDataWrite[]): void;
  /**
   * Hashes the pending changes in slices of about `sliceMs`, awaiting `pause()` between them (a
   * large block then does not hold the event loop); reads afterwards need no hashing. The same
   * result as reading. `maxHashes` caps the hashes between two checks of the time.
   */
  hashPendingInSlices(pause: () => Promise<void>, sliceMs?: number, maxHashes?: number): Promise<void>;
}

/** How the world state is created and how much history it keeps. */
export interface WorldStateOptions {
  /** Blocks of history kept readable; 0 keeps all. */
  historyBlocks: number;
  /** Public-data leaves added at genesis after the prefill (e.g. Fee Juice balances). */
  genesisPublicData?: readonly PublicDataWrite[];
  /**
   * The archive leaf of block 0 (the genesis block hash), given the genesis snapshots of the
   * other trees and of the still empty archive.
   */
  genesisBlockHash: (snapshots: Record<TreeId, TreeSnapshot>) => Fr;
}
