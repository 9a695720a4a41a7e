// The archiver follows L1: for each proposal it reads the checkpoint body from calldata, checks
// it against what L1 recorded, re-executes its blocks on the world state (each must rebuild to
// its header), and stores the checkpoint; epoch proofs move the proven tip, prunes unwind, and a
// proof that is `finalityDepth` L1 blocks old, in an L1 block that L1 keeps for good
// (`ensureL1Durable`), makes its checkpoints final.
import type { Logger } from 'pino';
import type { L2Block } from '../core/block.js';
import { decodeCheckpointBody, verifyCheckpointBody } from '../core/checkpoint-body.js';
import { computeCheckpointOutHash } from '../core/out-hash.js';
import { epochOfSlot, type L1RollupConstants } from '../core/time.js';
import { type ReplayStart, replaysTo } from '../execution/block-builder.js';
import type { ArchiverL1 } from '../l1/roles.js';
import type {
  CheckpointProposedEvent,
  CheckpointsPrunedEvent,
  EpochProvenEvent,
} from '../l1/rollup-client.js';
import type { WorldStateFork } from '../world-state/types.js';
import type { WorldState } from '../world-state/world-state.js';
import type { ProposedBlocks } from './chain-reader.js';
import type { ChainStore } from './chain-store.js';
import { genesisBlockOf } from './genesis.js';
import type { BlockId, L1SyncPoint } from './types.js';

/** How long a pass waits, by default, for L1 to say it keeps a proof's block for good before going on without. */
const DURABILITY_WAIT_MS = 250;

/** A request that L1 keep block `block` for good; `durable` once answered. */
interface DurabilityRequest {
  block: bigint;
  durable?: boolean;
  answered: Promise<void>;
  /** The pass that asked went on before the answer came. */
  late?: boolean;
}

/** The sync point of an L1 block as the client reads it. */
const syncPointOf = (b: { number: bigint; hash: string; timestamp: bigint }): L1SyncPoint => ({
  blockNumber: b.number,
  blockHash: b.hash,
  timestamp: b.timestamp,
});

export interface ArchiverOptions {
  rollup: ArchiverL1;
  store: ChainStore;
  worldState: WorldState;
  constants: L1RollupConstants;
  /** L1 blocks after which an epoch proof counts as final. */
  finalityDepth: number;
  /**
   * Resolves true once an L1 block survives a crash of the node and its L1 together (the
   * embedded L1 saves its state for it); a proof is final only then. Default: L1 keeps every
   * block it has (an external L1).
   */
  ensureL1Durable?: ((l1Block: bigint) => Promise<boolean>) | undefined;
  /**
   * Told when L1 says it keeps a proof's block for good after the pass that asked has gone on
   * without the answer: the next pass makes the proof final, and with the manual or instant
   * clock no pass would come until something else asked for one.
   */
  onL1Durable?: (() => void) | undefined;
  /**
   * Resolves once an L1 block survives such a crash, after ensureL1Durable said not yet (the
   * embedded L1 saves on its timer): the archiver then tells onL1Durable, so that a proof becomes
   * final without waiting for another L1 block, which the manual and instant clocks may not mine
   * for a long time (a wallet syncing notes after a dev time jump needs the blocks the jump aged
   * to be final).
   */
  whenL1Durable?: ((l1Block: bigint) => Promise<void>) | undefined;
  /**
   * How long a pass waits for that answer (default 250 ms); 'answer' waits for it, so that what
   * a pass reports is all its L1 block decides (the manual clock's passes are asked for and must
   * be deterministic; a realtime chain must not be held by a slow save).
   */
  durabilityWait?: number | 'answer' | undefined;
  /** Most L1 blocks read in one pass. */
  batchBlocks?: number;
  logger: Logger;
}

export interface SyncReport {
  checkpoints: number;
  proven: number;
  pruned: number;
  l1Block: bigint;
}

type L1Event =
  | ({ kind: 'proposed' } & CheckpointProposedEvent)
  | ({ kind: 'proven' } & EpochProvenEvent)
  | ({ kind: 'pruned' } & CheckpointsPrunedEvent);

/** The chain as a dev snapshot records it: what L1 cannot give back, and the tips. */
export interface ChainSnapshot {
  latest: BlockId;
  checkpoint: number;
  proven: number;
  provenAtL1Block: bigint | undefined;
  finalized: number;
  l1SyncPoint: L1SyncPoint | undefined;
  /** Blocks no checkpoint held yet, oldest first. */
  proposed: L2Block[];
}

export class Archiver implements ProposedBlocks {
  private batchBlocks: number;

  /** Stores the genesis block in a new store; an existing store must hold the same genesis. */
  constructor(private readonly o: ArchiverOptions) {
    this.batchBlocks = o.batchBlocks ?? 1000;
    o.store.initialize(genesisBlockOf(o.worldState));
  }

  /** Where a catch-up with L1 started (L1 block, time), while one is under way. */
  private catchUp: { fromBlock: bigint; startedAt: number } | undefined;

  /**
   * While the archiver is more than one pass behind L1 (a new node, or one that was down), logs
   * how far it has got, with the rate and an estimate of the time left; and when it has caught up.
   */
  private async reportProgress(from: bigint, to: bigint, latest: bigint): Promise<void> {
    const { logger, store, rollup } = this.o;
    if (to < latest) {
      this.catchUp ??= { fromBlock: from, startedAt: Date.now() };
      const done = to - this.catchUp.fromBlock + 1n;
      const total = latest - this.catchUp.fromBlock + 1n;
      const seconds = (Date.now() - this.catchUp.startedAt) / 1000;
      const rate = seconds > 0 ? Number(done) / seconds : 0;
      const eta = rate > 0 ? `, about ${Math.ceil(Number(latest - to) / rate)} s left` : '';
      logger.info(
        `syncing from L1: block ${to} of ${latest} (${Number((done * 1000n) / total) / 10}%), ` +
          `checkpoint ${store.latestCheckpointNumber} of ${await rollup.pendingCheckpointNumber()}${eta}`,
      );
    } else if (this.catchUp !== undefined) {
      const seconds = ((Date.now() - this.catchUp.startedAt) / 1000).toFixed(1);
      logger.info(
        `synced with L1 at block ${to}: checkpoint ${store.latestCheckpointNumber}, block ${store.latestBlockNumber} (${seconds} s)`,
      );
      this.catchUp = undefined;
    }
  }

  /** The catch-up under way, for the node's status. */
  get syncProgress(): { l1Block: bigint; catchingUp: boolean } {
    return { l1Block: this.o.store.l1SyncPoint?.blockNumber ?? 0n, catchingUp: this.catchUp !== undefined };
  }

  /** Commits a block this node built on `fork` and stores it: the world state, then the chain. */
  async appendBuiltBlock(fork: WorldStateFork, block: L2Block): Promise<void> {
    await this.o.worldState.commit(fork);
    this.o.store.addProposedBlock(block);
  }

  /** Re-executes a proposed block (see ProposedBlocks); commits and stores it when it matches. */
  async replayProposedBlock(
    block: L2Block,
    at: { checkpointNumber: number; indexWithinCheckpoint: number },
    start: ReplayStart,
  ): Promise<boolean> {
    const fork = this.o.worldState.fork();
    if (!replaysTo(fork, block, at, start)) return false;
    await this.o.worldState.commit(fork);
    this.o.store.addProposedBlock(block);
    return true;
  }

  /** Drops proposed blocks that never made it into a checkpoint, from the chain and the world state. */
  async dropUncheckpointedBlocks(): Promise<void> {
    const { store, worldState } = this.o;
    const base = store.getTips().checkpointed.block.number;
    if (store.latestBlockNumber > base) store.unwindBlocksAfter(base);
    if (worldState.latestBlockNumber > base) await worldState.rollbackTo(base);
  }

  /** Most L1 blocks read in one pass, from the next pass on. */
  setBatchBlocks(blocks: number): void {
    this.batchBlocks = blocks;
  }

  /** One pass over the L1 blocks not read yet. */
  async sync(): Promise<SyncReport> {
    const { rollup, store, logger } = this.o;
    await this.checkL1StillHasSyncPoint();
    const latest = await rollup.latestL1Block();
    const report: SyncReport = { checkpoints: 0, proven: 0, pruned: 0, l1Block: latest.number };
    const from = (store.l1SyncPoint?.blockNumber ?? this.o.constants.l1StartBlock - 1n) + 1n;
    if (from <= latest.number) {
      const lastOfBatch = from + BigInt(this.batchBlocks) - 1n;
      const to = lastOfBatch < latest.number ? lastOfBatch : latest.number;
      await this.readL1Blocks(from, to, report);
      await this.reportProgress(from, to, latest.number);
      if (to === latest.number) await this.checkRollupAgreesWithEvents(to);
    }
    const provenAt = store.provenAtL1Block;
    const deep = provenAt !== undefined && latest.number - provenAt >= BigInt(this.o.finalityDepth);
    if (deep && store.finalizedCheckpoint < store.provenCheckpoint) {
      // Final means for good: the proof's L1 block must survive a crash of node and L1 together.
      if (
        this.o.ensureL1Durable === undefined ||
        (await this.l1DurableUpTo(provenAt, this.o.ensureL1Durable))
      ) {
        store.setFinalizedCheckpoint(store.provenCheckpoint);
        logger.info(`checkpoint ${store.provenCheckpoint} is final`);
      }
    }
    return report;
  }

  /**
   * Reads L1 blocks `from`..`to`: their L1-to-L2 messages, then the pruned, proposed and proven
   * events in L1 order; then moves the sync point to `to`.
   */
  private async readL1Blocks(from: bigint, to: bigint, report: SyncReport): Promise<void> {
    const { rollup, store } = this.o;
    const events: L1Event[] = [
      ...(await rollup.checkpointsPrunedEvents(from, to)).map((e) => ({ kind: 'pruned' as const, ...e })),
      ...(await rollup.checkpointProposedEvents(from, to)).map((e) => ({
        kind: 'proposed' as const,
        ...e,
      })),
      ...(await rollup.epochProvenEvents(from, to)).map((e) => ({ kind: 'proven' as const, ...e })),
    ].sort((a, b) =>
      a.l1BlockNumber === b.l1BlockNumber
        ? a.logIndex - b.logIndex
        : a.l1BlockNumber < b.l1BlockNumber
          ? -1
          : 1,
    );
    // Messages first: a sync point never moves past messages that were not recorded.
    store.messages.add(await rollup.messageSentEvents(from, to));
    for (const event of events) {
      if (event.kind === 'pruned') {
        await this.prune(event);
        report.pruned++;
      } else if (event.kind === 'proposed') {
        if (await this.addCheckpoint(event)) report.checkpoints++;
      } else {
        store.setProvenCheckpoint(event.toCheckpoint, event.l1BlockNumber);
        report.proven++;
      }
    }
    store.setL1SyncPoint(syncPointOf(await rollup.l1Block(to)));
  }

  /** The last request that L1 keep a block for good: it runs beside the passes, never inside one. */
  private durability: DurabilityRequest | undefined;

  /**
   * Whether L1 keeps block `block` for good. Saving the embedded L1 takes seconds once its history
   * is long, so the pass waits for the answer only briefly (a cheap save is seen at once) and
   * otherwise goes on: a later pass sees it (and asks again after a failure).
   */
  private async l1DurableUpTo(
    block: bigint,
    ensure: (l1Block: bigint) => Promise<boolean>,
  ): Promise<boolean> {
    let request = this.durability;
    if (request?.block !== block || request.durable === false) {
      request = this.ask(block, ensure);
      this.durability = request;
    }
    if (request.durable === undefined) {
      const wait = this.o.durabilityWait ?? DURABILITY_WAIT_MS;
      await (wait === 'answer'
        ? request.answered
        : Promise.race([request.answered, new Promise((r) => setTimeout(r, wait))]));
      if (request.durable === undefined) request.late = true;
    }
    return request.durable === true;
  }

  private ask(block: bigint, ensure: (l1Block: bigint) => Promise<boolean>): DurabilityRequest {
    const request: DurabilityRequest = {
      block,
      answered: Promise.resolve(),
    };
    const done = (durable: boolean) => {
      request.durable = durable;
      if (durable && request.late) this.o.onL1Durable?.();
      // Not saved yet: the L1 saves in its turn (and warns itself when a save fails).
      if (!durable) {
        this.o.logger.debug(
          `checkpoint ${this.o.store.provenCheckpoint} is not final yet: the L1 has not saved the block of its proof (${block})`,
        );
        this.o.whenL1Durable?.(block).then(() => {
          // Still the latest request (no later pass asked about another proof): the next pass makes it final.
          if (this.durability !== request) return;
          request.durable = true;
          this.o.onL1Durable?.();
        });
      }
    };
    request.answered = Promise.resolve()
      .then(() => ensure(block))
      .then(done, () => done(false));
    return request;
  }

  /** The disagreement between the rollup and its events last reported (checkpoint numbers). */
  private disagreement: string | undefined;
  /** Passes in a row whose rollup state disagreed with the events read. */
  private disagreeingPasses = 0;

  /**
   * Once synced to L1 block `at`, the rollup's pending and proven checkpoint numbers there must be
   * those its events gave: each proposal emits CheckpointProposed, each proof EpochProven, each
   * prune CheckpointsPruned. An L1 that kept a transaction's storage but lost the block holding it
   * (an embedded L1 saved by anvil in the middle of mining a block; a broken L1 node) disagrees,
   * and a node following it waits for ever: it cannot build on or prove a checkpoint whose body
   * it never saw. That is said at error level, once per disagreement, and L1 is read again from
   * the latest checkpoint, in case events were missed (an L1 RPC that dropped logs). The embedded
   * L1 is recovered at the node's start, from the newest consistent saved state
   * (`SavedL1State.chooseStart`).
   */
  private async checkRollupAgreesWithEvents(at: bigint): Promise<void> {
    const { rollup, store, worldState, logger } = this.o;
    let pending: number;
    let proven: number;
    try {
      [pending, proven] = await Promise.all([
        rollup.pendingCheckpointNumber(at),
        rollup.provenCheckpointNumber(at),
      ]);
    } catch (err) {
      // An L1 may keep no state for a block that is no longer its latest.
      logger.debug(`rollup state at L1 block ${at} not read: ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    const ours = store.latestCheckpointNumber;
    const oursProven = store.provenCheckpoint;
    if (pending === ours && proven === oursProven) {
      this.disagreeingPasses = 0;
      if (this.disagreement !== undefined) {
        logger.info(
          `the rollup on L1 agrees with its events again: checkpoint ${ours}, proven ${oursProven}`,
        );
        this.disagreement = undefined;
      }
      return;
    }
    // Under load an L1 can answer a read of its state before its logs of the same block: one pass
    // that disagrees may be that race, two in a row are not.
    if (++this.disagreeingPasses < 2) {
      logger.debug(
        `at L1 block ${at} the rollup reports checkpoint ${pending} (proven ${proven}), the events checkpoint ${ours} (proven ${oursProven}): checked again on the next pass`,
      );
      return;
    }
    const key = `${pending}/${proven}/${ours}/${oursProven}`;
    if (this.disagreement === key) return;
    this.disagreement = key;
    logger.error(
      `L1 is inconsistent: at L1 block ${at} the rollup reports checkpoint ${pending} (proven ${proven}), ` +
        `but the events in its blocks give checkpoint ${ours} (proven ${oursProven}). L1 holds the effects ` +
        'of transactions that none of its blocks carry (it lost blocks but kept their storage); ' +
        'this node cannot propose or prove on top of checkpoints it never saw',
    );
    // Events that were missed (an L1 RPC that dropped logs) are found by reading L1 again.
    const restart = await this.restartPoint(ours);
    const lastKept = store.lastBlockOfCheckpoint(ours);
    if (worldState.latestBlockNumber > lastKept) await worldState.rollbackTo(lastKept);
    store.rewind(lastKept, restart);
    logger.warn(`reading L1 again from block ${restart.blockNumber + 1n}, after checkpoint ${ours}`);
  }

  private async addCheckpoint(event: CheckpointProposedEvent): Promise<boolean> {
    const { rollup, store, worldState, logger } = this.o;
    const n = event.checkpointNumber;
    if (n <= store.latestCheckpointNumber) return false;
    if (n !== store.latestCheckpointNumber + 1) {
      throw new Error(`L1 has checkpoint ${n} but the archiver is at ${store.latestCheckpointNumber}`);
    }
    const { body: bytes, attestations } = await rollup.proposal(event.txHash);
    const body = decodeCheckpointBody(bytes);
    const previous = store.getBlock(store.getTips().checkpointed.block.number)!;
    verifyCheckpointBody(body, {
      checkpointNumber: n,
      slot: event.slot,
      headerHash: event.headerHash,
      archive: event.archive,
      previousArchive: previous.archive,
    });
    const messages = await rollup.l1ToL2Messages(n);
    for (const [i, block] of body.blocks.entries()) {
      if (store.getBlock(block.number)?.hash === block.hash && worldState.latestBlockNumber >= block.number)
        continue;
      if (worldState.latestBlockNumber >= block.number) {
        // Local blocks that L1 did not take (or a commit that was cut short): L1 wins.
        await worldState.rollbackTo(block.number - 1);
        store.unwindBlocksAfter(block.number - 1);
      }
      await this.reexecute(
        block,
        { checkpointNumber: n, indexWithinCheckpoint: i },
        i === 0
          ? { l1ToL2Messages: messages }
          : { previousSponge: body.blocks[i - 1]!.header.spongeBlobHash },
        `block ${block.number} of checkpoint ${n} does not re-execute to the header published on L1`,
      );
    }
    const l1Block = await rollup.l1Block(event.l1BlockNumber);
    const committee = await rollup.epochCommittee(epochOfSlot(event.slot, this.o.constants));
    const last = body.blocks[body.blocks.length - 1]!;
    const sync = syncPointOf(l1Block);
    store.addCheckpoint(
      {
        checkpoint: {
          number: n,
          header: body.header,
          archive: last.archive,
          hash: event.headerHash,
          startBlock: body.blocks[0]!.number,
          blockCount: body.blocks.length,
          feeAssetPriceModifier: 0n,
          checkpointOutHash: computeCheckpointOutHash(
            body.blocks.map((b) => b.body.txEffects.map((effect) => effect.l2ToL1Msgs)),
          ),
        },
        l1: sync,
        attestations: committee.map((address, i) => ({
          address: address.toLowerCase(),
          signature: attestations[i] ?? '0x',
        })),
      },
      body.blocks,
      sync,
    );
    logger.info(
      `checkpoint ${n} (blocks ${body.blocks[0]!.number}..${last.number}, slot ${event.slot}) synced from L1`,
    );
    return true;
  }

  /**
   * If the L1 block last synced is gone or changed (an L1 reorg, or an embedded L1 whose state
   * file lost its newest blocks), unwinds to the newest checkpoint L1 still holds as stored and
   * syncs again from there.
   */
  private async checkL1StillHasSyncPoint(): Promise<void> {
    const { rollup, store, worldState, logger } = this.o;
    const point = store.l1SyncPoint;
    if (point === undefined) return;
    const onL1 = await rollup.l1BlockIfAny(point.blockNumber);
    if (onL1?.hash === point.blockHash) return;
    const pending = await rollup.pendingCheckpointNumber();
    const keep = await this.newestCheckpointOnL1(Math.min(store.latestCheckpointNumber, pending));
    const restart = await this.restartPoint(keep);
    const lastKept = store.lastBlockOfCheckpoint(keep);
    if (worldState.latestBlockNumber > lastKept) await worldState.rollbackTo(lastKept);
    const removed = store.rewind(lastKept, restart);
    const proven = Math.min(await rollup.provenCheckpointNumber(), keep);
    if (store.provenCheckpoint > proven) store.setProvenCheckpoint(proven);
    logger.warn(
      `L1 no longer has block ${point.blockNumber} as synced (an L1 reorg, or an L1 that lost its newest blocks): ` +
        `unwound ${removed.length} blocks to checkpoint ${keep}, syncing again from L1 block ${restart.blockNumber}`,
    );
  }

  /** The newest stored checkpoint up to `limit` that L1 holds as stored, in the same L1 block (0: none). */
  private async newestCheckpointOnL1(limit: number): Promise<number> {
    const { rollup, store } = this.o;
    let keep = limit;
    while (keep > 0) {
      const ours = store.getCheckpoint(keep)!;
      const theirs = await rollup.checkpoint(keep);
      const block = await rollup.l1BlockIfAny(ours.l1.blockNumber);
      if (
        theirs.archive === ours.checkpoint.archive.root &&
        theirs.headerHash === ours.checkpoint.hash &&
        block?.hash === ours.l1.blockHash
      ) {
        break;
      }
      keep--;
    }
    return keep;
  }

  /** Where sync starts again to re-read everything after checkpoint `keep`: its L1 block. */
  private async restartPoint(keep: number): Promise<L1SyncPoint> {
    if (keep > 0) {
      const { l1 } = this.o.store.getCheckpoint(keep)!;
      return { blockNumber: l1.blockNumber, blockHash: l1.blockHash, timestamp: l1.timestamp };
    }
    return syncPointOf(await this.o.rollup.l1Block(this.o.constants.l1StartBlock - 1n));
  }

  /**
   * An operator's rollback: unwinds the chain to block `target`, the world state with it (cleared
   * and rebuilt from the stored blocks when `rebuildWorldState`), and moves the L1 sync point
   * back to the last checkpoint kept whole, so that the next sync reads the rest from L1 again.
   * The caller makes sure no sync runs meanwhile.
   */
  async rollbackTo(
    target: number,
    options: { rebuildWorldState: boolean },
  ): Promise<{ removed: number; keptCheckpoint: number; restartL1Block: bigint }> {
    const { store, worldState, logger } = this.o;
    const keep = store.lastCheckpointUpTo(target);
    const restart = await this.restartPoint(keep);
    // The world state first: if its history does not reach the target, nothing has changed yet.
    if (options.rebuildWorldState) await worldState.reset();
    else if (worldState.latestBlockNumber > target) await worldState.rollbackTo(target);
    const removed = store.rewind(target, restart);
    if (options.rebuildWorldState) await this.catchUpWorldState();
    logger.warn(
      `rolled back to block ${target}: ${removed.length} blocks removed; checkpoints after ${keep} will be read again from L1 block ${restart.blockNumber + 1n}`,
    );
    return { removed: removed.length, keptCheckpoint: keep, restartL1Block: restart.blockNumber };
  }

  /** The chain as it is now, for a dev snapshot (svcDev_snapshot, taken between passes). */
  devSnapshot(): ChainSnapshot {
    const { store } = this.o;
    const tips = store.getTips();
    const proposed: L2Block[] = [];
    for (let n = tips.checkpointed.block.number + 1; n <= tips.proposed.number; n++)
      proposed.push(store.getBlock(n)!);
    return {
      latest: tips.proposed,
      checkpoint: store.latestCheckpointNumber,
      proven: store.provenCheckpoint,
      provenAtL1Block: store.provenAtL1Block,
      finalized: store.finalizedCheckpoint,
      l1SyncPoint: store.l1SyncPoint,
      proposed,
    };
  }

  /** The chain at genesis, for a dev reset: the genesis block alone, nothing read from L1 yet. */
  genesisSnapshot(): ChainSnapshot {
    const genesis = this.o.store.getBlock(0)!;
    return {
      latest: { number: 0, hash: genesis.hash },
      checkpoint: 0,
      proven: 0,
      provenAtL1Block: undefined,
      finalized: 0,
      l1SyncPoint: undefined,
      proposed: [],
    };
  }

  /**
   * Brings the chain back to a dev snapshot once L1 is back at the L1 state of the same moment
   * (anvil's evm_revert): unwinds to the newest checkpoint L1 still holds as stored, reads L1
   * again up to the snapshot's sync point (which re-executes the checkpoints after it), stores the
   * snapshot's proposed blocks again (L1 cannot give those back) and sets the proven and finalized
   * tips as they were. The finalized tip moves back: nothing else ever does that. The caller makes
   * sure no pass runs meanwhile. Returns whether the chain is the snapshot's again (its latest
   * block); false only if L1 holds other checkpoints than the snapshot had.
   */
  async revertToSnapshot(snapshot: ChainSnapshot): Promise<boolean> {
    const { rollup, store, worldState, logger } = this.o;
    // What was learnt of L1 since is about blocks L1 no longer has.
    this.durability = undefined;
    this.disagreement = undefined;
    this.disagreeingPasses = 0;
    this.catchUp = undefined;
    const keep = await this.newestCheckpointOnL1(Math.min(snapshot.checkpoint, store.latestCheckpointNumber));
    const lastKept = store.lastBlockOfCheckpoint(keep);
    await this.rollbackTo(lastKept, { rebuildWorldState: lastKept < worldState.oldestBlockNumber });
    const until = snapshot.l1SyncPoint?.blockNumber;
    const report: SyncReport = { checkpoints: 0, proven: 0, pruned: 0, l1Block: until ?? 0n };
    for (
      let from = this.syncedL1Block + 1n;
      until !== undefined && from <= until;
      from = this.syncedL1Block + 1n
    ) {
      const last = from + BigInt(this.batchBlocks) - 1n;
      await this.readL1Blocks(from, last < until ? last : until, report);
    }
    for (const block of snapshot.proposed) {
      if (store.getBlock(block.number)?.hash === block.hash) continue;
      // L1 has blocks there: they win, as in any sync.
      if (store.latestBlockNumber !== block.number - 1) break;
      const i = block.indexWithinCheckpoint;
      await this.reexecute(
        block,
        { checkpointNumber: block.checkpointNumber, indexWithinCheckpoint: i },
        i === 0
          ? { l1ToL2Messages: await rollup.l1ToL2Messages(block.checkpointNumber) }
          : { previousSponge: store.getBlock(block.number - 1)!.header.spongeBlobHash },
        `proposed block ${block.number} of the snapshot does not re-execute to its own header`,
      );
      store.addProposedBlock(block);
    }
    const checkpoint = store.latestCheckpointNumber;
    const proven = Math.min(snapshot.proven, checkpoint);
    store.restoreProofTips({
      proven,
      provenAtL1Block: snapshot.provenAtL1Block,
      finalized: Math.min(snapshot.finalized, proven),
    });
    const same =
      store.getBlock(snapshot.latest.number)?.hash === snapshot.latest.hash &&
      store.latestBlockNumber === snapshot.latest.number;
    logger.warn(
      `reverted to a dev snapshot: block ${store.latestBlockNumber}, checkpoint ${checkpoint}, ` +
        `proven ${proven}, finalized ${store.finalizedCheckpoint}` +
        (same ? '' : ` (the snapshot had block ${snapshot.latest.number}: L1 holds other checkpoints)`),
    );
    return same;
  }

  private get syncedL1Block(): bigint {
    return this.o.store.l1SyncPoint?.blockNumber ?? this.o.constants.l1StartBlock - 1n;
  }

  /**
   * Brings the world state level with the stored blocks: rolls back blocks the store does not
   * have (a crash between the two stores' commits), and re-executes stored blocks it lacks (after
   * a reset), checking each against its header.
   */
  async catchUpWorldState(): Promise<number> {
    const { rollup, store, worldState, logger } = this.o;
    if (worldState.latestBlockNumber > store.latestBlockNumber) {
      await worldState.rollbackTo(store.latestBlockNumber);
    }
    const first = worldState.latestBlockNumber + 1;
    const last = store.latestBlockNumber;
    if (first > last) return 0;
    logger.info(`re-executing blocks ${first}..${last} into the world state`);
    let reported = Date.now();
    for (let n = first; n <= last; n++) {
      const block = store.getBlock(n)!;
      const i = block.indexWithinCheckpoint;
      await this.reexecute(
        block,
        { checkpointNumber: block.checkpointNumber, indexWithinCheckpoint: i },
        i === 0
          ? { l1ToL2Messages: await rollup.l1ToL2Messages(block.checkpointNumber) }
          : { previousSponge: store.getBlock(n - 1)!.header.spongeBlobHash },
        `stored block ${n} does not re-execute to its own header; the archiver store is damaged`,
      );
      if (Date.now() - reported > 5000 || n === last) {
        reported = Date.now();
        logger.info(`world state at block ${n} of ${last}`);
      }
    }
    return last - first + 1;
  }

  /**
   * Applies a block's tx effects to the world state at its place in its checkpoint (the first
   * block inserts the checkpoint's L1-to-L2 messages, later ones continue the previous sponge),
   * and commits it if it rebuilds to the block's own header; else throws `mismatch`.
   */
  private async reexecute(
    block: L2Block,
    at: { checkpointNumber: number; indexWithinCheckpoint: number },
    start: ReplayStart,
    mismatch: string,
  ): Promise<void> {
    const fork = this.o.worldState.fork();
    if (!replaysTo(fork, block, at, start)) throw new Error(mismatch);
    await this.o.worldState.commit(fork);
  }

  private async prune(event: CheckpointsPrunedEvent): Promise<void> {
    const { store, worldState, logger } = this.o;
    const keep = event.fromCheckpoint - 1;
    const removed = store.unwindCheckpointsAfter(keep);
    const lastKept = store.latestBlockNumber;
    if (worldState.latestBlockNumber > lastKept) await worldState.rollbackTo(lastKept);
    logger.warn(
      `checkpoints ${event.fromCheckpoint}..${event.toCheckpoint} were pruned on L1 (proof window passed); ` +
        `${removed.length} blocks unwound to block ${lastKept}`,
    );
  }
}
