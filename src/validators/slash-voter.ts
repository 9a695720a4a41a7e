// The node's side of the Slasher: reads the payloads voted for in a round (the admin API's
// getSlashPayloads), and, when one of its validators proposes a slot, casts that slot's vote as
// chooseSlashAction decides, from the offenses in the node's store.
import type { Logger } from 'pino';
import type { Hash } from 'viem';
import {
  type SlasherClient,
  type SlashPayloadContent,
  slashPayloadAddress,
  slashSignalDigest,
} from '../l1/slasher-client.js';
import { signDigest } from './committee.js';
import type { Validator } from './keystore.js';
import {
  chooseSlashAction,
  offenseId,
  payloadOffenseIds,
  type RoundRules,
  type SlashAction,
  type SlashPayloadRound,
  votingRounds,
} from './slash-votes.js';
import type { Offense, OffenseStore } from './slashing.js';

export interface SlashVoterOptions extends RoundRules {
  slasher: SlasherClient;
  chainId: number;
  quorum: number;
  maxPayloadSize: number;
  offenses: OffenseStore;
  logger: Logger;
}

export class SlashVoter {
  /** Payload contents by address (immutable once created). */
  private readonly contents = new Map<string, SlashPayloadContent>();

  constructor(private readonly o: SlashVoterOptions) {}

  private async content(address: string): Promise<SlashPayloadContent> {
    const cached = this.contents.get(address);
    if (cached) return cached;
    const found = await this.o.slasher.payload(address);
    if (found === undefined) throw new Error(`slash payload ${address} was voted for but is not created`);
    this.contents.set(address, found);
    return found;
  }

  /** The payloads voted for in `round`, in the order of their first vote, with their votes and content. */
  async payloadsForRound(round: bigint): Promise<SlashPayloadRound[]> {
    const voted = await this.o.slasher.roundPayloads(round);
    return Promise.all(
      voted.map(async ({ address, votes }) => {
        const { timestamp, slashes } = await this.content(address);
        return { address, timestamp, votes, round, slashes };
      }),
    );
  }

  /**
   * The node's offenses that may be voted on in `round`: within their voting rounds, with a
   * penalty, and not carried by the payload that won any earlier round they could be voted in.
   */
  async pendingOffenses(round: bigint): Promise<Offense[]> {
    // Only the rounds whose offenses may be voted on now are read, not the whole history.
    const oldest = round - BigInt(this.o.expirationRounds) - 1n;
    const from = oldest < 0n ? 0n : oldest;
    const eligible = this.o.offenses.forRounds(from, round - 1n).filter((o) => {
      const [first, last] = votingRounds(o, this.o);
      return o.amount > 0n && first <= round && round <= last;
    });
    if (eligible.length === 0) return [];
    const rounds = Array.from({ length: Number(round - from) }, (_, i) => from + BigInt(i));
    const winners = await Promise.all(rounds.map((r) => this.o.slasher.roundWinner(r)));
    const won = new Set<string>();
    for (const winner of winners)
      if (winner !== undefined)
        for (const id of payloadOffenseIds((await this.content(winner)).slashes)) won.add(id);
    return eligible.filter((o) => !won.has(offenseId(o)));
  }

  /** What the proposer of `slot` should do. */
  async decide(slot: number): Promise<SlashAction> {
    const round = BigInt(Math.floor(slot / this.o.roundSize));
    const [existing, pending] = await Promise.all([
      this.payloadsForRound(round),
      this.pendingOffenses(round),
    ]);
    return chooseSlashAction({
      votingSlot: slot % this.o.roundSize,
      roundSize: this.o.roundSize,
      quorum: this.o.quorum,
      maxPayloadSize: this.o.maxPayloadSize,
      existing,
      pending,
    });
  }

  /**
   * Casts `proposer`'s vote for `slot` (the current slot); resolves with the tx hash once sent,
   * or undefined when there is nothing to vote for.
   */
  async vote(slot: number, proposer: Validator): Promise<Hash | undefined> {
    const action = await this.decide(slot);
    if (action.kind === 'none') return undefined;
    const { slasher, chainId, logger } = this.o;
    const sign = (payload: string) =>
      signDigest(proposer.attester, slashSignalDigest({ chainId, slasher: slasher.address }, slot, payload));
    if (action.kind === 'vote') {
      const hash = await slasher.signal(proposer.publisher, action.payload, await sign(action.payload));
      logger.info(`slot ${slot}: voted for slash payload ${action.payload}`);
      return hash;
    }
    const payload = slashPayloadAddress(action.slashes);
    const hash = await slasher.createAndSignal(proposer.publisher, action.slashes, await sign(payload));
    const offenses = action.slashes.reduce((n, s) => n + s.offenses.length, 0);
    logger.info(
      `slot ${slot}: proposed slash payload ${payload} (${offenses} offenses of ${action.slashes.length} validators) and voted for it`,
    );
    return hash;
  }
}
