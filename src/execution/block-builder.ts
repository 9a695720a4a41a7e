// Builds an L2 block on a world-state fork (docs/world-state.md): the checkpoint's
// L1-to-L2 messages (first block only, padded to 1024), each tx's note hashes (padded to 64),
// nullifiers (a 64-leaf subtree per tx) and public-data writes, then the header over the new
// tree snapshots, whose hash is appended to the archive tree.

import {
  L1_TO_L2_MESSAGES_PER_CHECKPOINT,
  type L2Block,
  spongeBlobHash,
  spongeBlobHashInSlices,
  type TxEffect,
} from '../core/block.js';
import {
  type AppendOnlyTreeSnapshot,
  type BlockHeader,
  blockHeaderHash,
  type GlobalVariables,
} from '../core/block-header.js';
import type { Fr } from '../core/field.js';
import { TreeId, type WorldStateFork } from '../world-state/types.js';

export interface BlockInput {
  globalVariables: GlobalVariables;
  txEffects: TxEffect[];
  checkpointNumber: number;
  indexWithinCheckpoint: number;
  /** The checkpoint's L1-to-L2 messages; given for the first block of a checkpoint only. */
  l1ToL2Messages?: readonly Fr[];
  /** The previous block's spongeBlobHash when it is in the same checkpoint. */
  previousSponge?: Fr;
  /** Mana used by the block's txs. */
  totalManaUsed: bigint;
}

const snapshotOf = (fork: WorldStateFork, tree: TreeId): AppendOnlyTreeSnapshot => fork.snapshot(tree);

/** Applies one tx's effect to the trees: note hashes (padded to 64), nullifiers, public data. */
export function applyTxEffect(fork: WorldStateFork, effect: TxEffect): void {
  fork.appendNoteHashes(effect.noteHashes);
  fork.insertNullifiers(effect.nullifiers);
  fork.writePublicData(effect.publicDataWrites.map((w) => ({ slot: w.leafSlot, value: w.value })));
}

/**
 * Builds one block on `fork` (which must be on the previous block), tx by tx, so that each tx
 * is executed against the state its predecessors left: `begin`, `addTx` for each effect, `finish`.
 */
export class BlockBuilder {
  private readonly txEffects: TxEffect[] = [];
  private readonly lastArchive: AppendOnlyTreeSnapshot;
  private finished = false;

  constructor(
    readonly fork: WorldStateFork,
    private readonly input: Omit<BlockInput, 'txEffects' | 'totalManaUsed'>,
  ) {
    const { globalVariables } = input;
    if (globalVariables.blockNumber !== fork.blockNumber + 1) {
      throw new Error(`block ${globalVariables.blockNumber} cannot be built on block ${fork.blockNumber}`);
    }
    const firstInCheckpoint = input.indexWithinCheckpoint === 0;
    if (firstInCheckpoint !== (input.l1ToL2Messages !== undefined)) {
      throw new Error("a checkpoint's L1-to-L2 messages go in its first block, and only there");
    }
    this.lastArchive = snapshotOf(fork, TreeId.ARCHIVE);
    if (input.l1ToL2Messages !== undefined) {
      if (input.l1ToL2Messages.length > L1_TO_L2_MESSAGES_PER_CHECKPOINT) {
        throw new RangeError(
          `a checkpoint takes at most ${L1_TO_L2_MESSAGES_PER_CHECKPOINT} L1-to-L2 messages`,
        );
      }
      const padded = [...input.l1ToL2Messages];
      while (padded.length < L1_TO_L2_MESSAGES_PER_CHECKPOINT) padded.push(0n);
      fork.appendLeaves(TreeId.L1_TO_L2_MESSAGE, padded);
    }
  }

  get txCount(): number {
    return this.txEffects.length;
  }

  addTx(effect: TxEffect): void {
    if (this.finished) throw new Error('the block is finished');
    applyTxEffect(this.fork, effect);
    this.txEffects.push(effect);
  }

  /**
   * Seals the block like `finish`, hashing the trees first in slices with `pause()` between them,
   * so that sealing a large block leaves room for other work (requests) on the event loop.
   */
  async finishInSlices(totalManaUsed: bigint, pause: () => Promise<void>): Promise<L2Block> {
    await this.fork.hashPendingInSlices(pause);
    const sponge = await spongeBlobHashInSlices(this.previousSponge(), this.txEffects, pause);
    return this.seal(totalManaUsed, sponge);
  }

  private previousSponge(): Fr {
    return this.input.indexWithinCheckpoint === 0 ? 0n : (this.input.previousSponge ?? 0n);
  }

  /** Seals the block: the header over the new tree snapshots, appended to the archive. */
  finish(totalManaUsed: bigint): L2Block {
    return this.seal(totalManaUsed, spongeBlobHash(this.previousSponge(), this.txEffects));
  }

  private seal(totalManaUsed: bigint, sponge: Fr): L2Block {
    if (this.finished) throw new Error('the block is finished');
    this.finished = true;
    const { fork, input, txEffects } = this;
    const header: BlockHeader = {
      lastArchive: this.lastArchive,
      state: {
        l1ToL2MessageTree: snapshotOf(fork, TreeId.L1_TO_L2_MESSAGE),
        partial: {
          noteHashTree: snapshotOf(fork, TreeId.NOTE_HASH),
          nullifierTree: snapshotOf(fork, TreeId.NULLIFIER),
          publicDataTree: snapshotOf(fork, TreeId.PUBLIC_DATA),
        },
      },
      spongeBlobHash: sponge,
      globalVariables: input.globalVariables,
      totalFees: txEffects.reduce((sum, e) => sum + e.transactionFee, 0n),
      totalManaUsed,
    };
    const hash = blockHeaderHash(header);
    fork.appendLeaves(TreeId.ARCHIVE, [hash]);
    return {
      number: input.globalVariables.blockNumber,
      hash,
      header,
      archive: snapshotOf(fork, TreeId.ARCHIVE),
      body: { txEffects },
      checkpointNumber: input.checkpointNumber,
      indexWithinCheckpoint: input.indexWithinCheckpoint,
    };
  }
}

/** Applies a block whose tx effects are known (e.g. from L1) to `fork` and returns it. */
export function buildBlock(fork: WorldStateFork, input: BlockInput): L2Block {
  const { txEffects, totalManaUsed, ...rest } = input;
  const builder = new BlockBuilder(fork, rest);
  for (const effect of txEffects) builder.addTx(effect);
  return builder.finish(totalManaUsed);
}

/** Where a replayed block starts: a checkpoint's first block takes its messages, a later one the sponge before it. */
export type ReplayStart = { l1ToL2Messages: readonly Fr[] } | { previousSponge: Fr };

/**
 * Rebuilds a block from its header's globals and its tx effects on `fork` (a fork of the world
 * state's latest block): whether it hashes to the block's own header. The caller commits the fork
 * (the archiver: the one writer of the chain and the world state). Effects that cannot be applied
 * throw.
 */
export function replaysTo(
  fork: WorldStateFork,
  block: L2Block,
  at: { checkpointNumber: number; indexWithinCheckpoint: number },
  start: ReplayStart,
): boolean {
  const rebuilt = buildBlock(fork, {
    globalVariables: block.header.globalVariables,
    txEffects: block.body.txEffects,
    ...at,
    ...start,
    totalManaUsed: block.header.totalManaUsed,
  });
  return rebuilt.hash === block.hash;
}
