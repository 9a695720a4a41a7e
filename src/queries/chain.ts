// Answers about the chain from the archiver's store: which block or checkpoint a parameter
// names, and blocks and checkpoints in the shapes the API returns.

import type { ChainReader } from '../archiver/chain-reader.js';
import type { ChainTips, Checkpoint, PublishedCheckpoint } from '../archiver/types.js';
import type { L2Block } from '../core/block.js';
import { type L1RollupConstants, slotAt } from '../core/time.js';

export type BlockRef =
  | { kind: 'number'; number: number }
  | { kind: 'hash'; hash: bigint }
  | { kind: 'archive'; archive: bigint }
  | { kind: 'tag'; tag: 'proposed' | 'checkpointed' | 'proven' | 'finalized' }
  | { kind: 'anchored'; number: number; hash: bigint };

export type CheckpointRef =
  | { kind: 'number'; number: number }
  | { kind: 'slot'; slot: number }
  | { kind: 'tag'; tag: 'checkpointed' | 'proven' | 'finalized' };

/** Checkpoints by number range, from a slot (either way), or a whole epoch. */
export type CheckpointsQuery =
  | { kind: 'range'; from: number; limit: number }
  | { kind: 'slots'; fromSlot: number; limit: number; reverse: boolean }
  | { kind: 'epoch'; epoch: number };

export interface BlockOptions {
  includeTransactions?: boolean | undefined;
  includeL1PublishInfo?: boolean | undefined;
  includeAttestations?: boolean | undefined;
}

export interface CheckpointOptions extends BlockOptions {
  includeBlocks?: boolean | undefined;
}

/** What CheckpointResponse and CheckpointData share. */
function checkpointCommon(c: Checkpoint) {
  return {
    header: c.header,
    archive: c.archive,
    checkpointOutHash: c.checkpointOutHash,
    startBlock: c.startBlock,
    blockCount: c.blockCount,
    feeAssetPriceModifier: c.feeAssetPriceModifier,
  };
}

export class ChainQueries {
  constructor(
    private readonly store: ChainReader,
    private readonly constants: L1RollupConstants,
  ) {}

  /** The chain tips: proposed, checkpointed, proven, finalized. */
  tips(): ChainTips {
    return this.store.getTips();
  }

  /** The latest proposed block's number: the proposed tip's, without reading the other tips. */
  latestBlockNumber(): number {
    return this.store.latestBlockNumber;
  }

  blockNumberOf(ref: BlockRef): number | undefined {
    const { store } = this;
    switch (ref.kind) {
      case 'number':
        return ref.number <= store.latestBlockNumber ? ref.number : undefined;
      case 'hash':
      case 'anchored':
        return store.getBlockNumberByHash(ref.hash);
      case 'archive':
        return store.getBlockNumberByArchive(ref.archive);
      case 'tag': {
        const tips = store.getTips();
        return ref.tag === 'proposed' ? tips.proposed.number : tips[ref.tag].block.number;
      }
    }
  }

  block(ref: BlockRef): L2Block | undefined {
    const n = this.blockNumberOf(ref);
    return n === undefined ? undefined : this.store.getBlock(n);
  }

  /** The current set's BlockResponse: optional parts only as asked. */
  blockResponse(block: L2Block, options: BlockOptions = {}) {
    const published = this.publishedCheckpointOf(block);
    return {
      header: block.header,
      archive: block.archive,
      hash: block.hash,
      number: block.number,
      checkpointNumber: block.checkpointNumber,
      indexWithinCheckpoint: block.indexWithinCheckpoint,
      ...(options.includeTransactions ? { body: block.body } : {}),
      ...(options.includeL1PublishInfo ? { l1: this.l1Info(published) } : {}),
      ...(options.includeAttestations ? { attestations: published?.attestations ?? [] } : {}),
    };
  }

  /** Blocks from `from`, as many as exist up to `limit`. */
  blocks(from: number, limit: number): L2Block[] {
    const out: L2Block[] = [];
    for (let n = from; n < from + limit && n <= this.store.latestBlockNumber; n++)
      out.push(this.store.getBlock(n)!);
    return out;
  }

  /** Blocks from `from` (up to `limit`) as BlockResponses; with onlyCheckpointed, none past the checkpointed tip. */
  blockResponses(
    from: number,
    limit: number,
    options: BlockOptions & { onlyCheckpointed?: boolean | undefined } = {},
  ) {
    const checkpointed = this.store.getTips().checkpointed.block.number;
    return this.blocks(from, limit)
      .filter((b) => !options.onlyCheckpointed || b.number <= checkpointed)
      .map((b) => this.blockResponse(b, options));
  }

  checkpointNumberOf(ref: CheckpointRef): number | undefined {
    switch (ref.kind) {
      case 'number':
        return ref.number >= 1 && ref.number <= this.store.latestCheckpointNumber ? ref.number : undefined;
      case 'slot':
        return this.store.getCheckpointNumberBySlot(ref.slot);
      case 'tag': {
        const n = this.store.getTips()[ref.tag].checkpoint.number;
        return n === 0 ? undefined : n;
      }
    }
  }

  checkpointResponse(published: PublishedCheckpoint, options: CheckpointOptions = {}) {
    const c = published.checkpoint;
    return {
      number: c.number,
      ...checkpointCommon(c),
      ...(options.includeBlocks
        ? {
            blocks: this.blocks(c.startBlock, c.blockCount).map((b) =>
              this.blockResponse(b, { includeTransactions: options.includeTransactions }),
            ),
          }
        : {}),
      ...(options.includeL1PublishInfo ? { l1: this.l1Info(published) } : {}),
      ...(options.includeAttestations ? { attestations: published.attestations } : {}),
    };
  }

  /** The checkpoint a parameter names, as a CheckpointResponse; undefined when there is none. */
  checkpoint(ref: CheckpointRef, options: CheckpointOptions = {}) {
    const n = this.checkpointNumberOf(ref);
    const published = n === undefined ? undefined : this.store.getCheckpoint(n);
    return published && this.checkpointResponse(published, options);
  }

  /** Checkpoints from number `from`, as many as exist up to `limit`, as CheckpointResponses. */
  checkpointResponses(from: number, limit: number, options: CheckpointOptions = {}) {
    const out = [];
    for (let n = from; n < from + limit && n <= this.store.latestCheckpointNumber; n++)
      out.push(this.checkpointResponse(this.store.getCheckpoint(n)!, options));
    return out;
  }

  /** Checkpoints from number `from` (up to `limit`), as L1 took them, each with its blocks. */
  publishedCheckpoints(from: number, limit: number): { published: PublishedCheckpoint; blocks: L2Block[] }[] {
    const out = [];
    for (let n = from; n < from + limit && n <= this.store.latestCheckpointNumber; n++) {
      const published = this.store.getCheckpoint(n)!;
      out.push({
        published,
        blocks: this.blocks(published.checkpoint.startBlock, published.checkpoint.blockCount),
      });
    }
    return out;
  }

  /** Checkpointed blocks from `from` (up to `limit`), each with the checkpoint that holds it. */
  checkpointedBlocks(from: number, limit: number): { block: L2Block; published: PublishedCheckpoint }[] {
    const checkpointed = this.store.getTips().checkpointed.block.number;
    const out = [];
    for (const block of this.blocks(from, Math.min(limit, checkpointed - from + 1))) {
      const published = this.publishedCheckpointOf(block);
      if (published === undefined) break;
      out.push({ block, published });
    }
    return out;
  }

  /** Checkpoint metadata for a range, from a slot, or a whole epoch. */
  checkpointsData(query: CheckpointsQuery) {
    const { store } = this;
    if (query.kind === 'epoch')
      return this.checkpointsOfEpoch(query.epoch).map((p) => this.checkpointData(p));
    const numbers =
      query.kind === 'range'
        ? Array.from({ length: query.limit }, (_, i) => query.from + i).filter(
            (n) => n <= store.latestCheckpointNumber,
          )
        : store.checkpointNumbersFromSlot(query.fromSlot, query.limit, query.reverse);
    return numbers.map((n) => this.checkpointData(store.getCheckpoint(n)!));
  }

  checkpointData(published: PublishedCheckpoint) {
    const c = published.checkpoint;
    return {
      checkpointNumber: c.number,
      ...checkpointCommon(c),
      attestations: published.attestations,
      l1: published.l1,
    };
  }

  /** The checkpoints of an epoch, in order. */
  checkpointsOfEpoch(epoch: number): PublishedCheckpoint[] {
    return this.store.checkpointsOfEpoch(epoch, this.constants.epochDuration);
  }

  /** The timestamp of the latest L1 block read. */
  syncedL1Timestamp(): bigint | undefined {
    return this.store.l1SyncPoint?.timestamp;
  }

  /** The last L2 slot whose L1 data the node has read in full. */
  syncedSlot(): number | undefined {
    const point = this.store.l1SyncPoint;
    if (point === undefined) return undefined;
    const latest = this.store.getCheckpoint(this.store.latestCheckpointNumber);
    const bySync = slotAt(point.timestamp, this.constants);
    return Math.max(bySync, latest?.checkpoint.header.slotNumber ?? 0);
  }

  /** The last epoch all of whose slots are synced. */
  syncedEpoch(): number | undefined {
    const slot = this.syncedSlot();
    if (slot === undefined) return undefined;
    const epoch = Math.floor((slot + 1) / this.constants.epochDuration) - 1;
    return epoch >= 0 ? epoch : undefined;
  }

  private publishedCheckpointOf(block: L2Block): PublishedCheckpoint | undefined {
    if (block.number === 0 || block.checkpointNumber > this.store.latestCheckpointNumber) return undefined;
    const published = this.store.getCheckpoint(block.checkpointNumber);
    const c = published?.checkpoint;
    return c && block.number >= c.startBlock && block.number < c.startBlock + c.blockCount
      ? published
      : undefined;
  }

  private l1Info(published: PublishedCheckpoint | undefined) {
    return published ? { published: true as const, ...published.l1 } : { published: false as const };
  }
}
