// Answers the validator, P2P and slashing queries from the consensus parts.
import { unavailable } from '../core/errors.js';
import { type L1RollupConstants, slotAt } from '../core/time.js';
import type { L1Head } from '../l1/roles.js';
import type { P2PNetwork, PeerInfo } from '../p2p/network.js';
import type { AttestationPool } from '../validators/attestation-pool.js';
import type { SlashVoter } from '../validators/slash-voter.js';
import type { SlashPayloadRound } from '../validators/slash-votes.js';
import { type Offense, type OffenseStore, roundOfSlot } from '../validators/slashing.js';
import type { SingleValidatorStats, ValidatorStatsStore, ValidatorsStats } from '../validators/stats.js';

const P2P_OFF = 'P2P is disabled on this node (start it with --p2p)';

/** The consensus parts the queries read (the node's consensus assembly provides them). */
export interface ConsensusParts {
  pool: AttestationPool;
  offenses: OffenseStore;
  /** Slots per slashing round. */
  slashingRoundSize: number;
  /** Undefined when the rollup has no Slasher. */
  slashVoter: SlashVoter | undefined;
  /** Undefined when validator stats are off. */
  stats: ValidatorStatsStore | undefined;
  /** Undefined when P2P is off. */
  network: P2PNetwork | undefined;
}

export class ValidatorQueries {
  constructor(
    private readonly consensus: ConsensusParts,
    private readonly rollup: L1Head,
    private readonly constants: L1RollupConstants,
  ) {}

  /** The slashing round of the latest L1 block's slot. */
  private async currentRound(): Promise<bigint> {
    const slot = slotAt((await this.rollup.latestL1Block()).timestamp, this.constants);
    return roundOfSlot(slot, this.consensus.slashingRoundSize);
  }

  getValidatorsStats(): ValidatorsStats {
    return this.consensus.stats?.all() ?? { stats: {}, slotWindow: 0 };
  }

  getValidatorStats(address: string, fromSlot?: number, toSlot?: number): SingleValidatorStats | undefined {
    return this.consensus.stats?.one(address, fromSlot, toSlot);
  }

  private network() {
    if (this.consensus.network === undefined) throw unavailable(P2P_OFF);
    return this.consensus.network;
  }

  getPeers(includePending: boolean): PeerInfo[] {
    return this.network().getPeers(includePending);
  }

  getCheckpointAttestationsForSlot(slot: number, payloadHash?: string) {
    this.network();
    return this.consensus.pool.attestations(slot, payloadHash).map((a) => ({
      payload: { header: a.header, archive: a.archive, feeAssetPriceModifier: 0n },
      signature: a.signature,
      proposerSignature: a.proposerSignature,
    }));
  }

  getProposalsForSlot(slot: number) {
    this.network();
    const { pool } = this.consensus;
    return {
      blockProposals: pool.blockProposals(slot).map(({ digest: _d, proposer: _p, slot: s, ...b }) => ({
        slotNumber: s,
        ...b,
      })),
      checkpointProposals: pool.checkpointProposals(slot).map((c) => ({
        checkpointNumber: c.checkpointNumber,
        checkpointHeader: c.header,
        archive: c.archive,
        feeAssetPriceModifier: 0n,
        signature: c.signature,
      })),
    };
  }

  async getSlashOffenses(round: bigint | 'all' | 'current'): Promise<Offense[]> {
    const { offenses } = this.consensus;
    if (round === 'all') return offenses.all();
    if (round === 'current') return offenses.forRound(await this.currentRound());
    return offenses.forRound(round);
  }

  /** The slash payloads voted for in the current round, with their votes. */
  async getSlashPayloads(): Promise<SlashPayloadRound[]> {
    const voter = this.consensus.slashVoter;
    if (voter === undefined)
      throw unavailable(
        'this rollup has no Slasher (it was deployed by an older cairn): there are no slash payloads',
      );
    return voter.payloadsForRound(await this.currentRound());
  }
}
