// The archiver follows L1: for each proposal it reads the checkpoint body from calldata, checks
// it against what L1 recorded, re-executes its blocks on the world state (each must rebuild to
// its header), and stores the checkpoint; epoch proofs move the proven tip, prunes unwind, and a
// proof that is `finalityDepth` L1 blocks old makes its checkpoints final.
import type { Logger } from 'pino';
import { decodeCheckpointBody, verifyCheckpointBody } from '../core/checkpoint-body.js';
import { computeCheckpointOutHash } from '../core/out-hash.js';
import { epochOfSlot, type L1RollupConstants } from '../core/time.js';
import type {
  CheckpointProposedEvent,
  CheckpointsPrunedEvent,
  EpochProvenEvent,
  RollupClient,
} from '../l1/rollup-client.js';
import { buildBlock } from '../sequencer/block-builder.js';
import type { WorldState } from '../world-state/index.js';
import type { ChainStore, L1SyncPoint } from './chain-store.js';

export interface ArchiverOptions {
  rollup: RollupClient;
  store: ChainStore;
  worldState: WorldState;
  constants: L1RollupConstants;
  /** L1 blocks after which an epoch proof counts as final. */
  finalityDepth: number;
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

export class Archiver {
  constructor(private readonly o: ArchiverOptions) {}

  /** One pass over the L1 blocks not read yet. */
  async sync(): Promise<SyncReport> {
    const { rollup, store, logger } = this.o;
    await this.checkL1StillHasSyncPoint();
    const latest = await rollup.latestL1Block();
    const report: SyncReport = { checkpoints: 0, proven: 0, pruned: 0, l1Block: latest.number };
    const from = (store.l1SyncPoint?.blockNumber ?? this.o.constants.l1StartBlock - 1n) + 1n;
    if (from <= latest.number) {
      const lastOfBatch = from + BigInt(this.o.batchBlocks ?? 1000) - 1n;
      const to = lastOfBatch < latest.number ? lastOfBatch : latest.number;
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
      const end = await rollup.l1Block(to);
      store.setL1SyncPoint({ blockNumber: end.number, blockHash: end.hash, timestamp: end.timestamp });
    }
    const provenAt = store.provenAtL1Block;
    const final = provenAt !== undefined && latest.number - provenAt >= BigInt(this.o.finalityDepth);
    if (final && store.finalizedCheckpoint < store.provenCheckpoint) {
      store.setFinalizedCheckpoint(store.provenCheckpoint);
      logger.info(`checkpoint ${store.provenCheckpoint} is final`);
    }
    return report;
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
      const fork = worldState.fork();
      const rebuilt = buildBlock(fork, {
        globalVariables: block.header.globalVariables,
        txEffects: block.body.txEffects,
        checkpointNumber: n,
        indexWithinCheckpoint: i,
        ...(i === 0
          ? { l1ToL2Messages: messages }
          : { previousSponge: body.blocks[i - 1]!.header.spongeBlobHash }),
        totalManaUsed: block.header.totalManaUsed,
      });
      if (rebuilt.hash !== block.hash) {
        throw new Error(
          `block ${block.number} of checkpoint ${n} does not re-execute to the header published on L1`,
        );
      }
      await worldState.commit(fork);
    }
    const l1Block = await rollup.l1Block(event.l1BlockNumber);
    const committee = await rollup.epochCommittee(epochOfSlot(event.slot, this.o.constants));
    const last = body.blocks[body.blocks.length - 1]!;
    const sync: L1SyncPoint = {
      blockNumber: l1Block.number,
      blockHash: l1Block.hash,
      timestamp: l1Block.timestamp,
    };
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
        l1: { blockNumber: l1Block.number, timestamp: l1Block.timestamp, blockHash: l1Block.hash },
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
    let keep = Math.min(store.latestCheckpointNumber, pending);
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
    const removed = store.unwindCheckpointsAfter(keep);
    if (worldState.latestBlockNumber > store.latestBlockNumber)
      await worldState.rollbackTo(store.latestBlockNumber);
    const proven = Math.min(await rollup.provenCheckpointNumber(), keep);
    if (store.provenCheckpoint > proven) store.setProvenCheckpoint(proven);
    const from = keep === 0 ? undefined : store.getCheckpoint(keep)!.l1;
    const restart = from
      ? { blockNumber: from.blockNumber, blockHash: from.blockHash, timestamp: from.timestamp }
      : await (async () => {
          const start = await rollup.l1Block(this.o.constants.l1StartBlock - 1n);
          return { blockNumber: start.number, blockHash: start.hash, timestamp: start.timestamp };
        })();
    store.setL1SyncPoint(restart);
    store.messages.removeAfterL1Block(restart.blockNumber);
    logger.warn(
      `L1 no longer has block ${point.blockNumber} as synced (an L1 reorg, or an L1 that lost its newest blocks): ` +
        `unwound ${removed.length} blocks to checkpoint ${keep}, syncing again from L1 block ${restart.blockNumber}`,
    );
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
