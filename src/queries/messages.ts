// Messages between L1 and L2 (docs/messages.md): where an L1-to-L2 message is
// (its leaf index, the checkpoint and block that insert it, its witness in the L1-to-L2 tree), and
// the L2-to-L1 messages of blocks and epochs with their witnesses against the outbox root that
// L1 holds as of the node's synced L1 block.
import type { ChainReader } from '../archiver/chain-reader.js';
import { checkpointOfMessageIndex } from '../archiver/message-store.js';
import type { PublishedCheckpoint } from '../archiver/types.js';
import { invalidParams } from '../core/errors.js';
import { type Fr, toHex32 } from '../core/field.js';
import {
  buildL2ToL1EpochTree,
  type L2ToL1MembershipWitness,
  resolveL2ToL1MessageIndex,
  smallestCoveringNumCheckpoints,
} from '../core/out-hash.js';
import { epochOfSlot, type L1RollupConstants } from '../core/time.js';
import type { BlockRef } from './chain.js';
import type { MembershipWitnessResult, StateQueries } from './state.js';

/** What the queries read from L1: the outbox's roots of an epoch as of an L1 block. */
export interface OutboxReader {
  outboxEpochRoots(epoch: number, atL1Block: bigint): Promise<bigint[]>;
}

export class MessageQueries {
  constructor(
    private readonly chain: ChainReader,
    private readonly state: StateQueries,
    private readonly outbox: OutboxReader,
    private readonly constants: Pick<L1RollupConstants, 'epochDuration'>,
  ) {}

  /** The checkpoint whose first block inserts the message; undefined for a message L1 never sent. */
  l1ToL2MessageCheckpoint(message: Fr): number | undefined {
    const known = this.chain.messages.get(message);
    return known === undefined ? undefined : checkpointOfMessageIndex(known.index);
  }

  /** Whether the node has seen the message on L1 (it may not be in the tree yet). */
  isL1ToL2MessageSynced(message: Fr): boolean {
    return this.chain.messages.get(message) !== undefined;
  }

  /** The block that inserts the message: the first block of its checkpoint, once that exists. */
  l1ToL2MessageBlock(message: Fr): number | undefined {
    const checkpoint = this.l1ToL2MessageCheckpoint(message);
    if (checkpoint === undefined) return undefined;
    const published = this.chain.getCheckpoint(checkpoint);
    if (published !== undefined) return published.checkpoint.startBlock;
    // A checkpoint still being built: its blocks are proposed but not on L1 yet.
    for (let n = this.chain.latestBlockNumber; n > 0; n--) {
      const block = this.chain.getBlock(n)!;
      if (block.checkpointNumber < checkpoint) return undefined;
      if (block.checkpointNumber === checkpoint && block.indexWithinCheckpoint === 0) return n;
    }
    return undefined;
  }

  /** The message's leaf index and sibling path in the L1-to-L2 tree as of the reference block. */
  l1ToL2MessageMembershipWitness(ref: BlockRef, message: Fr): MembershipWitnessResult | undefined {
    return this.state.l1ToL2MessageMembershipWitness(ref, message);
  }

  /** The L2-to-L1 messages of a block, per tx; undefined for a block the chain does not have. */
  l2ToL1MessagesOfBlock(blockNumber: number): Fr[][] | undefined {
    return this.chain.getBlock(blockNumber)?.body.txEffects.map((e) => e.l2ToL1Msgs);
  }

  /** The L2-to-L1 messages of an epoch's checkpointed blocks: checkpoints → blocks → txs → messages. */
  l2ToL1Messages(epoch: number): Fr[][][][] {
    return this.messagesOf(this.chain.checkpointsOfEpoch(epoch, this.constants.epochDuration));
  }

  private messagesOf(checkpoints: readonly PublishedCheckpoint[]): Fr[][][][] {
    return checkpoints.map(({ checkpoint }) => {
      const blocks: Fr[][][] = [];
      for (let n = checkpoint.startBlock; n < checkpoint.startBlock + checkpoint.blockCount; n++) {
        blocks.push(this.l2ToL1MessagesOfBlock(n)!);
      }
      return blocks;
    });
  }

  /**
   * The witness of an L2-to-L1 message of a tx against the smallest outbox root (as of the synced
   * L1 block) that covers the tx's checkpoint; undefined while the tx is not checkpointed or no
   * such root has landed on L1.
   */
  async l2ToL1MembershipWitness(
    txHash: Fr,
    message: Fr,
    messageIndexInTx?: number,
  ): Promise<L2ToL1MembershipWitness | undefined> {
    const indexed = this.chain.getTxEffect(txHash);
    if (indexed === undefined) return undefined;
    let index: number;
    try {
      index = resolveL2ToL1MessageIndex(indexed.data.l2ToL1Msgs, message, messageIndexInTx);
    } catch (err) {
      throw invalidParams((err as Error).message);
    }
    const checkpointNumber = this.chain.checkpointOfBlock(indexed.l2BlockNumber);
    const syncPoint = this.chain.l1SyncPoint;
    if (checkpointNumber === undefined || checkpointNumber === 0 || syncPoint === undefined) return undefined;
    const published = this.chain.getCheckpoint(checkpointNumber)!;
    const epoch = epochOfSlot(published.checkpoint.header.slotNumber, this.constants);
    const checkpoints = this.chain.checkpointsOfEpoch(epoch, this.constants.epochDuration);
    const checkpointIndex = checkpoints.findIndex((c) => c.checkpoint.number === checkpointNumber);
    const roots = await this.outbox.outboxEpochRoots(epoch, syncPoint.blockNumber);
    const covering = smallestCoveringNumCheckpoints(roots, checkpointIndex);
    if (covering === undefined) return undefined;
    if (covering > checkpoints.length) {
      throw new Error(
        `the outbox has a root over ${covering} checkpoints of epoch ${epoch}, but the node has ${checkpoints.length}`,
      );
    }
    const tree = buildL2ToL1EpochTree(this.messagesOf(checkpoints), covering);
    const onL1 = roots[covering - 1]!;
    if (tree.root !== onL1) {
      throw new Error(
        `Local epoch out-hash does not match Outbox: epoch ${epoch}, ${covering} checkpoints, local ${toHex32(tree.root)}, outbox ${toHex32(onL1)}`,
      );
    }
    const block = this.chain.getBlock(indexed.l2BlockNumber)!;
    return {
      epochNumber: epoch,
      ...tree.witness({
        checkpointIndex,
        blockIndex: block.indexWithinCheckpoint,
        txIndex: indexed.txIndexInBlock,
        messageIndexInTx: index,
      }),
    };
  }
}
