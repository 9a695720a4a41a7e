// The archiver's store of the chain (`archiver` LMDB environment): blocks by number, hash
// and archive root; tx effects by hash; checkpoints with their L1 publish data and
// attestations, by number and slot; the proven and finalized checkpoints; and how far L1
// has been read. Every change is one atomic write.

import type { L2Block } from '../core/block.js';
import { GENESIS_CHECKPOINT_HEADER_HASH } from '../core/block-header.js';
import { type Fr, frToBuffer } from '../core/field.js';
import type { Database, StoreEnvironment } from '../store/environment.js';
import type { ChainReader } from './chain-reader.js';
import { ContractStore, type SkippedEvent } from './contract-store.js';
import { u32Key } from './keys.js';
import { LogStore } from './log-store.js';
import { MessageStore } from './message-store.js';
import type {
  BlockId,
  ChainTips,
  IndexedTxEffect,
  L1SyncPoint,
  PublishedCheckpoint,
  TipId,
} from './types.js';

// Stored values are JSON with bigints as {"$n": hex}; blocks hold nothing else JSON can't carry.
const encode = (value: unknown) =>
  Buffer.from(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? { $n: v.toString(16) } : v)));
function decode<T>(bytes: Uint8Array): T {
  return JSON.parse(Buffer.from(bytes).toString('utf8'), (_k, v) =>
    v !== null && typeof v === 'object' && typeof v.$n === 'string' && Object.keys(v).length === 1
      ? BigInt(`0x${v.$n}`)
      : v,
  ) as T;
}

/**
 * The layout of the log and contract indexes; a store with another is reindexed at start.
 * Snapshots record it as the archiver's schema version.
 */
export const INDEX_VERSION = 1;

/**
 * Decoded blocks and checkpoints kept in memory (reads of recent ones are the hot path): at most
 * this many, and at most CACHE_BYTES of their stored encoding. A full block decodes to a few MB of
 * objects, so a count alone would let the cache hold gigabytes.
 */
export const CACHE_ENTRIES = 512;
export const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Decoded values by number, oldest first, bounded by count and by the encoded size of its values.
 * A write that puts or removes numbers `touch`es them: until it `settle`s (committed or not), reads
 * of those bypass the cache, since they may see the write's uncommitted changes; then their entries
 * go. Numbers below stay cached: most writes (the L1 sync point, tips) touch none.
 */
export class DecodedCache<V> {
  private readonly entries = new Map<number, { value: V; bytes: number }>();
  private bytes = 0;
  private touchedFrom = Number.POSITIVE_INFINITY;

  get(key: number): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The value at `key`: cached, or loaded and decoded (and cached unless touched). */
  read(
    key: number,
    load: () => Uint8Array | undefined,
    decodeValue: (bytes: Uint8Array) => V,
  ): V | undefined {
    const touched = key >= this.touchedFrom;
    if (!touched) {
      const cached = this.get(key);
      if (cached !== undefined) return cached;
    }
    const bytes = load();
    if (bytes === undefined) return undefined;
    const value = decodeValue(bytes);
    return touched ? value : this.remember(key, value, bytes.length);
  }

  /** Marks `key` and everything after it as changed by the write under way. */
  touch(key: number): void {
    this.touchedFrom = Math.min(this.touchedFrom, key);
  }

  /** After a write: what it touched is read afresh from now on. */
  settle(): void {
    this.forgetFrom(this.touchedFrom);
    this.touchedFrom = Number.POSITIVE_INFINITY;
  }

  remember(key: number, value: V, encodedBytes: number): V {
    this.forget(key);
    while (
      this.entries.size > 0 &&
      (this.entries.size >= CACHE_ENTRIES || this.bytes + encodedBytes > CACHE_BYTES)
    ) {
      this.forget(this.entries.keys().next().value!);
    }
    this.entries.set(key, { value, bytes: encodedBytes });
    this.bytes += encodedBytes;
    return value;
  }

  /** Drops the entries from `first` on. */
  forgetFrom(first: number): void {
    if (first === Number.POSITIVE_INFINITY) return;
    for (const key of [...this.entries.keys()]) if (key >= first) this.forget(key);
  }

  private forget(key: number): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** The chain store; only the archiver writes it, every other component reads it as a ChainReader. */
export class ChainStore implements ChainReader {
  private readonly blockCache = new DecodedCache<L2Block>();
  private readonly checkpointCache = new DecodedCache<PublishedCheckpoint>();
  /** The latest block number as last read outside a write (svc_getBlockNumber reads it per call). */
  private latestBlockCache: number | undefined;
  /** Writes under way: reads inside one see its uncommitted changes. */
  private writing = 0;

  private readonly blocks: Database<Buffer, Buffer>;
  private readonly blockByHash: Database<Buffer, Buffer>;
  private readonly blockByArchive: Database<Buffer, Buffer>;
  private readonly txs: Database<Buffer, Buffer>;
  private readonly checkpoints: Database<Buffer, Buffer>;
  private readonly checkpointBySlot: Database<Buffer, Buffer>;
  private readonly meta: Database<unknown, string>;
  /** The log and contract indexes, kept in step with the blocks (same environment, same writes). */
  readonly logs: LogStore;
  readonly contracts: ContractStore;
  /** L1-to-L2 messages as the inbox emitted them. */
  readonly messages: MessageStore;

  constructor(
    private readonly env: StoreEnvironment,
    options: { onSkippedContractEvent?: (event: SkippedEvent) => void } = {},
  ) {
    this.logs = new LogStore(env);
    this.contracts = new ContractStore(env, options.onSkippedContractEvent);
    this.messages = new MessageStore(env);
    this.blocks = env.binaryDatabase('blocks');
    this.blockByHash = env.binaryDatabase('block-by-hash');
    this.blockByArchive = env.binaryDatabase('block-by-archive');
    this.txs = env.binaryDatabase('tx-effects');
    this.checkpoints = env.binaryDatabase('checkpoints');
    this.checkpointBySlot = env.binaryDatabase('checkpoint-by-slot');
    this.meta = env.database<unknown>('meta');
  }

  /** Every change goes through here: one atomic write, after which what it touched is read afresh. */
  private write<T>(fn: () => T): T {
    this.writing++;
    this.latestBlockCache = undefined;
    try {
      return this.env.write(fn);
    } finally {
      this.writing--;
      this.latestBlockCache = undefined;
      if (this.writing === 0) {
        this.blockCache.settle();
        this.checkpointCache.settle();
      }
    }
  }

  /** Stores the genesis block once; later calls check it is the same block. */
  initialize(genesis: L2Block): void {
    const existing = this.getBlock(0);
    if (existing !== undefined) {
      if (existing.hash !== genesis.hash) {
        throw new Error(
          `the archiver store holds another chain: its genesis block hash is ${existing.hash}, this node's is ${genesis.hash}`,
        );
      }
      this.reindexIfOlder();
      return;
    }
    this.write(() => {
      this.meta.putSync('indexVersion', INDEX_VERSION);
      this.putBlock(genesis);
      this.meta.putSync('latestBlock', 0);
      this.meta.putSync('latestCheckpoint', 0);
      this.meta.putSync('provenCheckpoint', 0);
      this.meta.putSync('finalizedCheckpoint', 0);
    });
  }

  /**
   * A store written before the log and contract indexes existed (or by an older index layout)
   * gets them built from its blocks, once.
   */
  private reindexIfOlder(): void {
    if (this.meta.get('indexVersion') === INDEX_VERSION) return;
    this.write(() => {
      this.logs.clear();
      this.contracts.clear();
      for (let n = 1; n <= this.latestBlockNumber; n++) {
        const block = this.getBlock(n)!;
        this.logs.addBlock(block);
        this.contracts.addBlock(block);
      }
      this.meta.putSync('indexVersion', INDEX_VERSION);
    });
  }

  // ---- blocks ------------------------------------------------------------------------------

  get latestBlockNumber(): number {
    if (this.latestBlockCache !== undefined) return this.latestBlockCache;
    const latest = (this.meta.get('latestBlock') as number | undefined) ?? -1;
    if (this.writing === 0) this.latestBlockCache = latest;
    return latest;
  }

  /** Adds a block built or received but not yet checkpointed; it must extend the chain. */
  addProposedBlock(block: L2Block): void {
    const latest = this.latestBlockNumber;
    if (block.number !== latest + 1) {
      throw new Error(`block ${block.number} does not extend the chain, whose latest block is ${latest}`);
    }
    const parent = this.getBlock(latest);
    if (parent && parent.archive.root !== block.header.lastArchive.root) {
      throw new Error(`block ${block.number} does not build on block ${latest}: its last archive differs`);
    }
    this.write(() => {
      this.putBlock(block);
      this.meta.putSync('latestBlock', block.number);
    });
  }

  getBlock(number: number): L2Block | undefined {
    if (!Number.isSafeInteger(number) || number < 0 || number > 0xffffffff) return undefined;
    return this.blockCache.read(number, () => this.blocks.get(u32Key(number)), decode<L2Block>);
  }

  getBlockNumberByHash(hash: Fr): number | undefined {
    const bytes = this.blockByHash.get(frToBuffer(hash));
    return bytes === undefined ? undefined : bytes.readUInt32BE(0);
  }

  getBlockNumberByArchive(root: Fr): number | undefined {
    const bytes = this.blockByArchive.get(frToBuffer(root));
    return bytes === undefined ? undefined : bytes.readUInt32BE(0);
  }

  getTxEffect(txHash: Fr): IndexedTxEffect | undefined {
    const at = this.txs.get(frToBuffer(txHash));
    if (at === undefined) return undefined;
    const block = this.getBlock(at.readUInt32BE(0));
    const index = at.readUInt16BE(4);
    const data = block?.body.txEffects[index];
    if (!block || !data) return undefined;
    return {
      l2BlockNumber: block.number,
      l2BlockHash: block.hash,
      txIndexInBlock: index,
      slotNumber: block.header.globalVariables.slotNumber,
      data,
    };
  }

  // ---- checkpoints -------------------------------------------------------------------------

  /** A consistent copy of the archiver store (see StoreEnvironment.backup). */
  backup(dir: string): Promise<string> {
    return this.env.backup(dir);
  }

  get latestCheckpointNumber(): number {
    return (this.meta.get('latestCheckpoint') as number | undefined) ?? 0;
  }

  /**
   * Adds the next checkpoint as published on L1 with its blocks. Blocks already stored as
   * proposed with the same hashes stay; any other proposed blocks from its first block on are
   * replaced (the L1 chain is the authority).
   */
  addCheckpoint(published: PublishedCheckpoint, blocks: readonly L2Block[], l1: L1SyncPoint): void {
    const { checkpoint } = published;
    const latest = this.latestCheckpointNumber;
    if (checkpoint.number !== latest + 1) {
      throw new Error(`checkpoint ${checkpoint.number} does not follow checkpoint ${latest}`);
    }
    if (blocks.length !== checkpoint.blockCount || blocks.length === 0) {
      throw new Error(
        `checkpoint ${checkpoint.number} has ${checkpoint.blockCount} blocks, ${blocks.length} given`,
      );
    }
    const previous = latest === 0 ? undefined : this.getCheckpoint(latest);
    const expectedStart = previous ? previous.checkpoint.startBlock + previous.checkpoint.blockCount : 1;
    blocks.forEach((block, i) => {
      if (block.number !== checkpoint.startBlock + i || block.checkpointNumber !== checkpoint.number) {
        throw new Error(`block ${block.number} is not block ${i} of checkpoint ${checkpoint.number}`);
      }
    });
    if (checkpoint.startBlock !== expectedStart) {
      throw new Error(
        `checkpoint ${checkpoint.number} starts at block ${checkpoint.startBlock}, expected ${expectedStart}`,
      );
    }
    this.write(() => {
      const replaced = blocks.findIndex((b) => this.getBlock(b.number)?.hash !== b.hash);
      if (replaced >= 0) this.removeBlocksFrom(blocks[replaced]!.number);
      for (const block of blocks.slice(replaced >= 0 ? replaced : blocks.length)) this.putBlock(block);
      const last = blocks[blocks.length - 1]!.number;
      if (this.latestBlockNumber < last) this.meta.putSync('latestBlock', last);
      this.checkpointCache.touch(checkpoint.number);
      this.checkpoints.putSync(u32Key(checkpoint.number), encode(published));
      this.checkpointBySlot.putSync(u32Key(checkpoint.header.slotNumber), u32Key(checkpoint.number));
      this.meta.putSync('latestCheckpoint', checkpoint.number);
      this.putSyncPoint(l1);
    });
  }

  getCheckpoint(number: number): PublishedCheckpoint | undefined {
    if (!Number.isSafeInteger(number) || number < 1 || number > 0xffffffff) return undefined;
    return this.checkpointCache.read(
      number,
      () => this.checkpoints.get(u32Key(number)),
      decode<PublishedCheckpoint>,
    );
  }

  getCheckpointNumberBySlot(slot: number): number | undefined {
    if (!Number.isSafeInteger(slot) || slot < 0 || slot > 0xffffffff) return undefined;
    const bytes = this.checkpointBySlot.get(u32Key(slot));
    return bytes === undefined ? undefined : bytes.readUInt32BE(0);
  }

  /** Checkpoint numbers of the checkpoints at or after (or, reversed, at or before) a slot. */
  checkpointNumbersFromSlot(slot: number, limit: number, reverse: boolean): number[] {
    const start = u32Key(Math.min(Math.max(slot, 0), 0xffffffff));
    return Array.from(this.checkpointBySlot.getRange({ start, reverse, limit }), (e) =>
      e.value.readUInt32BE(0),
    );
  }

  /** The checkpoints of an epoch, in order (at most one per slot, found through the slot index). */
  checkpointsOfEpoch(epoch: number, epochDuration: number): PublishedCheckpoint[] {
    const first = epoch * epochDuration;
    return this.checkpointNumbersFromSlot(first, epochDuration, false)
      .map((n) => this.getCheckpoint(n)!)
      .filter((p) => p.checkpoint.header.slotNumber < first + epochDuration);
  }

  /** The checkpoint holding a block, if the block is checkpointed. */
  checkpointOfBlock(blockNumber: number): number | undefined {
    const block = this.getBlock(blockNumber);
    if (block === undefined || block.checkpointNumber > this.latestCheckpointNumber) return undefined;
    return block.number === 0 ? 0 : block.checkpointNumber;
  }

  // ---- tips ----------------------------------------------------------------------------------

  /** Marks checkpoints up to `number` proven, by a proof in L1 block `atL1Block` (for finality). */
  setProvenCheckpoint(number: number, atL1Block?: bigint): void {
    if (number > this.latestCheckpointNumber) {
      throw new Error(
        `cannot mark checkpoint ${number} proven: the latest checkpoint is ${this.latestCheckpointNumber}`,
      );
    }
    this.write(() => {
      this.meta.putSync('provenCheckpoint', number);
      if (atL1Block !== undefined) this.meta.putSync('provenAtL1Block', atL1Block.toString());
      if (this.finalizedCheckpoint > number) this.meta.putSync('finalizedCheckpoint', number);
    });
  }

  setFinalizedCheckpoint(number: number): void {
    if (number > this.provenCheckpoint) {
      throw new Error(
        `cannot finalize checkpoint ${number}: the proven checkpoint is ${this.provenCheckpoint}`,
      );
    }
    this.write(() => this.meta.putSync('finalizedCheckpoint', number));
  }

  /**
   * Sets the proven and finalized checkpoints, and the L1 block of the proof, as a dev snapshot
   * had them (a dev revert: the only change that moves the finalized tip back).
   */
  restoreProofTips(t: { proven: number; provenAtL1Block: bigint | undefined; finalized: number }): void {
    if (t.proven > this.latestCheckpointNumber || t.finalized > t.proven) {
      throw new Error(
        `cannot set proven ${t.proven} and finalized ${t.finalized}: the latest checkpoint is ${this.latestCheckpointNumber}`,
      );
    }
    this.write(() => {
      this.meta.putSync('provenCheckpoint', t.proven);
      if (t.provenAtL1Block === undefined) this.meta.removeSync('provenAtL1Block');
      else this.meta.putSync('provenAtL1Block', t.provenAtL1Block.toString());
      this.meta.putSync('finalizedCheckpoint', t.finalized);
    });
  }

  get provenCheckpoint(): number {
    return (this.meta.get('provenCheckpoint') as number | undefined) ?? 0;
  }

  get finalizedCheckpoint(): number {
    return (this.meta.get('finalizedCheckpoint') as number | undefined) ?? 0;
  }

  /** The L1 block of the proof of the proven checkpoint, if known. */
  get provenAtL1Block(): bigint | undefined {
    const at = this.meta.get('provenAtL1Block') as string | undefined;
    return at === undefined ? undefined : BigInt(at);
  }

  get l1SyncPoint(): L1SyncPoint | undefined {
    const point = this.meta.get('l1SyncPoint') as
      | { blockNumber: string; blockHash: string; timestamp: string }
      | undefined;
    return point === undefined
      ? undefined
      : {
          blockNumber: BigInt(point.blockNumber),
          blockHash: point.blockHash,
          timestamp: BigInt(point.timestamp),
        };
  }

  /** Records how far L1 has been read. */
  setL1SyncPoint(point: L1SyncPoint): void {
    this.write(() => this.putSyncPoint(point));
  }

  private putSyncPoint(point: L1SyncPoint): void {
    this.meta.putSync('l1SyncPoint', {
      blockNumber: point.blockNumber.toString(),
      blockHash: point.blockHash,
      timestamp: point.timestamp.toString(),
    });
  }

  getTips(): ChainTips {
    const latest = this.getBlock(this.latestBlockNumber)!;
    return {
      proposed: { number: latest.number, hash: latest.hash },
      checkpointed: this.tipAt(this.latestCheckpointNumber),
      proven: this.tipAt(this.provenCheckpoint),
      finalized: this.tipAt(this.finalizedCheckpoint),
    };
  }

  private tipAt(checkpointNumber: number): TipId {
    if (checkpointNumber === 0) {
      const genesis = this.getBlock(0)!;
      return {
        block: { number: 0, hash: genesis.hash },
        checkpoint: { number: 0, hash: GENESIS_CHECKPOINT_HEADER_HASH },
      };
    }
    const { checkpoint } = this.getCheckpoint(checkpointNumber)!;
    const lastBlock = checkpoint.startBlock + checkpoint.blockCount - 1;
    return {
      block: { number: lastBlock, hash: this.getBlock(lastBlock)!.hash } satisfies BlockId,
      checkpoint: { number: checkpoint.number, hash: checkpoint.hash },
    };
  }

  // ---- unwinding -----------------------------------------------------------------------------

  /**
   * Removes every block after `blockNumber` and every checkpoint holding one of them; returns
   * the removed blocks, newest first (their txs go back to the mempool).
   */
  unwindBlocksAfter(blockNumber: number): L2Block[] {
    const removed: L2Block[] = [];
    for (let n = this.latestBlockNumber; n > blockNumber; n--) removed.push(this.getBlock(n)!);
    if (removed.length === 0) return removed;
    this.write(() => this.removeBlocksFrom(blockNumber + 1));
    return removed;
  }

  /**
   * Unwinds to `lastKeptBlock` and moves the L1 sync point back to `restart`, forgetting the
   * messages of later L1 blocks, in one write: the next sync reads the removed checkpoints from
   * L1 again, and a crash never leaves blocks removed with the sync point past them.
   * Returns the removed blocks, newest first.
   */
  rewind(lastKeptBlock: number, restart: L1SyncPoint): L2Block[] {
    const removed: L2Block[] = [];
    for (let n = this.latestBlockNumber; n > lastKeptBlock; n--) removed.push(this.getBlock(n)!);
    this.write(() => {
      if (removed.length > 0) this.removeBlocksFrom(lastKeptBlock + 1);
      this.putSyncPoint(restart);
      this.messages.removeAfterL1BlockInWrite(restart.blockNumber);
    });
    return removed;
  }

  /** The last block of a stored checkpoint (0 for checkpoint 0, genesis). */
  lastBlockOfCheckpoint(checkpointNumber: number): number {
    if (checkpointNumber === 0) return 0;
    const { checkpoint } = this.getCheckpoint(checkpointNumber)!;
    return checkpoint.startBlock + checkpoint.blockCount - 1;
  }

  /** The number of the last checkpoint all of whose blocks are at or before `blockNumber`. */
  lastCheckpointUpTo(blockNumber: number): number {
    const block = this.getBlock(blockNumber);
    if (block === undefined) throw new RangeError(`block ${blockNumber} is not stored`);
    if (blockNumber === 0) return 0;
    if (block.checkpointNumber > this.latestCheckpointNumber) return this.latestCheckpointNumber;
    const c = block.checkpointNumber;
    return this.lastBlockOfCheckpoint(c) === blockNumber ? c : c - 1;
  }

  /** Removes every checkpoint after `checkpointNumber` and all of their blocks (a pruned epoch). */
  unwindCheckpointsAfter(checkpointNumber: number): L2Block[] {
    if (checkpointNumber >= this.latestCheckpointNumber) return [];
    return this.unwindBlocksAfter(this.lastBlockOfCheckpoint(checkpointNumber));
  }

  // ---- internals (inside a write) ---------------------------------------------------------------

  private putBlock(block: L2Block): void {
    this.blockCache.touch(block.number);
    const key = u32Key(block.number);
    this.blocks.putSync(key, encode(block));
    this.blockByHash.putSync(frToBuffer(block.hash), key);
    this.blockByArchive.putSync(frToBuffer(block.archive.root), key);
    block.body.txEffects.forEach((effect, i) => {
      const at = Buffer.allocUnsafe(6);
      at.writeUInt32BE(block.number, 0);
      at.writeUInt16BE(i, 4);
      this.txs.putSync(frToBuffer(effect.txHash), at);
    });
    this.logs.addBlock(block);
    this.contracts.addBlock(block);
  }

  /** Removes blocks from `first` on, and the checkpoints that held any of them. */
  private removeBlocksFrom(first: number): void {
    for (let n = this.latestBlockNumber; n >= first; n--) {
      const block = this.getBlock(n);
      if (!block) continue;
      this.blockCache.touch(n);
      this.blocks.removeSync(u32Key(n));
      this.blockByHash.removeSync(frToBuffer(block.hash));
      this.blockByArchive.removeSync(frToBuffer(block.archive.root));
      for (const effect of block.body.txEffects) this.txs.removeSync(frToBuffer(effect.txHash));
      this.logs.removeBlock(block);
      this.contracts.removeBlock(block);
    }
    this.meta.putSync('latestBlock', Math.min(this.latestBlockNumber, first - 1));
    let checkpoint = this.latestCheckpointNumber;
    while (checkpoint > 0) {
      const published = this.getCheckpoint(checkpoint)!;
      if (published.checkpoint.startBlock + published.checkpoint.blockCount - 1 < first) break;
      this.checkpointCache.touch(checkpoint);
      this.checkpoints.removeSync(u32Key(checkpoint));
      this.checkpointBySlot.removeSync(u32Key(published.checkpoint.header.slotNumber));
      checkpoint--;
    }
    this.meta.putSync('latestCheckpoint', checkpoint);
    if (this.provenCheckpoint > checkpoint) this.meta.putSync('provenCheckpoint', checkpoint);
    if (this.finalizedCheckpoint > checkpoint) this.meta.putSync('finalizedCheckpoint', checkpoint);
  }
}
