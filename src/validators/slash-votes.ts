// How a proposer votes on slash payloads (the empire model of the reference, rules written for
// cairn): in each slot of a round, the slot's proposer votes for the payload it scores best among
// those it agrees with, or creates its own from the offenses it holds. Pure functions: the node
// feeds them what L1 and its offense store say (see slash-voter.ts).
import type { ValidatorSlash } from '../l1/slasher-client.js';
import { type Offense, OffenseType, offenseSlot, roundOfSlot } from './slashing.js';

/** A payload voted for in a round: the SlashPayloadRound of the admin API. */
export interface SlashPayloadRound {
  address: string;
  /** L1 timestamp (seconds) of the payload's creation. */
  timestamp: bigint;
  votes: bigint;
  round: bigint;
  slashes: ValidatorSlash[];
}

/** Offenses every node sees the same way (they are on L1): a payload must carry them. */
const UNCONTROVERSIAL = new Set<OffenseType>([
  OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS,
  OffenseType.PROPOSED_INCORRECT_ATTESTATIONS,
]);

export interface RoundRules {
  roundSize: number;
  epochDuration: number;
  /** Rounds after its first one in which an offense may still be voted on. */
  expirationRounds: number;
}

/**
 * The rounds [first, last] in which an offense may be voted on: from the round after the one it
 * belongs to (so every node has had the round to see it), for expirationRounds more rounds.
 */
export function votingRounds(o: Offense, r: RoundRules): [bigint, bigint] {
  const first = roundOfSlot(offenseSlot(o, r.epochDuration), r.roundSize) + 1n;
  return [first, first + BigInt(r.expirationRounds)];
}

/** The identity of an offense: validator, type and epoch or slot (not the amount). */
export function offenseId(o: { validator: string; offenseType: number; epochOrSlot: bigint }): string {
  return `${o.validator.toLowerCase()}/${o.offenseType}/${o.epochOrSlot}`;
}

/** The offense identities a payload slashes. */
export function payloadOffenseIds(slashes: readonly ValidatorSlash[]): string[] {
  return slashes.flatMap((s) => s.offenses.map((o) => offenseId({ validator: s.validator, ...o })));
}

/** Uncontroversial first, then the larger amount, then the more recent. */
function priority(a: Offense, b: Offense): number {
  const ua = UNCONTROVERSIAL.has(a.offenseType) ? 0 : 1;
  const ub = UNCONTROVERSIAL.has(b.offenseType) ? 0 : 1;
  if (ua !== ub) return ua - ub;
  if (a.amount !== b.amount) return a.amount > b.amount ? -1 : 1;
  if (a.epochOrSlot !== b.epochOrSlot) return a.epochOrSlot > b.epochOrSlot ? -1 : 1;
  if (a.validator !== b.validator) return a.validator < b.validator ? -1 : 1;
  return a.offenseType - b.offenseType;
}

/**
 * A payload's slashes for a set of offenses (distinct identities): one per validator, validators
 * ascending, the amount the sum of the validator's offenses, offenses ascending by type then
 * epochOrSlot — the canonical order the Slasher requires.
 */
export function toValidatorSlashes(offenses: readonly Offense[]): ValidatorSlash[] {
  const byValidator = new Map<string, Offense[]>();
  for (const o of offenses) {
    const v = o.validator.toLowerCase();
    const list = byValidator.get(v) ?? [];
    list.push(o);
    byValidator.set(v, list);
  }
  return [...byValidator.keys()].sort().map((validator) => {
    const list = byValidator.get(validator)!;
    const sorted = [...list].sort((a, b) =>
      a.offenseType !== b.offenseType
        ? a.offenseType - b.offenseType
        : a.epochOrSlot < b.epochOrSlot
          ? -1
          : a.epochOrSlot > b.epochOrSlot
            ? 1
            : 0,
    );
    return {
      validator,
      amount: list.reduce((sum, o) => sum + o.amount, 0n),
      offenses: sorted.map((o) => ({ offenseType: o.offenseType, epochOrSlot: o.epochOrSlot })),
    };
  });
}

const totalAmount = (slashes: readonly ValidatorSlash[]) => slashes.reduce((sum, s) => sum + s.amount, 0n);
const offenseCount = (slashes: readonly ValidatorSlash[]) =>
  slashes.reduce((n, s) => n + s.offenses.length, 0);

/** A payload's score as if this proposer voted for it: (votes + 1) × the total it slashes. */
export function payloadScore(p: { votes: bigint; slashes: readonly ValidatorSlash[] }): bigint {
  return (p.votes + 1n) * totalAmount(p.slashes);
}

export type SlashAction =
  | { kind: 'none'; reason: string }
  | { kind: 'vote'; payload: string }
  | { kind: 'create'; slashes: ValidatorSlash[] };

export interface VoteInput {
  /** The slot's index within its round (0 = the round's first slot). */
  votingSlot: number;
  roundSize: number;
  quorum: number;
  /** Most offenses a payload may hold. */
  maxPayloadSize: number;
  /** The payloads voted for in the round so far, with their votes. */
  existing: readonly { address: string; votes: bigint; slashes: readonly ValidatorSlash[] }[];
  /** This node's offenses that may be voted on in the round and have not won an earlier round. */
  pending: readonly Offense[];
}

/**
 * Whether this node agrees with a payload: it is within the size limit, every offense in it is
 * one of the node's pending offenses, each validator's amount is the sum of the node's amounts
 * for those offenses, and it carries every pending uncontroversial offense (up to the size limit).
 */
export function agreesWith(
  slashes: readonly ValidatorSlash[],
  pending: readonly Offense[],
  maxPayloadSize: number,
): boolean {
  return agreement(pending, maxPayloadSize)(slashes);
}

/** agreesWith for one set of pending offenses, its look-ups built once for every payload checked. */
function agreement(
  pending: readonly Offense[],
  maxPayloadSize: number,
): (slashes: readonly ValidatorSlash[]) => boolean {
  const known = new Map(pending.map((o) => [offenseId(o), o]));
  const required = pending
    .filter((o) => UNCONTROVERSIAL.has(o.offenseType))
    .sort(priority)
    .slice(0, maxPayloadSize)
    .map(offenseId);
  return (slashes) => {
    if (slashes.length === 0 || offenseCount(slashes) > maxPayloadSize) return false;
    const carried = new Set<string>();
    for (const s of slashes) {
      let expected = 0n;
      for (const ref of s.offenses) {
        const id = offenseId({ validator: s.validator, ...ref });
        const mine = known.get(id);
        if (mine === undefined || carried.has(id)) return false;
        carried.add(id);
        expected += mine.amount;
      }
      if (s.amount !== expected) return false;
    }
    return required.every((id) => carried.has(id));
  };
}

/**
 * The proposer's action in a slot. Nothing once a payload has the quorum. Otherwise, among the
 * payloads that can still reach the quorum in the slots left and that this node agrees with, and
 * its own ideal payload (its pending offenses, highest priority first, up to the size limit —
 * only while the slots left could still bring a new payload to the quorum), the best by
 * payloadScore; an existing payload wins ties, so proposers converge on one.
 */
export function chooseSlashAction(a: VoteInput): SlashAction {
  if (a.existing.some((p) => p.votes >= BigInt(a.quorum)))
    return { kind: 'none', reason: 'a payload has won the round' };
  const slotsLeft = BigInt(a.roundSize - a.votingSlot);
  const agrees = agreement(a.pending, a.maxPayloadSize);
  let best: { score: bigint; action: SlashAction } | undefined;
  for (const p of a.existing) {
    if (BigInt(a.quorum) - p.votes > slotsLeft) continue;
    if (!agrees(p.slashes)) continue;
    const score = payloadScore(p);
    if (best === undefined || score > best.score)
      best = { score, action: { kind: 'vote', payload: p.address } };
  }
  if (a.pending.length > 0 && BigInt(a.quorum) <= slotsLeft) {
    const slashes = toValidatorSlashes([...a.pending].sort(priority).slice(0, a.maxPayloadSize));
    const score = payloadScore({ votes: 0n, slashes });
    if (best === undefined || score > best.score) best = { score, action: { kind: 'create', slashes } };
  }
  if (best === undefined || best.score === 0n) return { kind: 'none', reason: 'no payload to vote for' };
  return best.action;
}
