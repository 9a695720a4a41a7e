// Watches the validators: once a slot has ended and L1 is synced past it, records what its
// proposer and committee did (from the checkpoint on L1, else from what the node saw gossiped),
// and once an epoch has been recorded whole, turns inactivity into slashing offenses. A checkpoint
// on L1 whose attestations fall short of the quorum is an offense of its proposer.
import type { Logger } from 'pino';
import type { Hex } from 'viem';
import type { ChainReader } from '../archiver/chain-reader.js';
import { epochOfSlot, type L1RollupConstants, slotAt, slotStart } from '../core/time.js';
import type { Database } from '../store/environment.js';
import type { AttestationPool } from './attestation-pool.js';
import { attestationDigest, type CommitteeView, type Domain, signerOf } from './committee.js';
import {
  inactivityOffenses,
  insufficientAttestationsOffense,
  type Offense,
  type OffenseStore,
  OffenseType,
} from './slashing.js';
import type { AttestationStatus, ProposalStatus, SlotActivity, ValidatorStatsStore } from './stats.js';

/** Most slots recorded in one pass, so a node that was down catches up without stalling a pass. */
const MAX_SLOTS_PER_PASS = 64;

export interface MonitorOptions {
  stats: ValidatorStatsStore;
  offenses: OffenseStore;
  pool: AttestationPool;
  committee: CommitteeView;
  chain: ChainReader;
  constants: L1RollupConstants;
  domain: Domain;
  /** Where the monitor keeps its progress (the `node` store). */
  meta: Database<number, string>;
  slashing: {
    inactivityThreshold: number;
    inactivityPenalty: bigint;
    insufficientAttestationsPenalty: bigint;
  };
  logger: Logger;
}

export class ValidatorMonitor {
  constructor(private readonly o: MonitorOptions) {}

  async afterPass(now: bigint): Promise<void> {
    const { chain, constants, meta, stats } = this.o;
    const synced = chain.l1SyncPoint;
    if (synced === undefined) return;
    // Slots are judged from the one in which the node first watched on: it has no gossip of earlier ones.
    let start = meta.get('startSlot');
    if (start === undefined) {
      start = slotAt(now, constants);
      meta.putSync('startSlot', start);
    }
    // A slot is over on L1 once a later slot's L1 block has been synced.
    const endedBefore = slotAt(synced.timestamp, constants);
    const from = Math.max(start, (meta.get('lastSlot') ?? start - 1) + 1, 1);
    const to = Math.min(endedBefore, from + MAX_SLOTS_PER_PASS);
    for (let slot = from; slot < to; slot++) {
      // No committee (no validators): nothing to record.
      const activity = await this.activityOf(slot);
      if (activity !== undefined) stats.record(activity);
      meta.putSync('lastSlot', slot);
    }
    this.judgeEpochs(start);
  }

  private async activityOf(slot: number): Promise<SlotActivity | undefined> {
    const { chain, committee, constants, pool } = this.o;
    const members = await committee.committee(epochOfSlot(slot, constants));
    const proposer = await committee.proposer(slot);
    if (proposer === undefined || members.length === 0) return undefined;
    const timestamp = slotStart(slot, constants);
    const attestationsBy = (signers: Set<string>): Record<string, AttestationStatus> =>
      Object.fromEntries(
        members
          .filter((m) => m !== proposer)
          .map((m) => [m, signers.has(m) ? 'attestation-sent' : 'attestation-missed'] as const),
      );

    const number = chain.getCheckpointNumberBySlot(slot);
    const published = number === undefined ? undefined : chain.getCheckpoint(number);
    if (published !== undefined) {
      const c = published.checkpoint;
      const digest = attestationDigest(this.o.domain, {
        checkpointNumber: c.number,
        slot,
        archive: c.archive.root,
        headerHash: c.hash,
      });
      const onL1 = await this.validSigners(digest, published.attestations);
      this.checkQuorum(proposer, slot, members.length, onL1.size);
      const signers = new Set([...onL1, ...pool.signatures(slot, digest).keys()]);
      return {
        slot,
        timestamp,
        proposer,
        proposerStatus: 'checkpoint-mined',
        attestations: attestationsBy(signers),
      };
    }
    const proposal = pool.checkpointProposals(slot).find((p) => p.proposer === proposer);
    if (proposal !== undefined) {
      const signers = new Set(pool.signatures(slot, proposal.digest).keys());
      return {
        slot,
        timestamp,
        proposer,
        proposerStatus: 'checkpoint-proposed',
        attestations: attestationsBy(signers),
      };
    }
    const status: ProposalStatus = pool.blockProposals(slot).some((b) => b.proposer === proposer)
      ? 'blocks-missed'
      : 'checkpoint-missed';
    return { slot, timestamp, proposer, proposerStatus: status, attestations: {} };
  }

  /** Committee members whose L1 signature is theirs and signs the checkpoint's digest. */
  private async validSigners(
    digest: Hex,
    attestations: { address: string; signature: string }[],
  ): Promise<Set<string>> {
    const valid = new Set<string>();
    for (const a of attestations) {
      if (a.signature === '0x' || a.signature === '') continue;
      if ((await signerOf(digest, a.signature)) === a.address.toLowerCase())
        valid.add(a.address.toLowerCase());
    }
    return valid;
  }

  private checkQuorum(proposer: string, slot: number, committeeSize: number, validSignatures: number): void {
    const offense = insufficientAttestationsOffense({
      proposer,
      slot,
      committeeSize,
      validSignatures,
      penalty: this.o.slashing.insufficientAttestationsPenalty,
    });
    this.add(offense);
  }

  /** Inactivity offenses for each epoch recorded whole since the monitor started. */
  private judgeEpochs(start: number): void {
    const { stats, meta, constants, slashing } = this.o;
    const last = meta.get('lastSlot');
    if (last === undefined) return;
    const duration = constants.epochDuration;
    const firstWhole = Math.ceil(start / duration);
    let epoch = Math.max(firstWhole, (meta.get('lastJudgedEpoch') ?? firstWhole - 1) + 1);
    const found: Offense[] = [];
    for (; (epoch + 1) * duration - 1 <= last; epoch++) {
      const performance = stats.epochPerformance(epoch, duration);
      for (const offense of inactivityOffenses(performance, epoch, {
        thresholdPercentage: slashing.inactivityThreshold,
        penalty: slashing.inactivityPenalty,
      }))
        if (this.o.offenses.add(offense)) found.push(offense);
      meta.putSync('lastJudgedEpoch', epoch);
    }
    this.reportInactivity(found);
    this.recordProven(firstWhole);
  }

  /** Per-epoch performance, kept for good once the epoch is proven (allTimeProvenPerformance). */
  private recordProven(firstWhole: number): void {
    const { chain, stats, meta, constants } = this.o;
    const proven = chain.getTips().proven.checkpoint.number;
    if (proven === 0) return;
    const provenSlot = chain.getCheckpoint(proven)?.checkpoint.header.slotNumber;
    if (provenSlot === undefined) return;
    // Epochs before the proven checkpoint's are proven whole; its own only up to it.
    const lastWholeProven = epochOfSlot(provenSlot, constants) - 1;
    const judged = meta.get('lastJudgedEpoch') ?? -1;
    let epoch = Math.max(firstWhole, (meta.get('lastProvenEpoch') ?? firstWhole - 1) + 1);
    for (; epoch <= Math.min(lastWholeProven, judged); epoch++) {
      stats.recordProvenEpoch(epoch, constants.epochDuration);
      meta.putSync('lastProvenEpoch', epoch);
    }
  }

  /**
   * Inactivity found in one pass: a line each when there are a few, else one line for all (after
   * a stretch in which the network, or this node, was away, every validator of every epoch missed).
   */
  private reportInactivity(found: Offense[]): void {
    if (found.length <= 2) {
      for (const offense of found) this.log(offense);
      return;
    }
    const validators = new Set(found.map((o) => o.validator));
    const epochs = found.map((o) => Number(o.epochOrSlot));
    const penalty = found.reduce((sum, o) => sum + o.amount, 0n);
    this.o.logger.warn(
      `slashing offenses: inactivity by ${validators.size} validator(s) in epochs ${Math.min(...epochs)}..${Math.max(...epochs)} ` +
        `(${found.length} offenses, penalties ${penalty} in all; svcAdmin_getSlashOffenses lists them)`,
    );
  }

  private add(offense: Offense | undefined): void {
    if (offense === undefined || !this.o.offenses.add(offense)) return;
    this.log(offense);
  }

  private log(offense: Offense): void {
    const what = OffenseType[offense.offenseType]?.toLowerCase().replaceAll('_', ' ') ?? 'offense';
    const at = offense.offenseType === OffenseType.INACTIVITY ? 'epoch' : 'slot';
    this.o.logger.warn(
      `slashing offense: ${what} by ${offense.validator} in ${at} ${offense.epochOrSlot} (penalty ${offense.amount})`,
    );
  }
}
