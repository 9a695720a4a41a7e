// Shared fixtures of the ChainStore tests: tx effects by seed, published checkpoints of given
// blocks, and L1 sync points.
import type { L1SyncPoint, PublishedCheckpoint } from '../../src/archiver/types.js';
import type { L2Block, TxEffect } from '../../src/core/block.js';
import { emptyCheckpointHeader } from '../../src/core/block-header.js';
import { emptyTxEffect } from './test-chain.js';

/** A tx effect with hash 0x7000 + seed, fee seed, one note hash and one nullifier. */
export const storeTx = (seed: bigint): TxEffect =>
  emptyTxEffect(0x7000n + seed, { transactionFee: seed, noteHashes: [seed], nullifiers: [0x9000n + seed] });

/** An L1 sync point at `blockNumber` (its hash is the number, padded) with this timestamp. */
export const l1SyncPoint = (blockNumber: bigint, timestamp: bigint): L1SyncPoint => ({
  blockNumber,
  blockHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
  timestamp,
});

/** Checkpoint `number` of `blocks` (hash 1000 + number) in `slot`, as published in this L1 block. */
export function publishedCheckpoint(
  number: number,
  blocks: readonly L2Block[],
  options: {
    slot: number;
    l1: PublishedCheckpoint['l1'];
    attestations?: PublishedCheckpoint['attestations'];
  },
): PublishedCheckpoint {
  const last = blocks[blocks.length - 1]!;
  return {
    checkpoint: {
      number,
      header: {
        ...emptyCheckpointHeader(),
        slotNumber: options.slot,
        lastArchiveRoot: blocks[0]!.header.lastArchive.root,
      },
      archive: last.archive,
      hash: BigInt(1000 + number),
      startBlock: blocks[0]!.number,
      blockCount: blocks.length,
      feeAssetPriceModifier: 0n,
      checkpointOutHash: 0n,
    },
    l1: options.l1,
    attestations: options.attestations ?? [],
  };
}
