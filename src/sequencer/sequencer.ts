// The sequencer: in a slot whose proposer is one of this node's validators, builds the
// checkpoint's blocks (each applied to the world state and stored as proposed), signs it with
// every local committee member, and publishes it — with its body — to L1.
import type { Logger } from 'pino';
import type { Hash, Hex } from 'viem';
import type { ChainReader, ProposedBlocks } from '../archiver/chain-reader.js';
import type { L2Block, TxEffect } from '../core/block.js';
import {
  checkpointHeaderHash,
  emptyCheckpointHeader,
  type GasFees,
  type GlobalVariables,
} from '../core/block-header.js';
import {
  BLOCK_BODY_OVERHEAD_BYTES,
  CHECKPOINT_BODY_OVERHEAD_BYTES,
  encodeCheckpointBodyInSlices,
  MAX_CHECKPOINT_BODY_BYTES,
  txEffectBodyBytesBound,
} from '../core/checkpoint-body.js';
import type { Fr } from '../core/field.js';
import { accumulateCheckpointOutHashes, computeCheckpointOutHash } from '../core/out-hash.js';
import { epochOfSlot, type L1RollupConstants, slotAt, slotStart } from '../core/time.js';
import { expiredFor, type Tx } from '../core/tx.js';
import { BlockBuilder } from '../execution/block-builder.js';
import { ContractsInBlock } from '../execution/contracts-in-block.js';
import {
  type ExecutionOptions,
  executeTx,
  TxExecutionError,
  type TxExecutionResult,
} from '../execution/executor.js';
import type { ProposerL1 } from '../l1/roles.js';
import type { CommitteeView } from '../validators/committee.js';
import type { Validator } from '../validators/keystore.js';
import type { CheckpointToAttest } from '../validators/validator-client.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import { FinishTimeEstimate } from './finish-estimate.js';
import { L1BlockClock } from './l1-clock.js';

/** Where the sequencer takes txs from: the mempool. */
export interface TxSource {
  /** Pending txs, best first (highest priority fee). */
  pending(): Iterable<{ hash: Fr; tx: Tx }>;
  /** A tx that can never be included (its execution failed) leaves the pool. */
  reject(hash: Fr, reason: string): void;
  /** A tx went into a block with its app logic or teardown reverted: the reason, for its receipt. */
  reverted(hash: Fr, reason: string): void;
}

/**
 * Effects with nothing to execute that go first into the next block built: the dev methods'
 * storage writes (src/node/dev-writes.ts). An effect a block of the chain holds is not offered.
 */
export interface QueuedEffects {
  take(): TxEffect[];
}

/** The min fees per gas of a slot's blocks. */
export interface BlockFeeSource {
  minFeesAt(slot: number): Promise<GasFees>;
}

/** How the sequencer reaches the committee: announce blocks, gather attestations (the validator client). */
export interface Consensus {
  announceBlock(block: L2Block, slot: number, proposer: Validator): Promise<void>;
  gatherAttestations(c: CheckpointToAttest): Promise<Hex[] | undefined>;
  /**
   * Holds bulk work (the validation of gossiped txs) until the returned release is called: a
   * proposal has a deadline in its slot, a flood of txs does not.
   */
  holdBulkWork(): () => void;
}

/** Casts a slot proposer's vote on slash payloads (the slash voter). */
export interface SlashingVotes {
  vote(slot: number, proposer: Validator): Promise<Hash | undefined>;
}

/** DA gas a checkpoint can carry: its blob space (6 blobs of 4096 fields, 32 gas per field). */
export const MAX_DA_GAS_PER_CHECKPOINT = 6 * 4096 * 32;

/**
 * Txs in a row that did not fit the checkpoint's room after all, before the block is closed: a
 * full checkpoint then costs a few executions more, not one per pending tx.
 */
export const MAX_MISSES_IN_A_ROW = 16;

/** Share of the time left until the proposal must be sent that block building may take; the
 * rest is for the committee's attestations (attesters re-execute the blocks) and sending. */
const BUILD_SHARE = 0.5;

/** Building yields to the event loop this often (ms), so requests are answered meanwhile. */
const YIELD_EVERY_MS = 10;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SequencerOptions {
  rollup: ProposerL1;
  /** Read only: blocks are built on its forks, which the archiver commits (appendBuiltBlock). */
  worldState: ReadableWorldState;
  chain: ChainReader;
  /** Where built blocks go (the archiver, the chain store's only writer). */
  proposedBlocks: ProposedBlocks;
  validators: readonly Validator[];
  constants: L1RollupConstants;
  chainId: number;
  rollupVersion: number;
  maxBlocksPerCheckpoint: number;
  /** The settings an operator may change while the node runs (svcAdmin_setConfig). */
  settings: SequencerSettings;
  /** The network's execution rules (class update delay, Fee Juice portal). */
  execution?: ExecutionOptions;
  txs: TxSource;
  fees: BlockFeeSource;
  committee: CommitteeView;
  consensus: Consensus;
  /** Votes on slash payloads in the slots this node proposes; none when the rollup has no Slasher. */
  slashing?: SlashingVotes | undefined;
  /** Longest wait for the committee's attestations (shortened so the proposal still lands in its slot). */
  attestationTimeoutMs: number;
  /**
   * Whether L1 time follows the wall clock (realtime: anvil mines every ethereumSlotDuration
   * seconds), so that building and sending have a wall-clock deadline. Default: no (manual).
   */
  realtime?: () => boolean;
  /** Wall-clock milliseconds (tests move it). Default: Date.now. */
  wallClock?: () => number;
  logger: Logger;
}

/** When, in wall-clock milliseconds, block building must stop and the proposal be sent. */
export interface SlotDeadlines {
  buildBy: number;
  sendBy: number;
}

export interface SequencerSettings {
  minTxsPerBlock: number;
  maxTxsPerBlock: number;
  /** Coinbase of validators whose keystore entry names none (else the attester's address). */
  coinbase?: string | undefined;
  /** Fee recipient of validators whose keystore entry names none (else 0). */
  feeRecipient?: bigint | undefined;
}

export type SequencerOutcome =
  | {
      kind:
        | 'paused'
        | 'not-proposer'
        | 'slot-taken'
        | 'not-synced'
        | 'no-txs'
        | 'slot-ending'
        | 'no-quorum'
        | 'too-late';
      slot: number;
    }
  | { kind: 'published'; slot: number; checkpointNumber: number; blocks: number[]; txHash: Hash }
  | { kind: 'pruning'; slot: number; txHash: Hash };

/** The slots a sequencer last acted in, so that it acts once per slot. */
export interface SlotsActedIn {
  sent: number;
  pruned: number;
  voted: number;
}

export class Sequencer {
  private paused = false;
  /** The slot of the last proposal sent, so a slot is proposed for once. */
  private sentForSlot = -1;
  /** How long finishing a checkpoint takes per tx (realtime only): where building must stop. */
  private readonly finishTime = new FinishTimeEstimate();
  /** When the L1 blocks seen were mined (realtime only): the send deadline counts from there. */
  private readonly l1Clock = new L1BlockClock();
  /** The slot in which a prune was sent, so it is sent once. */
  private prunedInSlot = -1;
  /** The slot of the last slashing vote, so a slot gets one. */
  private votedInSlot = -1;

  private settings: SequencerSettings;
  private validators: readonly Validator[];
  private queued: QueuedEffects | undefined;

  constructor(private readonly o: SequencerOptions) {
    this.settings = { ...o.settings };
    this.validators = o.validators;
  }

  /** Applies changed settings from the next block on. */
  configure(settings: Partial<SequencerSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  /** Replaces the validator keys (a keystore reload), from the next slot on. */
  setValidators(validators: readonly Validator[]): void {
    this.validators = validators;
  }

  /** The L1 address and L2 fee recipient credited for a validator's blocks. */
  private beneficiaries(v: Validator): { coinbase: string; feeRecipient: bigint } {
    return {
      coinbase: v.coinbase ?? this.settings.coinbase ?? v.attester.address.toLowerCase(),
      feeRecipient: v.feeRecipient ?? this.settings.feeRecipient ?? 0n,
    };
  }

  /** Puts the effects `source` offers first into each block it builds (the dev methods' writes). */
  setQueuedEffects(source: QueuedEffects): void {
    this.queued = source;
  }

  /** The slots it last proposed, pruned and voted in (a dev snapshot keeps them). */
  slotsActedIn(): SlotsActedIn {
    return { sent: this.sentForSlot, pruned: this.prunedInSlot, voted: this.votedInSlot };
  }

  /** Puts back what a dev snapshot kept: a dev revert takes L1 time back to the snapshot's slot. */
  restoreSlotsActedIn(slots: SlotsActedIn): void {
    this.sentForSlot = slots.sent;
    this.prunedInSlot = slots.pruned;
    this.votedInSlot = slots.voted;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /**
   * Acts for the slot of the latest L1 block (at `now`), if the next L1 block (at `next`) is
   * still in it — the proposal has to land in its slot.
   */
  async work(now: bigint, next: bigint): Promise<SequencerOutcome> {
    const { rollup, constants } = this.o;
    const slot = slotAt(now, constants);
    if (this.o.realtime?.()) this.l1Clock.observe(now, this.wall());
    if (this.paused) return { kind: 'paused', slot };
    if (slotAt(next, constants) !== slot) return { kind: 'slot-ending', slot };
    if (slot === this.sentForSlot || slot === 0) return { kind: 'slot-taken', slot };
    // Whose slot it is first: the proposer is read once per slot, the rollup's latest checkpoint
    // would be two L1 reads in every pass of a node that is not proposing (hundreds of ms of a
    // loaded node's pass, which an attestation may be waiting behind).
    const proposer = await this.o.committee.proposer(slot);
    const me = this.validators.find((v) => v.attester.address.toLowerCase() === proposer);
    if (!me) return { kind: 'not-proposer', slot };
    const pending = await rollup.pendingCheckpointNumber();
    const lastSlot = pending === 0 ? 0 : (await rollup.checkpoint(pending)).slot;
    if (slot <= lastSlot) return { kind: 'slot-taken', slot };
    const release = this.o.consensus.holdBulkWork();
    let outcome: SequencerOutcome;
    try {
      outcome = await this.propose(slot, me, pending, now, next);
    } finally {
      release();
    }
    // The proposal goes first: it is the one that must make the slot.
    await this.voteOnSlashing(slot, me);
    return outcome;
  }

  /** The slot's slashing vote, once per slot; a vote that fails is logged, never fatal. */
  private async voteOnSlashing(slot: number, me: Validator): Promise<void> {
    if (this.o.slashing === undefined || this.votedInSlot === slot) return;
    this.votedInSlot = slot;
    try {
      await this.o.slashing.vote(slot, me);
    } catch (err) {
      this.o.logger.warn(`slot ${slot}: slashing vote not sent: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  private wall(): number {
    return this.o.wallClock?.() ?? Date.now();
  }

  /**
   * With the realtime clock, the wall-clock deadlines of a slot whose latest L1 block is at `now`
   * (seen just now) and whose next one is at `next`: the proposal must be sent before the slot's
   * last L1 block is mined (counted from when the latest block was mined, not from when it was
   * seen; less a margin for sending), and building gets a share of that time.
   * Undefined with the manual clock: L1 time stands still while the node works.
   */
  slotDeadlines(slot: number, now: bigint, next: bigint): SlotDeadlines | undefined {
    if (!this.o.realtime?.()) return undefined;
    const { constants } = this.o;
    const blockTime = BigInt(Math.max(1, constants.ethereumSlotDuration));
    const slotEnd = slotStart(slot + 1, constants);
    const lastBlockOfSlot = next + ((slotEnd - 1n - next) / blockTime) * blockTime;
    const margin = Math.max(500, (Number(blockTime) * 1000) / 2);
    const seen = this.wall();
    const minedAt = this.l1Clock.minedAt(now, seen, Number(blockTime) * 1000);
    const sendBy = minedAt + Number(lastBlockOfSlot - now) * 1000 - margin;
    return { buildBy: seen + Math.max(0, sendBy - seen) * BUILD_SHARE, sendBy };
  }

  /**
   * When building must stop for a block that would hold `txs` txs: early enough to finish them by
   * the send deadline, as learned from earlier checkpoints; before anything is learned, at the
   * slot's building share.
   */
  private buildBy(deadlines: SlotDeadlines, txs: number): number {
    const finishing = this.finishTime.predict(txs);
    return finishing === undefined ? deadlines.buildBy : deadlines.sendBy - finishing;
  }

  /** Builds and publishes the checkpoint of `slot` as `me`, its proposer. */
  private async propose(
    slot: number,
    me: Validator,
    pending: number,
    now: bigint,
    next: bigint,
  ): Promise<SequencerOutcome> {
    const { rollup, chain, proposedBlocks, worldState, constants, logger } = this.o;
    const began = this.wall();
    const deadlines = this.slotDeadlines(slot, now, next);
    // Checkpoints past their proof window go first: a proposal would prune them itself, and the
    // node must unwind them (through the archiver, when the prune lands) before building on L1.
    // This comes before the sync check: a node that cannot sync some checkpoint L1 holds (an L1
    // whose state is ahead of the events it can read) gets going again once it can be pruned.
    if (await rollup.canPruneAtTime(next)) {
      if (this.prunedInSlot === slot) return { kind: 'not-synced', slot };
      this.prunedInSlot = slot;
      const txHash = await rollup.prune(me.publisher);
      logger.warn(
        `unproven checkpoints after ${await rollup.provenCheckpointNumber()} are past their proof window: pruning them`,
      );
      return { kind: 'pruning', slot, txHash };
    }
    if (chain.latestCheckpointNumber !== pending) return { kind: 'not-synced', slot };

    // Blocks proposed earlier that never made it into a checkpoint are dropped first.
    await proposedBlocks.dropUncheckpointedBlocks();

    const n = pending + 1;
    const messages = await rollup.l1ToL2Messages(n);
    const timestamp = slotStart(slot, constants);
    const gasFees = await this.o.fees.minFeesAt(slot);
    const blocks: L2Block[] = [];
    const credited = this.beneficiaries(me);
    // Time spent after building (sealing, committing, encoding, attestations), and over how many txs.
    let finishMs = 0;
    // The finishing time by step, for the log: which step grows when finishing slows.
    const steps = { seal: 0, commit: 0, encode: 0, attest: 0 };
    let buildMs = 0;
    let txCount = 0;
    const used = new Set<Fr>();
    const budget = {
      mana: BigInt(constants.rollupManaLimit),
      daGas: MAX_DA_GAS_PER_CHECKPOINT,
      bodyBytes: MAX_CHECKPOINT_BODY_BYTES - CHECKPOINT_BODY_OVERHEAD_BYTES,
    };
    for (let i = 0; i < this.o.maxBlocksPerCheckpoint; i++) {
      if (deadlines !== undefined && this.wall() >= deadlines.buildBy) break;
      const fork = worldState.fork();
      const globalVariables: GlobalVariables = {
        chainId: BigInt(this.o.chainId),
        version: BigInt(this.o.rollupVersion),
        blockNumber: worldState.latestBlockNumber + 1,
        slotNumber: slot,
        timestamp,
        ...credited,
        gasFees,
      };
      const builder = new BlockBuilder(fork, {
        globalVariables,
        checkpointNumber: n,
        indexWithinCheckpoint: i,
        ...(i === 0
          ? { l1ToL2Messages: messages }
          : { previousSponge: blocks[i - 1]!.header.spongeBlobHash }),
      });
      budget.bodyBytes -= BLOCK_BODY_OVERHEAD_BYTES;
      for (const effect of this.queued?.take() ?? []) {
        builder.addTx(effect);
        budget.bodyBytes -= txEffectBodyBytesBound(effect);
      }
      const buildStart = this.wall();
      const { manaUsed, reverted, full } = await this.fillBlock(
        builder,
        globalVariables,
        used,
        budget,
        deadlines,
      );
      const finishStart = this.wall();
      buildMs += finishStart - buildStart;
      if (builder.txCount < this.settings.minTxsPerBlock || (i > 0 && builder.txCount === 0)) break;
      // Sealing, committing and storing a large block each take tens of milliseconds: requests
      // waiting meanwhile are answered between the steps.
      const block = await builder.finishInSlices(manaUsed, yieldToEventLoop);
      await yieldToEventLoop();
      const commitStart = this.wall();
      steps.seal += commitStart - finishStart;
      // The archiver commits the world state and stores the block together (the one writer).
      await proposedBlocks.appendBuiltBlock(fork, block);
      await yieldToEventLoop();
      steps.commit += this.wall() - commitStart;
      for (const r of reverted) this.o.txs.reverted(r.hash, r.reason);
      blocks.push(block);
      await this.o.consensus.announceBlock(block, slot, me);
      finishMs += this.wall() - finishStart;
      txCount += builder.txCount;
      // A checkpoint with no room left, or out of building time, takes no more blocks.
      if (full) break;
    }
    if (blocks.length === 0) return { kind: 'no-txs', slot };

    // The epoch out hash so far: this epoch's earlier checkpoints, then this one.
    const epoch = epochOfSlot(slot, constants);
    const outHashes = chain
      .checkpointsOfEpoch(epoch, constants.epochDuration)
      .map((p) => p.checkpoint.checkpointOutHash);
    outHashes.push(computeCheckpointOutHash(blocks.map((b) => b.body.txEffects.map((t) => t.l2ToL1Msgs))));
    const last = blocks[blocks.length - 1]!;
    const header = {
      ...emptyCheckpointHeader(),
      lastArchiveRoot: blocks[0]!.header.lastArchive.root,
      inHash: await rollup.inboxRoot(n),
      epochOutHash: accumulateCheckpointOutHashes(outHashes),
      slotNumber: slot,
      timestamp,
      ...credited,
      gasFees,
      totalManaUsed: blocks.reduce((sum, b) => sum + b.header.totalManaUsed, 0n),
    };
    const headerHash = checkpointHeaderHash(header);
    const encodeStart = this.wall();
    const body = await encodeCheckpointBodyInSlices({ header, blocks }, yieldToEventLoop);
    const attestStart = this.wall();
    steps.encode = attestStart - encodeStart;
    // The proposal has to be mined in this slot: stop waiting in time to send it (realtime), or a
    // block before the slot ends (manual: L1 time only moves when mined).
    const slotLeftMs = Number(slotStart(slot + 1, constants) - next - 1n) * 1000;
    const attestationDeadline =
      deadlines === undefined
        ? Date.now() + Math.max(0, Math.min(this.o.attestationTimeoutMs, slotLeftMs))
        : Math.min(this.wall() + this.o.attestationTimeoutMs, deadlines.sendBy);
    const attestations = await this.o.consensus.gatherAttestations({
      checkpointNumber: n,
      slot,
      archive: last.archive.root,
      headerHash,
      header,
      body,
      proposer: me,
      committee: await this.o.committee.committee(epoch),
      deadline: attestationDeadline,
    });
    finishMs += this.wall() - encodeStart;
    steps.attest = this.wall() - attestStart;
    if (deadlines !== undefined) this.finishTime.observe(txCount, finishMs);
    const stepList = Object.entries(steps)
      .map(([step, ms]) => `${step} ${ms}`)
      .join(', ');
    // With the realtime clock, also how much of the slot was left when this began, and for the
    // attestations: a late start, not slow work, can be what costs a slot.
    const slack =
      deadlines === undefined
        ? ''
        : `; begun ${deadlines.sendBy - began} ms before the send deadline, ${Math.max(0, attestationDeadline - attestStart)} ms left for attestations`;
    const timing = `${txCount} txs built in ${buildMs} ms, finished in ${finishMs} ms: ${stepList}${slack}`;
    if (attestations === undefined) {
      this.sentForSlot = slot;
      logger.warn(`checkpoint ${n} (slot ${slot}) not sent: no quorum (${timing})`);
      return { kind: 'no-quorum', slot };
    }
    // A proposal that can no longer be mined in its slot is not sent: L1 would refuse it, and
    // its blocks are dropped when the next checkpoint is built.
    if (deadlines !== undefined && this.wall() > deadlines.sendBy) {
      this.sentForSlot = slot;
      logger.warn(
        `checkpoint ${n} (slot ${slot}) was ready ${this.wall() - deadlines.sendBy} ms too late to land in its slot: not sent (${timing})`,
      );
      return { kind: 'too-late', slot };
    }
    await yieldToEventLoop();
    const txHash = await rollup.propose(me.publisher, {
      checkpointNumber: n,
      slot,
      archive: last.archive.root,
      headerHash,
      totalManaUsed: header.totalManaUsed,
      outHash: header.epochOutHash,
      inHash: header.inHash,
      attestations,
      body,
    });
    this.sentForSlot = slot;
    logger.info(
      `checkpoint ${n} (slot ${slot}, blocks ${blocks[0]!.number}..${last.number}) sent to L1 by ${me.attester.address} (${timing})`,
    );
    return { kind: 'published', slot, checkpointNumber: n, blocks: blocks.map((b) => b.number), txHash };
  }

  /**
   * Executes pending txs in priority order into the block until it holds maxTxsPerBlock, the
   * pool is exhausted, building time is up (`buildBy`), or MAX_MISSES_IN_A_ROW executed txs in a
   * row did not fit the checkpoint's room (mana, DA gas, body bytes): never the whole pool. A tx
   * that cannot pay this slot's fees, has expired or does not fit waits; one whose execution
   * fails leaves the pool. `full` says the checkpoint should take no more blocks. Yields to the
   * event loop every few milliseconds.
   */
  private async fillBlock(
    builder: BlockBuilder,
    globals: GlobalVariables,
    used: Set<Fr>,
    budget: { mana: bigint; daGas: number; bodyBytes: number },
    deadlines: SlotDeadlines | undefined,
  ): Promise<{ manaUsed: bigint; reverted: { hash: Fr; reason: string }[]; full: boolean }> {
    let manaUsed = 0n;
    const reverted: { hash: Fr; reason: string }[] = [];
    let misses = 0;
    let full = false;
    let yieldedAt = this.wall();
    // Contracts the block's earlier txs published can be called by its later ones.
    const base = this.o.execution?.contracts;
    const inBlock = base && new ContractsInBlock(base);
    const execution = { ...this.o.execution, contracts: inBlock };
    for (const { hash, tx } of this.o.txs.pending()) {
      if (builder.txCount >= this.settings.maxTxsPerBlock) break;
      const wall = this.wall();
      if (deadlines !== undefined && wall >= this.buildBy(deadlines, builder.txCount + 1)) {
        full = true;
        break;
      }
      if (wall - yieldedAt >= YIELD_EVERY_MS) {
        await yieldToEventLoop();
        yieldedAt = this.wall();
      }
      if (used.has(hash)) continue;
      const max = tx.data.constants.txContext.gasSettings.maxFeesPerGas;
      if (max.feePerL2Gas < globals.gasFees.feePerL2Gas || max.feePerDaGas < globals.gasFees.feePerDaGas)
        continue;
      if (expiredFor(tx.data.expirationTimestamp, globals.blockNumber, globals.timestamp)) continue;
      let result: TxExecutionResult;
      try {
        result = executeTx(builder.fork, tx, hash, globals, execution);
      } catch (err) {
        if (!(err instanceof TxExecutionError)) throw err;
        used.add(hash);
        this.o.txs.reject(hash, err.reason);
        continue;
      }
      const billed = result.gasUsed.billedGas;
      const bodyBytes = txEffectBodyBytesBound(result.effect);
      if (BigInt(billed.l2Gas) > budget.mana || billed.daGas > budget.daGas || bodyBytes > budget.bodyBytes) {
        if (++misses >= MAX_MISSES_IN_A_ROW) {
          full = true;
          break;
        }
        continue;
      }
      misses = 0;
      budget.mana -= BigInt(billed.l2Gas);
      budget.daGas -= billed.daGas;
      budget.bodyBytes -= bodyBytes;
      builder.addTx(result.effect);
      inBlock?.add(result.effect);
      used.add(hash);
      manaUsed += BigInt(billed.l2Gas);
      if (result.revertReason) reverted.push({ hash, reason: result.revertReason });
    }
    return { manaUsed, reverted, full };
  }
}
