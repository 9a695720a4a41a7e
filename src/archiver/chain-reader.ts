// The read side of the chain store. The archiver is the only writer of the store (blocks from
// L1, proposed blocks handed to it, unwinds); every other component reads through ChainReader,
// so it cannot change the chain by accident and tests can stand in a small fake.
import type { L2Block } from '../core/block.js';
import type { Fr } from '../core/field.js';
import type { ReplayStart } from '../execution/block-builder.js';
import type { WorldStateFork } from '../world-state/types.js';
import type { ContractStore } from './contract-store.js';
import type { LogStore } from './log-store.js';
import type { MessageStore } from './message-store.js';
import type { ChainTips, IndexedTxEffect, L1SyncPoint, PublishedCheckpoint } from './types.js';

/** Published contract classes and instances, as indexed from blocks. */
export type ContractReader = Pick<ContractStore, 'getClass' | 'getInstance'>;
/** The log index: logs by tag, and the blocks that hold logs of a kind. */
export type LogReader = Pick<LogStore, 'scan' | 'blocksWith'>;
/** L1-to-L2 messages as the inbox emitted them. */
export type MessageReader = Pick<MessageStore, 'get'>;

export interface ChainReader {
  /** The latest block stored, proposed or checkpointed (0 is genesis). */
  readonly latestBlockNumber: number;
  readonly latestCheckpointNumber: number;
  readonly provenCheckpoint: number;
  readonly finalizedCheckpoint: number;
  /** The L1 block the archiver has read up to; undefined before the first sync. */
  readonly l1SyncPoint: L1SyncPoint | undefined;
  getTips(): ChainTips;
  getBlock(number: number): L2Block | undefined;
  getBlockNumberByHash(hash: Fr): number | undefined;
  getBlockNumberByArchive(root: Fr): number | undefined;
  getTxEffect(txHash: Fr): IndexedTxEffect | undefined;
  getCheckpoint(number: number): PublishedCheckpoint | undefined;
  getCheckpointNumberBySlot(slot: number): number | undefined;
  /** Up to `limit` checkpoint numbers from the one at or after (before, when `reverse`) `slot`. */
  checkpointNumbersFromSlot(slot: number, limit: number, reverse: boolean): number[];
  checkpointsOfEpoch(epoch: number, epochDuration: number): PublishedCheckpoint[];
  /** The checkpoint holding a block, when it is checkpointed. */
  checkpointOfBlock(blockNumber: number): number | undefined;
  readonly contracts: ContractReader;
  readonly logs: LogReader;
  readonly messages: MessageReader;
}

/**
 * What block producers (the sequencer, an attester replaying a proposal) may change in the chain.
 * The archiver is the one writer of the chain store and the world state, which move together:
 * producers hand it their blocks (built on a world-state fork, or to be re-executed) and it commits
 * the world state and stores the block in one step; they hold only a read view of the world state.
 */
export interface ProposedBlocks {
  /** Commits `fork` (on which this node built `block`) and stores the block; it must extend the chain. */
  appendBuiltBlock(fork: WorldStateFork, block: L2Block): Promise<void>;
  /**
   * Re-executes a proposed block on the latest world state at its place in its checkpoint; when
   * it rebuilds to its own header, commits and stores it (true); else nothing moves (false).
   * Effects that cannot be applied throw, and nothing moves.
   */
  replayProposedBlock(
    block: L2Block,
    at: { checkpointNumber: number; indexWithinCheckpoint: number },
    start: ReplayStart,
  ): Promise<boolean>;
  /** Drops proposed blocks after the checkpointed tip, from the chain and the world state. */
  dropUncheckpointedBlocks(): Promise<void>;
}
