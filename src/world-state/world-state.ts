// The world state: five Merkle trees versioned by block on LMDB (docs/world-state.md).
// Block 0 is genesis; each commit of a fork becomes the next block in one LMDB write
// transaction; rollback removes the versions of later blocks; with a history window,
// versions no longer needed by any readable block are pruned as blocks are committed.

import { refused } from '../core/errors.js';
import { bytesToFr, type Fr, frToBuffer } from '../core/field.js';
import { startHelper } from '../core/hash/parallel.js';
import type { Database, StoreEnvironment } from '../store/environment.js';
import {
  blockKey,
  decodeLeafLocation,
  encodeLeafLocation,
  journalKey,
  LEAF_KEY_BYTES,
  leafKey,
  PREIMAGE_LEVEL,
  SLOT_BYTES,
  slotKey,
  versionKey,
  versionsEnd,
} from './keys.js';
import {
  INITIAL_NULLIFIER_TREE_SIZE,
  INITIAL_PUBLIC_DATA_TREE_SIZE,
  type IndexedLeaf,
  type IndexedTreeId,
  type LeafLocation,
  TREE_HEIGHTS,
  TREE_IDS,
  TreeId,
  type TreeSnapshot,
  type WorldStateFork,
  type WorldStateOptions,
  type WorldStateReader,
} from './types.js';
import { type CommittedReader, decodePreimage, encodePreimage, View, ZERO_HASHES } from './view.js';

const SNAPSHOT_BYTES = 32 + 6;
/** The layout of the stored data; a store written with another layout is refused. */
/** The store's layout; a snapshot is only restored into a node that reads the same one. */
export const WORLD_STATE_SCHEMA_VERSION = 2;
const EMPTY_SNAPSHOTS = TREE_IDS.map((tree) => ({ root: ZERO_HASHES[TREE_HEIGHTS[tree]]!, size: 0 }));

function encodeSnapshots(roots: Buffer[], sizes: number[]): Buffer {
  const out = Buffer.allocUnsafe(TREE_IDS.length * SNAPSHOT_BYTES);
  for (const tree of TREE_IDS) {
    out.set(roots[tree]!, tree * SNAPSHOT_BYTES);
    out.writeUIntBE(sizes[tree]!, tree * SNAPSHOT_BYTES + 32, 6);
  }
  return out;
}

function decodeSnapshots(bytes: Buffer): { root: Buffer; size: number }[] {
  return TREE_IDS.map((tree) => ({
    root: Buffer.from(bytes.subarray(tree * SNAPSHOT_BYTES, tree * SNAPSHOT_BYTES + 32)),
    size: bytes.readUIntBE(tree * SNAPSHOT_BYTES + 32, 6),
  }));
}

export class WorldState implements CommittedReader {
  private readonly versions: Database<Buffer, Buffer>;
  private readonly leaves: Database<Buffer, Buffer>;
  private readonly journal: Database<Buffer, Buffer>;
  private readonly blocks: Database<Buffer, Buffer>;
  private readonly meta: Database<number, string>;
  private latest = -1;
  private oldest = 0;
  /** Bumped by every commit and rollback; a fork made before it can no longer be committed. */
  private generation = 0;
  private readonly forkGeneration = new WeakMap<View, number>();

  private constructor(
    private readonly env: StoreEnvironment,
    private readonly options: WorldStateOptions,
  ) {
    this.versions = env.binaryDatabase('ws-versions');
    this.leaves = env.binaryDatabase('ws-leaves');
    this.journal = env.binaryDatabase('ws-journal');
    this.blocks = env.binaryDatabase('ws-blocks');
    this.meta = env.database<number>('ws-meta');
  }

  /** Opens the world state in `env`, creating genesis (block 0) when it is empty. */
  static async open(env: StoreEnvironment, options: WorldStateOptions): Promise<WorldState> {
    if (!Number.isInteger(options.historyBlocks) || options.historyBlocks < 0) {
      throw new RangeError('historyBlocks must be a non-negative integer');
    }
    // The second hashing thread starts now so that it is ready for the first large batch.
    startHelper();
    const ws = new WorldState(env, options);
    const latest = ws.meta.get('latest');
    const schema = ws.meta.get('schema');
    if (latest !== undefined && schema !== WORLD_STATE_SCHEMA_VERSION) {
      throw new Error(
        `the world-state store at ${env.path} has layout version ${schema ?? 1}, this node reads version ${WORLD_STATE_SCHEMA_VERSION}; ` +
          'remove it (or start with a new data directory) to rebuild it',
      );
    }
    if (latest === undefined) {
      ws.env.write(() => ws.meta.putSync('schema', WORLD_STATE_SCHEMA_VERSION));
      ws.createGenesis();
    } else {
      ws.latest = latest;
      ws.oldest = ws.meta.get('oldest') ?? 0;
    }
    return ws;
  }

  get latestBlockNumber(): number {
    return this.latest;
  }

  get oldestBlockNumber(): number {
    return this.oldest;
  }

  /** The trees as of a block inside the history window. */
  at(blockNumber: number): WorldStateReader {
    this.assertReadable(blockNumber);
    return new View(this, blockNumber, this.snapshotsAt(blockNumber), false);
  }

  /** A mutable overlay on the latest block, to build the next block or simulate. */
  fork(): WorldStateFork {
    const view = new View(this, this.latest, this.snapshotsAt(this.latest), true);
    this.forkGeneration.set(view, this.generation);
    return view;
  }

  /** Makes the fork the next block in one atomic write; returns the new block number. */
  async commit(fork: WorldStateFork): Promise<number> {
    if (!(fork instanceof View) || !fork.mutable)
      throw new TypeError('commit takes a fork of this world state');
    if (this.forkGeneration.get(fork) !== this.generation || fork.baseBlock !== this.latest) {
      throw new Error(
        `fork of block ${fork.baseBlock} is stale: the world state moved on (latest is ${this.latest})`,
      );
    }
    this.writeBlock(fork);
    this.forkGeneration.delete(fork);
    return this.latest;
  }

  /** Removes every block after `blockNumber`. */
  async rollbackTo(blockNumber: number): Promise<void> {
    if (!Number.isInteger(blockNumber) || blockNumber > this.latest) {
      throw refused(`cannot roll back to block ${blockNumber}: the latest block is ${this.latest}`);
    }
    if (blockNumber < this.oldest) {
      throw refused(
        `cannot roll back to block ${blockNumber}: world-state history starts at block ${this.oldest} (a forced rollback rebuilds it)`,
      );
    }
    this.env.write(() => {
      for (let block = this.latest; block > blockNumber; block--) this.removeBlock(block);
      this.meta.putSync('latest', blockNumber);
    });
    this.latest = blockNumber;
    this.generation++;
  }

  /**
   * Clears every tree and writes genesis again (a forced rollback rebuilds from here). A crash
   * in between leaves an empty store, which `open` turns into genesis.
   */
  async reset(): Promise<void> {
    this.env.write(() => {
      for (const db of [this.versions, this.leaves, this.journal, this.blocks, this.meta]) db.clearSync();
      this.meta.putSync('schema', WORLD_STATE_SCHEMA_VERSION);
    });
    this.latest = -1;
    this.oldest = 0;
    this.generation++;
    this.createGenesis();
  }

  /** A consistent copy of the world-state store (see StoreEnvironment.backup). */
  backup(dir: string): Promise<string> {
    return this.env.backup(dir);
  }

  /** Closes the store environment the world state was opened on. */
  async close(): Promise<void> {
    this.generation++;
    await this.env.close();
  }

  // ---- CommittedReader -----------------------------------------------------------------

  assertReadable(blockNumber: number): void {
    if (!Number.isInteger(blockNumber) || blockNumber < 0) {
      throw refused(`invalid block number ${blockNumber}`);
    }
    if (blockNumber > this.latest) {
      throw refused(`block ${blockNumber} is not in the world state yet: the latest block is ${this.latest}`);
    }
    if (blockNumber < this.oldest) {
      throw refused(
        `block ${blockNumber} is no longer available: world-state history starts at block ${this.oldest}`,
      );
    }
  }

  readPage(tree: TreeId, page: number, pageIndex: number, block: number): Buffer | undefined {
    return this.readSlot(slotKey(tree, page, pageIndex), block);
  }

  /** The newest version of a slot written at or before `block`. */
  private readSlot(slot: Buffer, block: number): Buffer | undefined {
    // The first key at or after slot ‖ ~block is this slot's newest version ≤ block, if the
    // slot has one; otherwise it belongs to a later slot. (No end bound: it costs more.)
    for (const { key, value } of this.versions.getRange({ start: versionKey(slot, block), limit: 1 })) {
      return slot.equals(key.subarray(0, SLOT_BYTES)) ? value : undefined;
    }
    return undefined;
  }

  readPreimage(tree: TreeId, index: number, block: number): IndexedLeaf | undefined {
    const bytes = this.readSlot(slotKey(tree, PREIMAGE_LEVEL, index), block);
    return bytes === undefined ? undefined : decodePreimage(bytes);
  }

  findValue(tree: TreeId, value: Fr): LeafLocation | undefined {
    const location = this.leaves.get(leafKey(tree, frToBuffer(value)));
    return location === undefined ? undefined : decodeLeafLocation(location);
  }

  predecessor(tree: IndexedTreeId, key: Fr, block: number): { key: Fr; index: number } | undefined {
    for (const entry of this.leaves.getRange({
      start: leafKey(tree, frToBuffer(key)),
      end: Buffer.from([tree]),
      reverse: true,
    })) {
      const location = decodeLeafLocation(entry.value);
      if (location.blockNumber <= block)
        return { key: bytesToFr(entry.key.subarray(1)), index: location.index };
    }
    return undefined;
  }

  // ---- internals -------------------------------------------------------------------------

  private snapshotsAt(blockNumber: number): { root: Buffer; size: number }[] {
    const bytes = this.blocks.get(blockKey(blockNumber));
    if (bytes === undefined) throw new Error(`world state has no snapshot of block ${blockNumber}`);
    return decodeSnapshots(bytes);
  }

  private createGenesis(): void {
    const genesis = new View(this, -1, EMPTY_SNAPSHOTS, true);
    genesis.prefillIndexed(TreeId.NULLIFIER, INITIAL_NULLIFIER_TREE_SIZE);
    genesis.prefillIndexed(TreeId.PUBLIC_DATA, INITIAL_PUBLIC_DATA_TREE_SIZE);
    genesis.writePublicData(this.options.genesisPublicData ?? []);
    const snapshots = Object.fromEntries(TREE_IDS.map((tree) => [tree, genesis.snapshot(tree)])) as Record<
      TreeId,
      TreeSnapshot
    >;
    genesis.appendLeaves(TreeId.ARCHIVE, [this.options.genesisBlockHash(snapshots)]);
    this.writeBlock(genesis);
  }

  /** Writes a fork as block `latest + 1`: versions, value index, journal, snapshots, pruning. */
  private writeBlock(fork: View): void {
    const block = fork.pendingBlockNumber;
    const changes = fork.changes();
    const roots = TREE_IDS.map((tree) => fork.rootBytes(tree));
    const sizes = fork.sizes();
    const prunedTo =
      this.options.historyBlocks > 0
        ? Math.max(this.oldest, block - this.options.historyBlocks + 1)
        : this.oldest;
    this.env.write(() => {
      const slots: Buffer[] = [];
      const leafKeys: Buffer[] = [];
      for (const { tree, pages, preimages, values } of changes) {
        for (const { page, pageIndex, bytes } of pages) {
          const slot = slotKey(tree, page, pageIndex);
          this.versions.putSync(versionKey(slot, block), bytes);
          slots.push(slot);
        }
        for (const [index, leaf] of preimages) {
          const slot = slotKey(tree, PREIMAGE_LEVEL, index);
          this.versions.putSync(versionKey(slot, block), encodePreimage(leaf));
          slots.push(slot);
        }
        for (const [value, index] of values) {
          const key = leafKey(tree, frToBuffer(value));
          this.leaves.putSync(key, encodeLeafLocation(index, block));
          leafKeys.push(key);
        }
      }
      this.journal.putSync(journalKey(block, 0), Buffer.concat(slots));
      this.journal.putSync(journalKey(block, 1), Buffer.concat(leafKeys));
      this.blocks.putSync(blockKey(block), encodeSnapshots(roots, sizes));
      this.meta.putSync('latest', block);
      if (prunedTo > this.oldest) this.prune(prunedTo);
    });
    this.latest = block;
    this.oldest = prunedTo;
    this.generation++;
  }

  /** Inside a write: deletes every version, journal and snapshot of `block`. */
  private removeBlock(block: number): void {
    const slots = this.journal.get(journalKey(block, 0)) ?? Buffer.alloc(0);
    for (let offset = 0; offset < slots.length; offset += SLOT_BYTES) {
      this.versions.removeSync(versionKey(slots.subarray(offset, offset + SLOT_BYTES), block));
    }
    const leafKeys = this.journal.get(journalKey(block, 1)) ?? Buffer.alloc(0);
    for (let offset = 0; offset < leafKeys.length; offset += LEAF_KEY_BYTES) {
      const key = leafKeys.subarray(offset, offset + LEAF_KEY_BYTES);
      const location = this.leaves.get(key);
      if (location !== undefined && decodeLeafLocation(location).blockNumber === block)
        this.leaves.removeSync(key);
    }
    this.journal.removeSync(journalKey(block, 0));
    this.journal.removeSync(journalKey(block, 1));
    this.blocks.removeSync(blockKey(block));
  }

  /**
   * Inside a write: makes `oldest` the oldest readable block. For every slot written by a
   * block in (old oldest, oldest], the versions before that write are no longer the newest
   * version at any readable block, so they go.
   */
  private prune(oldest: number): void {
    for (let block = this.oldest + 1; block <= oldest; block++) {
      const slots = this.journal.get(journalKey(block, 0)) ?? Buffer.alloc(0);
      for (let offset = 0; offset < slots.length; offset += SLOT_BYTES) {
        const slot = slots.subarray(offset, offset + SLOT_BYTES);
        const older = Array.from(
          this.versions.getKeys({ start: versionKey(slot, block - 1), end: versionsEnd(slot) }),
        );
        for (const key of older) this.versions.removeSync(key);
      }
    }
    for (let block = this.oldest; block < oldest; block++) {
      this.journal.removeSync(journalKey(block, 0));
      this.journal.removeSync(journalKey(block, 1));
      this.blocks.removeSync(blockKey(block));
    }
    // The journal of the new oldest block is only needed to prune it later, which never happens.
    this.journal.removeSync(journalKey(oldest, 0));
    this.journal.removeSync(journalKey(oldest, 1));
    this.meta.putSync('oldest', oldest);
  }
}
