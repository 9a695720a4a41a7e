// What the archiver keeps about the chain: checkpoints as published on L1, and the tips.

import type { TxEffect } from '../core/block.js';
import type { AppendOnlyTreeSnapshot, CheckpointHeader } from '../core/block-header.js';
import type { Fr } from '../core/field.js';

/** Where a tx effect is: its block and position. */
export interface IndexedTxEffect {
  l2BlockNumber: number;
  l2BlockHash: Fr;
  txIndexInBlock: number;
  slotNumber: number;
  data: TxEffect;
}

/** The L1 block the archiver has read up to. */
export interface L1SyncPoint {
  blockNumber: bigint;
  blockHash: string;
  timestamp: bigint;
}

/** Where and when a checkpoint was published on L1. */
export interface L1PublishedData {
  blockNumber: bigint;
  timestamp: bigint;
  /** `0x` + 64 hex. */
  blockHash: string;
}

/** A committee member's signature over a checkpoint (empty `0x` for a member that did not sign). */
export interface CommitteeAttestation {
  address: string;
  signature: string;
}

/** A checkpoint: the blocks one proposer built in one slot, published together on L1. */
export interface Checkpoint {
  number: number;
  header: CheckpointHeader;
  /** The archive tree after its last block. */
  archive: AppendOnlyTreeSnapshot;
  /** The hash of its header (checkpointHeaderHash). */
  hash: Fr;
  startBlock: number;
  blockCount: number;
  /** Basis points; 0 is a valid value. */
  feeAssetPriceModifier: bigint;
  /** The root of its out-hash tree (docs/messages.md, "Out-hash trees"). */
  checkpointOutHash: Fr;
}

export interface PublishedCheckpoint {
  checkpoint: Checkpoint;
  l1: L1PublishedData;
  attestations: CommitteeAttestation[];
}

export interface BlockId {
  number: number;
  hash: Fr;
}

export interface TipId {
  block: BlockId;
  checkpoint: { number: number; hash: Fr };
}

/** The chain tips (docs/chain.md, "Tips"): finalized ≤ proven ≤ checkpointed ≤ proposed. */
export interface ChainTips {
  proposed: BlockId;
  checkpointed: TipId;
  proven: TipId;
  finalized: TipId;
}
