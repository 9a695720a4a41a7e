// A view of the five trees as of one committed block, optionally with an in-memory
// overlay of changes on top (a fork). Reads go to the overlay first, then to the store at
// the base block. Changes only record leaves; the dirty nodes above them are hashed once,
// level by level with one batch call per level, when a root or path is next needed.

import { invalidParams } from '../core/errors.js';
import { bytesToFr, FR_MODULUS, type Fr, frToBuffer } from '../core/field.js';
import { hashPairsParallel } from '../core/hash/parallel.js';
import { poseidon2HashBatch, poseidon2HashPairs } from '../core/hash/poseidon2.js';
import { PAGE_BYTES, PAGE_LEVELS, pageOf } from './keys.js';
import {
  type AppendOnlyTreeId,
  type IndexedLeaf,
  type IndexedLeafWitness,
  type IndexedTreeId,
  isIndexedTree,
  type LeafLocation,
  type LowLeaf,
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  type MembershipWitness,
  type PublicDataWrite,
  TREE_HEIGHTS,
  TREE_IDS,
  TreeId,
  type TreeSnapshot,
  type WorldStateFork,
} from './types.js';

/** 2^43: node keys in overlay maps are `level * NODE_KEY_STRIDE + index` (fits 2^53). */
const NODE_KEY_STRIDE = 2 ** 43;
const MAX_HEIGHT = 42;

/** The empty subtree hash of every level: zero leaves, node = poseidon2([left, right]). */
export const ZERO_HASHES: readonly Buffer[] = (() => {
  const zeros = [Buffer.alloc(32)];
  for (let level = 1; level <= MAX_HEIGHT; level++) {
    const below = zeros[level - 1]!;
    zeros.push(Buffer.from(poseidon2HashPairs(Buffer.concat([below, below]))));
  }
  return zeros;
})();

const ZERO_HASHES_FR: readonly Fr[] = ZERO_HASHES.map(bytesToFr);

/** A page of page-level p with every node empty (the zero hash of its level). */
const EMPTY_PAGES: readonly Buffer[] = Array.from(
  { length: Math.floor(MAX_HEIGHT / PAGE_LEVELS) + 1 },
  (_, p) => {
    const page = Buffer.alloc(PAGE_BYTES);
    for (let row = 0; row < PAGE_LEVELS; row++) {
      const level = p * PAGE_LEVELS + row;
      if (level > MAX_HEIGHT) break;
      for (let i = 0; i < 2 ** (PAGE_LEVELS - row); i++)
        page.set(ZERO_HASHES[level]!, pageOf(level, i).offset);
    }
    return page;
  },
);

/** Reads of committed data, as of a block. Implemented by the world state over LMDB. */
export interface CommittedReader {
  /** The newest version of a node page (keys.ts) written at or before `block`. */
  readPage(tree: TreeId, page: number, pageIndex: number, block: number): Buffer | undefined;
  /** The newest preimage of an indexed-tree leaf written at or before `block`. */
  readPreimage(tree: TreeId, index: number, block: number): IndexedLeaf | undefined;
  /** Where a value (a key, in indexed trees) was first inserted, whenever that was. */
  findValue(tree: TreeId, value: Fr): LeafLocation | undefined;
  /** The largest key ≤ `key` inserted at or before `block`, with its leaf index. */
  predecessor(tree: IndexedTreeId, key: Fr, block: number): { key: Fr; index: number } | undefined;
  /** Throws when `block` has left the history window since the view was made. */
  assertReadable(block: number): void;
}

export class DuplicateLeafError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DuplicateLeafError';
  }
}

interface TreeOverlay {
  readonly tree: TreeId;
  readonly height: number;
  readonly indexed: boolean;
  readonly baseSize: number;
  size: number;
  root: Buffer;
  /** Changed nodes, levels 0..height (level 0 = leaf values / leaf hashes). */
  readonly nodes: Map<number, Buffer>;
  /** Leaf indexes whose level-0 value changed since the last hashing pass. */
  dirtyLeaves: number[];
  /** Changed leaf preimages of an indexed tree, and those not yet hashed. */
  readonly preimages: Map<number, IndexedLeaf>;
  readonly unhashedPreimages: Set<number>;
  /** Values (keys) first inserted in this view, with their index. */
  readonly values: Map<Fr, number>;
  /** Keys inserted in this view, ascending (indexed trees). */
  readonly newKeys: Fr[];
  /** Committed pages read so far (null: none stored, all empty). */
  readonly pages: Map<number, Buffer | null>;
  /** Hashing in slices under way (hashPendingInSlices); a read in a pause finishes it first. */
  hashing?: Generator<void> | undefined;
}

function checkFr(value: Fr, what: string): void {
  if (typeof value !== 'bigint' || value < 0n || value >= FR_MODULUS) {
    throw new RangeError(`${what} is not a field element: ${String(value)}`);
  }
}

export function encodePreimage(leaf: IndexedLeaf): Buffer {
  const out = Buffer.allocUnsafe(104);
  out.set(frToBuffer(leaf.key), 0);
  out.set(frToBuffer(leaf.value), 32);
  out.set(frToBuffer(leaf.nextKey), 64);
  out.writeUIntBE(0, 96, 2);
  out.writeUIntBE(leaf.nextIndex, 98, 6);
  return out;
}

export function decodePreimage(bytes: Uint8Array): IndexedLeaf {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    key: bytesToFr(b.subarray(0, 32)),
    value: bytesToFr(b.subarray(32, 64)),
    nextKey: bytesToFr(b.subarray(64, 96)),
    nextIndex: b.readUIntBE(98, 6),
  };
}

/** The fields hashed into an indexed leaf: [key, nextKey, nextIndex] or [slot, value, nextKey, nextIndex]. */
function leafFields(tree: IndexedTreeId, leaf: IndexedLeaf): Fr[] {
  return tree === TreeId.NULLIFIER
    ? [leaf.key, leaf.nextKey, BigInt(leaf.nextIndex)]
    : [leaf.key, leaf.value, leaf.nextKey, BigInt(leaf.nextIndex)];
}

export class View implements WorldStateFork {
  private readonly trees: TreeOverlay[];
  private mutated = false;

  /**
   * @param baseBlock the committed block read beneath the overlay (-1: nothing, for genesis)
   * @param snapshots the trees' snapshots at the base block
   * @param mutable whether the fork methods may be used
   */
  constructor(
    private readonly committed: CommittedReader,
    readonly baseBlock: number,
    snapshots: readonly { root: Buffer; size: number }[],
    readonly mutable: boolean,
  ) {
    this.trees = TREE_IDS.map((tree) => ({
      tree,
      height: TREE_HEIGHTS[tree],
      indexed: isIndexedTree(tree),
      baseSize: snapshots[tree]!.size,
      size: snapshots[tree]!.size,
      root: snapshots[tree]!.root,
      nodes: new Map(),
      dirtyLeaves: [],
      preimages: new Map(),
      unhashedPreimages: new Set(),
      values: new Map(),
      newKeys: [],
      pages: new Map(),
    }));
  }

  get blockNumber(): number {
    return this.baseBlock;
  }

  /** The number the block made from this fork will get. */
  get pendingBlockNumber(): number {
    return this.baseBlock + 1;
  }

  get hasChanges(): boolean {
    return this.mutated;
  }

  // ---- reads -------------------------------------------------------------------------

  snapshot(tree: TreeId): TreeSnapshot {
    const t = this.tree(tree);
    this.hashPending(t);
    return { root: bytesToFr(t.root), nextAvailableLeafIndex: t.size };
  }

  /** The root as bytes, without converting (for commits). */
  rootBytes(tree: TreeId): Buffer {
    const t = this.tree(tree);
    this.hashPending(t);
    return t.root;
  }

  getSiblingPath(tree: TreeId, leafIndex: number): Fr[] {
    const t = this.tree(tree);
    this.checkWithinCapacity(t, leafIndex);
    this.hashPending(t);
    const path: Fr[] = new Array(t.height);
    let index = leafIndex;
    for (let level = 0; level < t.height; level++) {
      const sibling = index % 2 === 0 ? index + 1 : index - 1;
      const node = this.node(t, level, sibling);
      path[level] = node === ZERO_HASHES[level] ? ZERO_HASHES_FR[level]! : bytesToFr(node);
      index = Math.floor(index / 2);
    }
    return path;
  }

  getLeafValue(tree: TreeId, leafIndex: number): Fr | undefined {
    const t = this.tree(tree);
    if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= t.size) return undefined;
    if (t.indexed) this.hashPending(t);
    return bytesToFr(this.node(t, 0, leafIndex));
  }

  getLeafPreimage(tree: IndexedTreeId, leafIndex: number): IndexedLeaf | undefined {
    const t = this.tree(tree);
    if (!t.indexed) throw new TypeError(`tree ${tree} has no leaf preimages`);
    if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= t.size) return undefined;
    return this.preimage(t, leafIndex);
  }

  findLeaf(tree: TreeId, value: Fr): LeafLocation | undefined {
    const t = this.tree(tree);
    return this.locate(t, value);
  }

  findLowLeaf(tree: IndexedTreeId, key: Fr): LowLeaf {
    const t = this.tree(tree);
    if (!t.indexed) throw new TypeError(`tree ${tree} is not an indexed tree`);
    checkFr(key, 'key');
    const low = this.lowLeaf(t, key);
    return { index: low.index, leaf: low.leaf, alreadyPresent: low.leaf.key === key };
  }

  getMembershipWitness(tree: TreeId, value: Fr): MembershipWitness | undefined {
    const location = this.findLeaf(tree, value);
    if (location === undefined) return undefined;
    return { index: location.index, siblingPath: this.getSiblingPath(tree, location.index) };
  }

  getIndexedLeafWitness(tree: IndexedTreeId, key: Fr): IndexedLeafWitness | undefined {
    const location = this.findLeaf(tree, key);
    if (location === undefined) return undefined;
    return {
      index: location.index,
      leaf: this.getLeafPreimage(tree, location.index)!,
      siblingPath: this.getSiblingPath(tree, location.index),
    };
  }

  getLowLeafWitness(tree: IndexedTreeId, key: Fr): IndexedLeafWitness & { alreadyPresent: boolean } {
    const low = this.findLowLeaf(tree, key);
    return { ...low, siblingPath: this.getSiblingPath(tree, low.index) };
  }

  // ---- changes -----------------------------------------------------------------------

  appendLeaves(tree: AppendOnlyTreeId, leaves: readonly Fr[]): void {
    const t = this.tree(tree);
    this.checkMutable();
    if (t.indexed) throw new TypeError(`tree ${tree} is indexed; use insertNullifiers or writePublicData`);
    for (const leaf of leaves) checkFr(leaf, 'leaf');
    this.checkCapacity(t, leaves.length);
    for (const leaf of leaves) {
      const index = t.size++;
      if (leaf === 0n) continue;
      t.nodes.set(index, frToBuffer(leaf));
      t.dirtyLeaves.push(index);
      if (this.locate(t, leaf) === undefined) t.values.set(leaf, index);
    }
    this.mutated = true;
  }

  appendNoteHashes(txNoteHashes: readonly Fr[]): void {
    if (txNoteHashes.length > MAX_NOTE_HASHES_PER_TX) {
      throw new RangeError(
        `a tx has at most ${MAX_NOTE_HASHES_PER_TX} note hashes, got ${txNoteHashes.length}`,
      );
    }
    const padded = [...txNoteHashes];
    while (padded.length < MAX_NOTE_HASHES_PER_TX) padded.push(0n);
    this.appendLeaves(TreeId.NOTE_HASH, padded);
  }

  insertNullifiers(txNullifiers: readonly Fr[]): void {
    const t = this.tree(TreeId.NULLIFIER);
    this.checkMutable();
    if (txNullifiers.length > MAX_NULLIFIERS_PER_TX) {
      throw new RangeError(
        `a tx has at most ${MAX_NULLIFIERS_PER_TX} nullifiers, got ${txNullifiers.length}`,
      );
    }
    const seen = new Set<Fr>();
    for (const nullifier of txNullifiers) {
      checkFr(nullifier, 'nullifier');
      if (nullifier === 0n) continue;
      if (seen.has(nullifier)) throw new DuplicateLeafError(`duplicate nullifier in tx: ${nullifier}`);
      if (this.locate(t, nullifier) !== undefined)
        throw new DuplicateLeafError(`existing nullifier: ${nullifier}`);
      seen.add(nullifier);
    }
    this.checkCapacity(t, MAX_NULLIFIERS_PER_TX);
    const start = t.size;
    t.size += MAX_NULLIFIERS_PER_TX;
    txNullifiers.forEach((nullifier, j) => {
      if (nullifier !== 0n) this.link(t, nullifier, 0n, start + j);
    });
    this.mutated = true;
  }

  writePublicData(writes: readonly PublicDataWrite[]): void {
    const t = this.tree(TreeId.PUBLIC_DATA);
    this.checkMutable();
    for (const w of writes) {
      checkFr(w.slot, 'slot');
      checkFr(w.value, 'value');
    }
    for (const { slot, value } of writes) {
      const at = this.locate(t, slot);
      if (at !== undefined) {
        this.setPreimage(t, at.index, { ...this.preimage(t, at.index)!, value });
      } else {
        this.checkCapacity(t, 1);
        this.link(t, slot, value, t.size++);
      }
    }
    this.mutated = true;
  }

  /** Fills an indexed tree with `count` linked leaves of keys 0..count-1 (genesis). */
  prefillIndexed(tree: IndexedTreeId, count: number): void {
    const t = this.tree(tree);
    this.checkMutable();
    if (t.size !== 0) throw new Error('prefill needs an empty tree');
    for (let i = 0; i < count; i++) {
      const last = i === count - 1;
      this.setPreimage(t, i, {
        key: BigInt(i),
        value: 0n,
        nextKey: last ? 0n : BigInt(i + 1),
        nextIndex: last ? 0 : i + 1,
      });
      this.addKey(t, BigInt(i), i);
    }
    t.size = count;
    this.mutated = true;
  }

  // ---- what a commit writes ------------------------------------------------------------

  /**
   * Every changed node page, preimage and new value of every tree, after hashing. A page
   * whose nodes are all empty is left out: an absent page reads as empty.
   */
  changes(): {
    tree: TreeId;
    pages: { page: number; pageIndex: number; bytes: Buffer }[];
    preimages: Map<number, IndexedLeaf>;
    values: Map<Fr, number>;
  }[] {
    return this.trees.map((t) => {
      this.hashPending(t);
      const pages = new Map<number, { page: number; pageIndex: number; bytes: Buffer }>();
      for (const [key, value] of t.nodes) {
        const level = Math.floor(key / NODE_KEY_STRIDE);
        const { page, pageIndex, offset } = pageOf(level, key - level * NODE_KEY_STRIDE);
        const pageKey = page * NODE_KEY_STRIDE + pageIndex;
        let entry = pages.get(pageKey);
        if (entry === undefined) {
          const base = this.basePage(t, page, pageIndex);
          entry = { page, pageIndex, bytes: Buffer.from(base ?? EMPTY_PAGES[page]!) };
          pages.set(pageKey, entry);
        }
        entry.bytes.set(value, offset);
      }
      return {
        tree: t.tree,
        pages: [...pages.values()].filter((p) => !p.bytes.equals(EMPTY_PAGES[p.page]!)),
        preimages: t.preimages,
        values: t.values,
      };
    });
  }

  sizes(): number[] {
    return this.trees.map((t) => t.size);
  }

  // ---- internals -----------------------------------------------------------------------

  private tree(tree: TreeId): TreeOverlay {
    const t = this.trees[tree];
    if (t === undefined) throw new RangeError(`unknown tree id ${String(tree)}`);
    if (this.baseBlock >= 0) this.committed.assertReadable(this.baseBlock);
    return t;
  }

  private checkMutable(): void {
    if (!this.mutable) throw new Error('this view of a committed block is read-only; use a fork');
  }

  /**
   * A leaf position of the tree: any index below 2^height. Past the last leaf the leaves are empty,
   * so a path there is made of the nodes the leaves fill and empty subtree hashes.
   */
  private checkWithinCapacity(t: TreeOverlay, leafIndex: number): void {
    if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= 2 ** t.height) {
      throw invalidParams(
        `leaf index ${leafIndex} is beyond the tree: tree ${t.tree} has room for 2^${t.height} leaves`,
      );
    }
  }

  private checkCapacity(t: TreeOverlay, count: number): void {
    if (t.size + count > 2 ** t.height) throw new RangeError(`tree ${t.tree} is full`);
  }

  private node(t: TreeOverlay, level: number, index: number): Buffer {
    const changed = t.nodes.get(level * NODE_KEY_STRIDE + index);
    if (changed !== undefined) return changed;
    if (level === t.height && t.unhashedPreimages.size === 0 && t.dirtyLeaves.length === 0) return t.root;
    // Leaves are filled left to right, so a subtree starting at or beyond the base size is empty.
    if (index * 2 ** level >= t.baseSize) return ZERO_HASHES[level]!;
    const { page, pageIndex, offset } = pageOf(level, index);
    const bytes = this.basePage(t, page, pageIndex);
    return bytes === undefined ? ZERO_HASHES[level]! : bytes.subarray(offset, offset + 32);
  }

  /** A committed node page at the base block, read once per view. */
  private basePage(t: TreeOverlay, page: number, pageIndex: number): Buffer | undefined {
    if (this.baseBlock < 0) return undefined;
    const key = page * NODE_KEY_STRIDE + pageIndex;
    let bytes = t.pages.get(key);
    if (bytes === undefined) {
      bytes = this.committed.readPage(t.tree, page, pageIndex, this.baseBlock) ?? null;
      t.pages.set(key, bytes);
    }
    return bytes ?? undefined;
  }

  private preimage(t: TreeOverlay, index: number): IndexedLeaf | undefined {
    const changed = t.preimages.get(index);
    if (changed !== undefined) return changed;
    if (index >= t.baseSize) return undefined;
    return this.committed.readPreimage(t.tree, index, this.baseBlock);
  }

  private locate(t: TreeOverlay, value: Fr): LeafLocation | undefined {
    if (!t.indexed && value === 0n) return undefined;
    const committed = this.baseBlock >= 0 ? this.committed.findValue(t.tree, value) : undefined;
    if (committed !== undefined && committed.blockNumber <= this.baseBlock) return committed;
    const index = t.values.get(value);
    return index === undefined ? undefined : { index, blockNumber: this.pendingBlockNumber };
  }

  private lowLeaf(t: TreeOverlay, key: Fr): { index: number; leaf: IndexedLeaf } {
    let best: { key: Fr; index: number } | undefined =
      this.baseBlock >= 0
        ? this.committed.predecessor(t.tree as IndexedTreeId, key, this.baseBlock)
        : undefined;
    // The largest key ≤ key among those inserted in this view.
    let lo = 0;
    let hi = t.newKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t.newKeys[mid]! <= key) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) {
      const candidate = t.newKeys[lo - 1]!;
      if (best === undefined || candidate > best.key)
        best = { key: candidate, index: t.values.get(candidate)! };
    }
    if (best === undefined) throw new Error(`tree ${t.tree} has no leaf with a key ≤ ${key}`);
    return { index: best.index, leaf: this.preimage(t, best.index)! };
  }

  /** Inserts a new key at `index`, linking it after its low leaf. */
  private link(t: TreeOverlay, key: Fr, value: Fr, index: number): void {
    const low = this.lowLeaf(t, key);
    this.setPreimage(t, index, { key, value, nextKey: low.leaf.nextKey, nextIndex: low.leaf.nextIndex });
    this.setPreimage(t, low.index, { ...low.leaf, nextKey: key, nextIndex: index });
    this.addKey(t, key, index);
  }

  private addKey(t: TreeOverlay, key: Fr, index: number): void {
    t.values.set(key, index);
    let lo = 0;
    let hi = t.newKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t.newKeys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    t.newKeys.splice(lo, 0, key);
  }

  private setPreimage(t: TreeOverlay, index: number, leaf: IndexedLeaf): void {
    t.preimages.set(index, leaf);
    t.unhashedPreimages.add(index);
  }

  /** Hashes changed leaves of an indexed tree, then every dirty node up to the root, once each. */
  private hashPending(t: TreeOverlay): void {
    if (t.hashing !== undefined) for (const _ of t.hashing);
    t.hashing = undefined;
    for (const _ of this.hashSteps(t, Number.POSITIVE_INFINITY));
  }

  /**
   * Hashes every tree's pending changes in slices, awaiting `pause()` whenever a slice has taken
   * `sliceMs` or more, so that a large block does not hold the event loop for the whole of its
   * hashing (tens to hundreds of milliseconds); snapshots afterwards are cheap. The result is the
   * same as hashing at once. A slice ends at every tree level and every `maxHashes` hashes.
   */
  async hashPendingInSlices(pause: () => Promise<void>, sliceMs = 8, maxHashes = 1024): Promise<void> {
    let sliceStart = performance.now();
    for (const t of this.trees) {
      t.hashing = this.hashSteps(t, maxHashes);
      for (const _ of t.hashing) {
        if (performance.now() - sliceStart < sliceMs) continue;
        await pause();
        sliceStart = performance.now();
      }
      t.hashing = undefined;
    }
  }

  /** hashPending's work, stopping (yielding) after each level and each `maxHashes` hashes. */
  private *hashSteps(t: TreeOverlay, maxHashes: number): Generator<void> {
    if (t.unhashedPreimages.size > 0) {
      const width = t.tree === TreeId.NULLIFIER ? 3 : 4;
      const all = [...t.unhashedPreimages];
      for (let from = 0; from < all.length; from += maxHashes) {
        const indexes = all.slice(from, from + maxHashes);
        const input = Buffer.allocUnsafe(indexes.length * width * 32);
        indexes.forEach((index, i) => {
          leafFields(t.tree as IndexedTreeId, t.preimages.get(index)!).forEach((field, f) => {
            input.set(frToBuffer(field), (i * width + f) * 32);
          });
        });
        const hashes = Buffer.allocUnsafe(indexes.length * 32);
        poseidon2HashBatch(input, width, hashes);
        indexes.forEach((index, i) => {
          t.nodes.set(index, hashes.subarray(i * 32, i * 32 + 32));
          t.dirtyLeaves.push(index);
          t.unhashedPreimages.delete(index);
        });
        yield;
      }
    }
    if (t.dirtyLeaves.length === 0) return;
    let dirty = [...new Set(t.dirtyLeaves)].sort((a, b) => a - b);
    t.dirtyLeaves = [];
    for (let level = 0; level < t.height; level++) {
      const parents: number[] = [];
      for (const index of dirty) {
        const parent = Math.floor(index / 2);
        if (parents[parents.length - 1] !== parent) parents.push(parent);
      }
      const base = (level + 1) * NODE_KEY_STRIDE;
      for (let from = 0; from < parents.length; from += maxHashes) {
        const slice = parents.slice(from, from + maxHashes);
        const input = Buffer.allocUnsafe(slice.length * 64);
        slice.forEach((parent, i) => {
          input.set(this.node(t, level, 2 * parent), i * 64);
          input.set(this.node(t, level, 2 * parent + 1), i * 64 + 32);
        });
        const hashes = Buffer.allocUnsafe(slice.length * 32);
        hashPairsParallel(input, hashes);
        slice.forEach((parent, i) => {
          t.nodes.set(base + parent, hashes.subarray(i * 32, i * 32 + 32));
        });
        yield;
      }
      dirty = parents;
    }
    t.root = t.nodes.get(t.height * NODE_KEY_STRIDE)!;
  }
}
