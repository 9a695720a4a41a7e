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
  partKey,
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
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Puts per LMDB write when a block is committed in parts (~10-20 ms of the event loop each). */
const PUTS_PER_PART = 8192;
/** Parts of one block at most (their journal records are numbered in one byte). */
const MAX_PARTS = 250;

/**
 * One put of a block's commit and what its journal records: a version of a slot (`ws-versions`,
 * journalled by the slot) or a value-index entry (`ws-leaves`, journalled by its key).
 */
interface Put {
  key: Buffer;
  value: Buffer;
  journal: Buffer;
  isSlot: boolean;
}

interface BlockWrites {
  block: number;
  puts: Put[];
  snapshots: Buffer;
  prunedTo: number;
}

/** A part's journal record: the number of slots, the slots, then the value keys. */
function encodePart(part: readonly Put[]): Buffer {
  const slots = part.filter((p) => p.isSlot).map((p) => p.journal);
  const leafKeys = part.filter((p) => !p.isSlot).map((p) => p.journal);
  const count = Buffer.allocUnsafe(4);
  count.writeUInt32BE(slots.length, 0);
  return Buffer.concat([count, ...slots, ...leafKeys]);
}

/** A part's journal record as a block's journal holds them: the slots, and the value keys. */
function decodePart(bytes: Buffer): { slots: Buffer; leafKeys: Buffer } {
  const slotsEnd = 4 + bytes.readUInt32BE(0) * SLOT_BYTES;
  return { slots: bytes.subarray(4, slotsEnd), leafKeys: bytes.subarray(slotsEnd) };
}

/** The `size`-byte keys of a journal entry (keys of one size, concatenated). */
function* keysOf(entry: Buffer, size: number): Generator<Buffer> {
  for (let offset = 0; offset < entry.length; offset += size) yield entry.subarray(offset, offset + size);
}
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

/**
 * The world state as everything but its one writer sees it (the archiver commits, rolls back and
 * resets it, together with the chain store): reads at a block, and forks to build or simulate on.
 */
export type ReadableWorldState = Pick<WorldState, 'latestBlockNumber' | 'oldestBlockNumber' | 'at' | 'fork'>;

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
  /** The change under way (commit, rollback, reset), which the next one waits for. */
  private changing: Promise<void> = Promise.resolve();

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
      // A commit the process did not finish.
      ws.discardPartialBlock(latest + 1);
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

  /** Told how long each block's commit took, in milliseconds (the metrics record it). */
  onCommitted: ((ms: number) => void) | undefined;

  /** A mutable overlay on the latest block, to build the next block or simulate. */
  fork(): WorldStateFork {
    const view = new View(this, this.latest, this.snapshotsAt(this.latest), true);
    this.forkGeneration.set(view, this.generation);
    return view;
  }

  /**
   * Makes the fork the next block; returns the new block number. A large block is written in
   * parts with `pause()` between them (see writeBlockInParts); readers see all of it or none.
   */
  commit(fork: WorldStateFork, pause: () => Promise<void> = nextTurn): Promise<number> {
    if (!(fork instanceof View) || !fork.mutable)
      return Promise.reject(new TypeError('commit takes a fork of this world state'));
    return this.serially(async () => {
      if (this.forkGeneration.get(fork) !== this.generation || fork.baseBlock !== this.latest) {
        throw new Error(
          `fork of block ${fork.baseBlock} is stale: the world state moved on (latest is ${this.latest})`,
        );
      }
      const started = performance.now();
      await this.writeBlockInParts(fork, pause);
      this.forkGeneration.delete(fork);
      this.onCommitted?.(performance.now() - started);
      return this.latest;
    });
  }

  /** Runs changes one after another: a commit in parts is never interleaved with another change. */
  private serially<T>(change: () => Promise<T> | T): Promise<T> {
    const result = this.changing.then(change);
    this.changing = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Removes every block after `blockNumber`. */
  rollbackTo(blockNumber: number): Promise<void> {
    return this.serially(() => this.rollbackNow(blockNumber));
  }

  private rollbackNow(blockNumber: number): void {
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
  reset(): Promise<void> {
    return this.serially(() => this.resetNow());
  }

  private resetNow(): void {
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
    await this.changing;
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

  /** What committing a fork as block `latest + 1` writes. */
  private blockWrites(fork: View): BlockWrites {
    const block = fork.pendingBlockNumber;
    const puts: Put[] = [];
    for (const { tree, pages, preimages, values } of fork.changes()) {
      for (const { page, pageIndex, bytes } of pages) {
        const slot = slotKey(tree, page, pageIndex);
        puts.push({ key: versionKey(slot, block), value: bytes, journal: slot, isSlot: true });
      }
      for (const [index, leaf] of preimages) {
        const slot = slotKey(tree, PREIMAGE_LEVEL, index);
        puts.push({ key: versionKey(slot, block), value: encodePreimage(leaf), journal: slot, isSlot: true });
      }
      for (const [value, index] of values) {
        const key = leafKey(tree, frToBuffer(value));
        puts.push({ key, value: encodeLeafLocation(index, block), journal: key, isSlot: false });
      }
    }
    const roots = TREE_IDS.map((tree) => fork.rootBytes(tree));
    return {
      block,
      puts,
      snapshots: encodeSnapshots(roots, fork.sizes()),
      prunedTo:
        this.options.historyBlocks > 0
          ? Math.max(this.oldest, block - this.options.historyBlocks + 1)
          : this.oldest,
    };
  }

  /** Writes a fork as block `latest + 1` in one LMDB write (genesis). */
  private writeBlock(fork: View): void {
    const writes = this.blockWrites(fork);
    this.env.write(() => this.sealBlock(writes, writes.puts, 0));
    this.afterBlock(writes);
  }

  /**
   * Writes a fork as block `latest + 1` in parts of at most PUTS_PER_PART puts, each its own LMDB
   * write with `pause()` between them, so that a large block does not hold the event loop for the
   * whole write; each part commits on lmdb-js's write thread (writeInBackground), as its commit
   * alone took 70 ms at the median and up to 360 ms under a flood. Until the last part moves `latest`, readers do not see the block (its versions are
   * newer than any block they read) and each part's journal record lists what it wrote: a crash
   * in between leaves records that `open` uses to remove them (discardPartialBlock).
   */
  private async writeBlockInParts(fork: View, pause: () => Promise<void>): Promise<void> {
    const writes = this.blockWrites(fork);
    const perPart = Math.max(PUTS_PER_PART, Math.ceil(writes.puts.length / MAX_PARTS));
    let parts = 0;
    try {
      while (writes.puts.length - parts * perPart > perPart) {
        const part = writes.puts.slice(parts * perPart, (parts + 1) * perPart);
        await this.env.writeInBackground(() => {
          for (const put of part) this.put(put);
          this.journal.putSync(partKey(writes.block, parts), encodePart(part));
        });
        parts++;
        await pause();
      }
      await this.env.writeInBackground(() =>
        this.sealBlock(writes, writes.puts.slice(parts * perPart), parts),
      );
    } catch (err) {
      this.discardPartialBlock(writes.block);
      throw err;
    }
    this.afterBlock(writes);
  }

  /**
   * Inside a write: the block's last puts, its journal (the slots and value keys of all of its
   * parts, whose own records go), its snapshots, `latest`, and pruning.
   */
  private sealBlock(writes: BlockWrites, last: readonly Put[], earlierParts: number): void {
    for (const put of last) this.put(put);
    const slots: Buffer[] = [];
    const leafKeys: Buffer[] = [];
    for (const put of writes.puts) (put.isSlot ? slots : leafKeys).push(put.journal);
    for (let part = 0; part < earlierParts; part++) this.journal.removeSync(partKey(writes.block, part));
    this.journal.putSync(journalKey(writes.block, 0), Buffer.concat(slots));
    this.journal.putSync(journalKey(writes.block, 1), Buffer.concat(leafKeys));
    this.blocks.putSync(blockKey(writes.block), writes.snapshots);
    this.meta.putSync('latest', writes.block);
    if (writes.prunedTo > this.oldest) this.prune(writes.prunedTo);
  }

  private put({ key, value, isSlot }: Put): void {
    (isSlot ? this.versions : this.leaves).putSync(key, value);
  }

  private afterBlock(writes: BlockWrites): void {
    this.latest = writes.block;
    this.oldest = writes.prunedTo;
    this.generation++;
  }

  /**
   * Removes the parts of block `block` that a commit wrote before it failed or the process
   * stopped (the block itself was never sealed, so nothing reads them).
   */
  private discardPartialBlock(block: number): void {
    const records = Array.from(
      this.journal.getRange({ start: partKey(block, 0), end: journalKey(block + 1, 0) }),
    );
    if (records.length === 0) return;
    this.env.write(() => {
      for (const { key, value } of records) {
        const { slots, leafKeys } = decodePart(value);
        this.removeWrites(block, slots, leafKeys);
        this.journal.removeSync(key);
      }
    });
  }

  /** Inside a write: deletes every version, journal and snapshot of `block`. */
  private removeBlock(block: number): void {
    this.removeWrites(
      block,
      this.journal.get(journalKey(block, 0)) ?? Buffer.alloc(0),
      this.journal.get(journalKey(block, 1)) ?? Buffer.alloc(0),
    );
    this.journal.removeSync(journalKey(block, 0));
    this.journal.removeSync(journalKey(block, 1));
    this.blocks.removeSync(blockKey(block));
  }

  /**
   * Inside a write: deletes the versions `block` wrote of `slots` and the value-index entries of
   * `leafKeys` that still point into `block` (journal entries: keys concatenated).
   */
  private removeWrites(block: number, slots: Buffer, leafKeys: Buffer): void {
    for (const slot of keysOf(slots, SLOT_BYTES)) this.versions.removeSync(versionKey(slot, block));
    for (const key of keysOf(leafKeys, LEAF_KEY_BYTES)) {
      const location = this.leaves.get(key);
      if (location !== undefined && decodeLeafLocation(location).blockNumber === block)
        this.leaves.removeSync(key);
    }
  }

  /**
   * Inside a write: makes `oldest` the oldest readable block. For every slot written by a
   * block in (old oldest, oldest], the versions before that write are no longer the newest
   * version at any readable block, so they go.
   */
  private prune(oldest: number): void {
    for (let block = this.oldest + 1; block <= oldest; block++) {
      for (const slot of keysOf(this.journal.get(journalKey(block, 0)) ?? Buffer.alloc(0), SLOT_BYTES)) {
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
