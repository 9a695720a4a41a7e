// A small, deliberately naive in-memory model of the world state, used as the oracle in
// the property and crash tests. Every tree is a plain array of leaves; every block keeps a
// full copy of all five trees. Nothing here is clever: hashes are recomputed recursively
// from the leaves (with a per-tree memo that is simply thrown away on any mutation). Poseidon2
// itself is memoized by its inputs (`memoHash` below): a pure function, so a remembered output is the
// output, and the model's recomputation of unchanged subtrees, and the tests' folds of paths onto
// roots, cost a map lookup instead of a hash.
import type { Fr } from '../../src/core/field.js';
import { poseidon2Hash } from '../../src/core/hash/poseidon2.js';
import {
  type AppendOnlyTreeId,
  INITIAL_NULLIFIER_TREE_SIZE,
  INITIAL_PUBLIC_DATA_TREE_SIZE,
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
  type WorldStateOptions,
  type WorldStateReader,
} from '../../src/world-state/types.js';

/** A trie over the inputs of the Poseidon2 calls made so far: each level keys one input. */
interface HashMemo {
  next: Map<Fr, HashMemo>;
  output?: Fr;
}
let hashMemo: HashMemo = { next: new Map() };
let memoSize = 0;
/** Bounds the memo's memory: past this many outputs it starts afresh. */
const MEMO_LIMIT = 1_000_000;

/** poseidon2Hash(inputs), remembered by the inputs (of a given length, in order). */
export function memoHash(inputs: readonly Fr[]): Fr {
  if (memoSize >= MEMO_LIMIT) {
    hashMemo = { next: new Map() };
    memoSize = 0;
  }
  let node: HashMemo | undefined = hashMemo.next.get(BigInt(inputs.length));
  if (node === undefined) {
    node = { next: new Map() };
    hashMemo.next.set(BigInt(inputs.length), node);
  }
  for (const input of inputs) {
    let child: HashMemo | undefined = node.next.get(input);
    if (child === undefined) {
      child = { next: new Map() };
      node.next.set(input, child);
    }
    node = child;
  }
  if (node.output === undefined) {
    node.output = poseidon2Hash(inputs);
    memoSize++;
  }
  return node.output;
}

/** zero[l] = root of an empty subtree of height l: zero[0] = 0, zero[l+1] = H(zero[l], zero[l]). */
export const ZERO_HASHES: readonly Fr[] = (() => {
  const maxHeight = Math.max(...TREE_IDS.map((t) => TREE_HEIGHTS[t]));
  const zero: Fr[] = [0n];
  for (let l = 0; l < maxHeight; l++) zero.push(memoHash([zero[l]!, zero[l]!]));
  return zero;
})();

export function zeroHash(level: number): Fr {
  const z = ZERO_HASHES[level];
  if (z === undefined) throw new Error(`no zero hash for level ${level}`);
  return z;
}

const isEmptyLeaf = (leaf: IndexedLeaf): boolean =>
  leaf.key === 0n && leaf.value === 0n && leaf.nextKey === 0n && leaf.nextIndex === 0;

/** The hash of an indexed leaf's preimage; an empty (absent or all-zero) leaf hashes to 0. */
export function indexedLeafHash(tree: IndexedTreeId, leaf: IndexedLeaf | undefined): Fr {
  if (leaf === undefined || isEmptyLeaf(leaf)) return 0n;
  if (tree === TreeId.NULLIFIER) return memoHash([leaf.key, leaf.nextKey, BigInt(leaf.nextIndex)]);
  return memoHash([leaf.key, leaf.value, leaf.nextKey, BigInt(leaf.nextIndex)]);
}

const copyLeaf = (leaf: IndexedLeaf): IndexedLeaf => ({ ...leaf });

/** One tree: `size` leaf slots; for append-only trees `values[i]`, for indexed trees `preimages[i]`. */
export class ModelTree {
  readonly id: TreeId;
  readonly height: number;
  size = 0;
  /** Append-only trees: the leaf values (length = size). */
  values: Fr[] = [];
  /** Indexed trees: the leaf preimages (length = size), undefined for an empty padding leaf. */
  preimages: (IndexedLeaf | undefined)[] = [];
  /** The block that inserted leaf i (for indexed trees: the block that first inserted its key). */
  insertedAt: number[] = [];
  /** Memo of node hashes keyed "level:index"; cleared on every mutation. */
  private memo = new Map<string, Fr>();

  constructor(id: TreeId) {
    this.id = id;
    this.height = TREE_HEIGHTS[id];
  }

  clone(): ModelTree {
    const copy = new ModelTree(this.id);
    copy.size = this.size;
    copy.values = [...this.values];
    copy.preimages = this.preimages.map((p) => (p === undefined ? undefined : copyLeaf(p)));
    copy.insertedAt = [...this.insertedAt];
    return copy;
  }

  /** Call after any change to the leaves. */
  touched(): void {
    this.memo.clear();
  }

  leafHash(index: number): Fr {
    if (index >= this.size) return 0n;
    if (isIndexedTree(this.id)) return indexedLeafHash(this.id, this.preimages[index]);
    return this.values[index]!;
  }

  /** The hash of the node at `level` (0 = leaves) and position `index` within that level. */
  node(level: number, index: number): Fr {
    if (index * 2 ** level >= this.size) return zeroHash(level);
    if (level === 0) return this.leafHash(index);
    const key = `${level}:${index}`;
    const cached = this.memo.get(key);
    if (cached !== undefined) return cached;
    const hash = memoHash([this.node(level - 1, 2 * index), this.node(level - 1, 2 * index + 1)]);
    this.memo.set(key, hash);
    return hash;
  }

  root(): Fr {
    return this.node(this.height, 0);
  }

  snapshot(): TreeSnapshot {
    return { root: this.root(), nextAvailableLeafIndex: this.size };
  }

  /** Any leaf position of the tree has a path, past the last leaf too (its siblings are then empty). */
  siblingPath(leafIndex: number): Fr[] {
    if (!Number.isInteger(leafIndex) || leafIndex < 0 || leafIndex >= 2 ** this.height) {
      throw new Error(`leaf index ${leafIndex} is beyond the tree (height ${this.height})`);
    }
    const path: Fr[] = [];
    let index = leafIndex;
    for (let level = 0; level < this.height; level++) {
      const sibling = index % 2 === 0 ? index + 1 : index - 1;
      path.push(this.node(level, sibling));
      index = Math.floor(index / 2);
    }
    return path;
  }

  /** Index of the leaf holding `key` (indexed trees), or -1. */
  indexOfKey(key: Fr): number {
    return this.preimages.findIndex((p) => p !== undefined && p.key === key);
  }

  /** Index of the leaf with the largest key ≤ `key` (indexed trees). */
  lowLeafIndex(key: Fr): number {
    let best = -1;
    for (let i = 0; i < this.preimages.length; i++) {
      const p = this.preimages[i];
      if (p === undefined || p.key > key) continue;
      if (best === -1 || p.key > this.preimages[best]!.key) best = i;
    }
    if (best === -1) throw new Error(`no low leaf for key ${key}`);
    return best;
  }

  /** Appends one leaf slot. */
  pushAppendOnly(value: Fr, block: number): void {
    this.values.push(value);
    this.insertedAt.push(block);
    this.size++;
    this.touched();
  }

  /** Appends one indexed leaf slot (undefined = empty padding leaf). */
  pushIndexed(leaf: IndexedLeaf | undefined, block: number): void {
    this.preimages.push(leaf);
    this.insertedAt.push(block);
    this.size++;
    this.touched();
  }

  /**
   * Links a new key into the sorted list: the leaf at `newIndex` (already present) takes over
   * the low leaf's next pointer, and the low leaf now points to it.
   */
  linkNewLeaf(newIndex: number): void {
    const leaf = this.preimages[newIndex]!;
    const lowIndex = this.lowLeafIndexExcluding(leaf.key, newIndex);
    const low = this.preimages[lowIndex]!;
    leaf.nextKey = low.nextKey;
    leaf.nextIndex = low.nextIndex;
    low.nextKey = leaf.key;
    low.nextIndex = newIndex;
    this.touched();
  }

  private lowLeafIndexExcluding(key: Fr, excluded: number): number {
    let best = -1;
    for (let i = 0; i < this.preimages.length; i++) {
      const p = this.preimages[i];
      if (i === excluded || p === undefined || p.key >= key) continue;
      if (best === -1 || p.key > this.preimages[best]!.key) best = i;
    }
    if (best === -1) throw new Error(`no low leaf for key ${key}`);
    return best;
  }
}

export type ModelState = Record<TreeId, ModelTree>;

function cloneState(state: ModelState): ModelState {
  return {
    [TreeId.NULLIFIER]: state[TreeId.NULLIFIER].clone(),
    [TreeId.NOTE_HASH]: state[TreeId.NOTE_HASH].clone(),
    [TreeId.PUBLIC_DATA]: state[TreeId.PUBLIC_DATA].clone(),
    [TreeId.L1_TO_L2_MESSAGE]: state[TreeId.L1_TO_L2_MESSAGE].clone(),
    [TreeId.ARCHIVE]: state[TreeId.ARCHIVE].clone(),
  };
}

function emptyState(): ModelState {
  return {
    [TreeId.NULLIFIER]: new ModelTree(TreeId.NULLIFIER),
    [TreeId.NOTE_HASH]: new ModelTree(TreeId.NOTE_HASH),
    [TreeId.PUBLIC_DATA]: new ModelTree(TreeId.PUBLIC_DATA),
    [TreeId.L1_TO_L2_MESSAGE]: new ModelTree(TreeId.L1_TO_L2_MESSAGE),
    [TreeId.ARCHIVE]: new ModelTree(TreeId.ARCHIVE),
  };
}

/** Reads on one state. `blockNumber` is the block read (for a fork, the block it was made on). */
export class ModelReader implements WorldStateReader {
  readonly blockNumber: number;
  protected readonly state: ModelState;

  constructor(state: ModelState, blockNumber: number) {
    this.state = state;
    this.blockNumber = blockNumber;
  }

  snapshot(tree: TreeId): TreeSnapshot {
    return this.state[tree].snapshot();
  }

  getSiblingPath(tree: TreeId, leafIndex: number): Fr[] {
    return this.state[tree].siblingPath(leafIndex);
  }

  getLeafValue(tree: TreeId, leafIndex: number): Fr | undefined {
    const t = this.state[tree];
    if (leafIndex < 0 || leafIndex >= t.size) return undefined;
    return t.leafHash(leafIndex);
  }

  getLeafPreimage(tree: IndexedTreeId, leafIndex: number): IndexedLeaf | undefined {
    const t = this.state[tree];
    if (leafIndex < 0 || leafIndex >= t.size) return undefined;
    const leaf = t.preimages[leafIndex];
    if (leaf === undefined || isEmptyLeaf(leaf)) return undefined;
    return copyLeaf(leaf);
  }

  findLeaf(tree: TreeId, value: Fr): LeafLocation | undefined {
    const t = this.state[tree];
    const index = isIndexedTree(tree) ? t.indexOfKey(value) : value === 0n ? -1 : t.values.indexOf(value);
    if (index === -1) return undefined;
    return { index, blockNumber: t.insertedAt[index]! };
  }

  findLowLeaf(tree: IndexedTreeId, key: Fr): LowLeaf {
    const t = this.state[tree];
    const index = t.lowLeafIndex(key);
    const leaf = copyLeaf(t.preimages[index]!);
    return { index, leaf, alreadyPresent: leaf.key === key };
  }

  getMembershipWitness(tree: TreeId, value: Fr): MembershipWitness | undefined {
    const found = this.findLeaf(tree, value);
    if (found === undefined) return undefined;
    return { index: found.index, siblingPath: this.getSiblingPath(tree, found.index) };
  }

  getIndexedLeafWitness(tree: IndexedTreeId, key: Fr): IndexedLeafWitness | undefined {
    const found = this.findLeaf(tree, key);
    if (found === undefined) return undefined;
    return {
      index: found.index,
      siblingPath: this.getSiblingPath(tree, found.index),
      leaf: this.getLeafPreimage(tree, found.index)!,
    };
  }

  getLowLeafWitness(tree: IndexedTreeId, key: Fr): IndexedLeafWitness & { alreadyPresent: boolean } {
    const low = this.findLowLeaf(tree, key);
    return { ...low, siblingPath: this.getSiblingPath(tree, low.index) };
  }
}

/** A mutable copy of the latest block's state; its leaves are stamped with block `blockNumber + 1`. */
export class ModelFork extends ModelReader implements WorldStateFork {
  /** The block number the fork's changes would get when committed. */
  readonly pendingBlock: number;

  constructor(state: ModelState, blockNumber: number) {
    super(state, blockNumber);
    this.pendingBlock = blockNumber + 1;
  }

  /** The fork's current state (used by `commit`). */
  get currentState(): ModelState {
    return this.state;
  }

  /** The model hashes when read: nothing is pending. */
  async hashPendingInSlices(): Promise<void> {}

  appendLeaves(tree: AppendOnlyTreeId, leaves: readonly Fr[]): void {
    if (isIndexedTree(tree)) throw new Error(`tree ${tree} is not append-only`);
    for (const value of leaves) this.state[tree].pushAppendOnly(value, this.pendingBlock);
  }

  appendNoteHashes(txNoteHashes: readonly Fr[]): void {
    if (txNoteHashes.length > MAX_NOTE_HASHES_PER_TX) {
      throw new Error(`too many note hashes: ${txNoteHashes.length} > ${MAX_NOTE_HASHES_PER_TX}`);
    }
    const padded = [...txNoteHashes];
    while (padded.length < MAX_NOTE_HASHES_PER_TX) padded.push(0n);
    this.appendLeaves(TreeId.NOTE_HASH, padded);
  }

  insertNullifiers(txNullifiers: readonly Fr[]): void {
    if (txNullifiers.length > MAX_NULLIFIERS_PER_TX) {
      throw new Error(`too many nullifiers: ${txNullifiers.length} > ${MAX_NULLIFIERS_PER_TX}`);
    }
    const tree = this.state[TreeId.NULLIFIER];
    // Check every nullifier before changing anything.
    const seen = new Set<Fr>();
    for (const n of txNullifiers) {
      if (n === 0n) continue;
      if (seen.has(n) || tree.indexOfKey(n) !== -1) throw new Error(`duplicate nullifier ${n}`);
      seen.add(n);
    }
    const start = tree.size;
    for (let j = 0; j < MAX_NULLIFIERS_PER_TX; j++) tree.pushIndexed(undefined, this.pendingBlock);
    txNullifiers.forEach((n, j) => {
      if (n === 0n) return;
      tree.preimages[start + j] = { key: n, value: 0n, nextKey: 0n, nextIndex: 0 };
      tree.linkNewLeaf(start + j);
    });
  }

  writePublicData(writes: readonly PublicDataWrite[]): void {
    writeIntoPublicData(this.state[TreeId.PUBLIC_DATA], writes, this.pendingBlock);
  }
}

function writeIntoPublicData(tree: ModelTree, writes: readonly PublicDataWrite[], block: number): void {
  for (const { slot, value } of writes) {
    const existing = tree.indexOfKey(slot);
    if (existing !== -1) {
      tree.preimages[existing]!.value = value;
      tree.touched();
    } else {
      tree.pushIndexed({ key: slot, value, nextKey: 0n, nextIndex: 0 }, block);
      tree.linkNewLeaf(tree.size - 1);
    }
  }
}

/** The genesis state (block 0), as described in docs/world-state.md, "Genesis". */
export function genesisState(options: WorldStateOptions): ModelState {
  const state = emptyState();
  const nullifiers = state[TreeId.NULLIFIER];
  for (let i = 0; i < INITIAL_NULLIFIER_TREE_SIZE; i++) {
    const last = i === INITIAL_NULLIFIER_TREE_SIZE - 1;
    nullifiers.pushIndexed(
      { key: BigInt(i), value: 0n, nextKey: last ? 0n : BigInt(i + 1), nextIndex: last ? 0 : i + 1 },
      0,
    );
  }
  const publicData = state[TreeId.PUBLIC_DATA];
  for (let i = 0; i < INITIAL_PUBLIC_DATA_TREE_SIZE; i++) {
    const last = i === INITIAL_PUBLIC_DATA_TREE_SIZE - 1;
    publicData.pushIndexed(
      { key: BigInt(i), value: 0n, nextKey: last ? 0n : BigInt(i + 1), nextIndex: last ? 0 : i + 1 },
      0,
    );
  }
  writeIntoPublicData(publicData, options.genesisPublicData ?? [], 0);
  const snapshots = {
    [TreeId.NULLIFIER]: state[TreeId.NULLIFIER].snapshot(),
    [TreeId.NOTE_HASH]: state[TreeId.NOTE_HASH].snapshot(),
    [TreeId.PUBLIC_DATA]: state[TreeId.PUBLIC_DATA].snapshot(),
    [TreeId.L1_TO_L2_MESSAGE]: state[TreeId.L1_TO_L2_MESSAGE].snapshot(),
    [TreeId.ARCHIVE]: state[TreeId.ARCHIVE].snapshot(),
  };
  state[TreeId.ARCHIVE].pushAppendOnly(options.genesisBlockHash(snapshots), 0);
  return state;
}

/** The whole world state: one full state copy per readable block. */
export class WorldStateModel {
  private readonly historyBlocks: number;
  private readonly blocks = new Map<number, ModelState>();
  private latest = 0;
  private oldest = 0;

  constructor(options: WorldStateOptions) {
    this.historyBlocks = options.historyBlocks;
    this.blocks.set(0, genesisState(options));
  }

  get latestBlockNumber(): number {
    return this.latest;
  }

  get oldestBlockNumber(): number {
    return this.oldest;
  }

  at(blockNumber: number): ModelReader {
    if (blockNumber < this.oldest) {
      throw new Error(`block ${blockNumber} is pruned; the oldest available block is ${this.oldest}`);
    }
    const state = this.blocks.get(blockNumber);
    if (blockNumber > this.latest || state === undefined) {
      throw new Error(`block ${blockNumber} is beyond the latest block ${this.latest}`);
    }
    return new ModelReader(state, blockNumber);
  }

  fork(): ModelFork {
    return new ModelFork(cloneState(this.blocks.get(this.latest)!), this.latest);
  }

  commit(fork: ModelFork): number {
    if (fork.blockNumber !== this.latest) {
      throw new Error(`fork made on block ${fork.blockNumber}, but the latest block is ${this.latest}`);
    }
    this.latest += 1;
    this.blocks.set(this.latest, cloneState(fork.currentState));
    if (this.historyBlocks > 0) {
      this.oldest = Math.max(this.oldest, this.latest - this.historyBlocks + 1);
      for (const b of [...this.blocks.keys()]) if (b < this.oldest) this.blocks.delete(b);
    }
    return this.latest;
  }

  rollbackTo(blockNumber: number): void {
    if (blockNumber < this.oldest || blockNumber > this.latest) {
      throw new Error(
        `cannot roll back to ${blockNumber}: available blocks are ${this.oldest}..${this.latest}`,
      );
    }
    for (const b of [...this.blocks.keys()]) if (b > blockNumber) this.blocks.delete(b);
    this.latest = blockNumber;
  }
}

/** A genesis block hash for tests: a hash of the four state-tree roots. */
export function testGenesisBlockHash(s: Record<TreeId, TreeSnapshot>): Fr {
  return memoHash([
    s[TreeId.NULLIFIER].root,
    s[TreeId.NOTE_HASH].root,
    s[TreeId.PUBLIC_DATA].root,
    s[TreeId.L1_TO_L2_MESSAGE].root,
  ]);
}

/** Folds a sibling path (leaf level first) onto a leaf hash: the root it proves. */
export function rootFromPath(leafHash: Fr, leafIndex: number, path: readonly Fr[]): Fr {
  let hash = leafHash;
  let index = leafIndex;
  for (const sibling of path) {
    hash = index % 2 === 0 ? memoHash([hash, sibling]) : memoHash([sibling, hash]);
    index = Math.floor(index / 2);
  }
  return hash;
}
