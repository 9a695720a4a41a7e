// Slashing: offenses (the reference's Offense shape and OffenseType numbering), the rounds they
// are voted on in, the offenses a node can detect on its own (inactivity, checkpoints published
// with too few attestations, equivocation), and the store of the offenses found (sub-database
// `slash-offenses`).
import type { Database, StoreEnvironment } from '../store/environment.js';
import { normaliseAddress } from './stats.js';

export enum OffenseType {
  UNKNOWN = 0,
  DATA_WITHHOLDING = 1,
  VALID_EPOCH_PRUNED = 2,
  INACTIVITY = 3,
  BROADCASTED_INVALID_BLOCK_PROPOSAL = 4,
  PROPOSED_INSUFFICIENT_ATTESTATIONS = 5,
  PROPOSED_INCORRECT_ATTESTATIONS = 6,
  ATTESTED_DESCENDANT_OF_INVALID = 7,
  DUPLICATE_PROPOSAL = 8,
  DUPLICATE_ATTESTATION = 9,
}

export interface Offense {
  /** Lowercase `0x` + 40 hex. */
  validator: string;
  amount: bigint;
  offenseType: OffenseType;
  epochOrSlot: bigint;
}

const EPOCH_OFFENSES = new Set<OffenseType>([
  OffenseType.DATA_WITHHOLDING,
  OffenseType.VALID_EPOCH_PRUNED,
  OffenseType.INACTIVITY,
]);

/** Offense types whose epochOrSlot is an epoch (DATA_WITHHOLDING, VALID_EPOCH_PRUNED, INACTIVITY); the rest are slots. */
export function isEpochOffense(t: OffenseType): boolean {
  return EPOCH_OFFENSES.has(t);
}

function checkPositive(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`${what} must be a positive integer: ${n}`);
}

/** The slot an offense belongs to: epochOrSlot for slot offenses, epoch * epochDuration for epoch offenses. */
export function offenseSlot(o: Offense, epochDuration: number): bigint {
  checkPositive('epochDuration', epochDuration);
  return isEpochOffense(o.offenseType) ? o.epochOrSlot * BigInt(epochDuration) : o.epochOrSlot;
}

/** floor(slot / roundSize). */
export function roundOfSlot(slot: bigint | number, roundSize: number): bigint {
  checkPositive('roundSize', roundSize);
  const s = BigInt(slot);
  if (s < 0n) throw new RangeError(`slot must not be negative: ${slot}`);
  return s / BigInt(roundSize);
}

/** Fixed-width decimal (up to 2^80), so that string key order is numeric order. */
const numKey = (n: bigint): string => n.toString().padStart(25, '0');
const MAX_KEYED = 1n << 80n;

interface StoredOffense {
  validator: string;
  amount: string;
  offenseType: number;
  epochOrSlot: string;
}

function checkOffense(o: Offense): Offense {
  if (!Number.isInteger(o.offenseType) || OffenseType[o.offenseType] === undefined)
    throw new RangeError(`unknown offense type: ${o.offenseType}`);
  if (typeof o.epochOrSlot !== 'bigint' || o.epochOrSlot < 0n || o.epochOrSlot >= MAX_KEYED)
    throw new RangeError(`epochOrSlot out of range: ${o.epochOrSlot}`);
  if (typeof o.amount !== 'bigint' || o.amount < 0n)
    throw new RangeError(`amount must not be negative: ${o.amount}`);
  return {
    validator: normaliseAddress(o.validator),
    amount: o.amount,
    offenseType: o.offenseType,
    epochOrSlot: o.epochOrSlot,
  };
}

/** By epochOrSlot, then validator, then type. */
function compareOffenses(a: Offense, b: Offense): number {
  if (a.epochOrSlot !== b.epochOrSlot) return a.epochOrSlot < b.epochOrSlot ? -1 : 1;
  if (a.validator !== b.validator) return a.validator < b.validator ? -1 : 1;
  return a.offenseType - b.offenseType;
}

/**
 * The offenses found, keyed by the slot they belong to (so a round is one range); an offense is
 * identified by validator, type and epochOrSlot. The epochDuration used to place epoch offenses
 * must stay the same for the life of the store.
 */
export class OffenseStore {
  private readonly db: Database<StoredOffense, string>;
  private readonly roundSize: number;
  private readonly epochDuration: number;

  constructor(
    private readonly env: StoreEnvironment,
    options: { roundSize: number; epochDuration: number },
  ) {
    checkPositive('roundSize', options.roundSize);
    checkPositive('epochDuration', options.epochDuration);
    this.roundSize = options.roundSize;
    this.epochDuration = options.epochDuration;
    this.db = env.database<StoredOffense>('slash-offenses');
  }

  private key(o: Offense): string {
    return `${numKey(offenseSlot(o, this.epochDuration))}/${numKey(o.epochOrSlot)}/${o.validator}/${o.offenseType}`;
  }

  /** Adds an offense, durably; false (and nothing stored) if the same validator/offenseType/epochOrSlot is already there. */
  add(offense: Offense): boolean {
    const o = checkOffense(offense);
    const key = this.key(o);
    return this.env.write(() => {
      if (this.db.doesExist(key)) return false;
      this.db.putSync(key, {
        validator: o.validator,
        amount: o.amount.toString(),
        offenseType: o.offenseType,
        epochOrSlot: o.epochOrSlot.toString(),
      });
      return true;
    });
  }

  private read(range: { start?: string; end?: string }): Offense[] {
    return Array.from(this.db.getRange(range), ({ value }) => ({
      validator: value.validator,
      amount: BigInt(value.amount),
      offenseType: value.offenseType as OffenseType,
      epochOrSlot: BigInt(value.epochOrSlot),
    }));
  }

  /** Offenses whose offenseSlot falls in the round, sorted by epochOrSlot then validator then type. */
  forRound(round: bigint): Offense[] {
    return this.forRounds(round, round);
  }

  /** Offenses whose offenseSlot falls in rounds first..last (one range read), sorted as forRound sorts. */
  forRounds(first: bigint, last: bigint): Offense[] {
    if (first < 0n) throw new RangeError(`round must not be negative: ${first}`);
    if (last < first) return [];
    const size = BigInt(this.roundSize);
    const start = first * size;
    if (start >= MAX_KEYED) return [];
    const end = (last + 1n) * size;
    return this.read({ start: numKey(start), ...(end < MAX_KEYED ? { end: numKey(end) } : {}) }).sort(
      compareOffenses,
    );
  }

  /** Every offense, by offenseSlot, then epochOrSlot, validator and type. */
  all(): Offense[] {
    return this.read({});
  }
}

/** Inactivity: validators whose missed/total in the epoch is >= thresholdPercentage (0..1) with total > 0; by validator. */
export function inactivityOffenses(
  performance: Map<string, { missed: number; total: number }>,
  epoch: number,
  o: { thresholdPercentage: number; penalty: bigint },
): Offense[] {
  if (!(o.thresholdPercentage >= 0 && o.thresholdPercentage <= 1))
    throw new RangeError(`thresholdPercentage must be within 0..1: ${o.thresholdPercentage}`);
  if (!Number.isSafeInteger(epoch) || epoch < 0)
    throw new RangeError(`epoch must be a non-negative integer: ${epoch}`);
  const out: Offense[] = [];
  for (const [validator, { missed, total }] of performance) {
    if (total > 0 && missed / total >= o.thresholdPercentage)
      out.push({
        validator: normaliseAddress(validator),
        amount: o.penalty,
        offenseType: OffenseType.INACTIVITY,
        epochOrSlot: BigInt(epoch),
      });
  }
  return out.sort(compareOffenses);
}

/**
 * A checkpoint published with too few attestations: valid signatures * 3 <= committeeSize * 2
 * (fewer than floor(2n/3) + 1) → an offense against the proposer at that slot. None for an
 * empty committee (no attestations are required).
 */
export function insufficientAttestationsOffense(a: {
  proposer: string;
  slot: number;
  committeeSize: number;
  validSignatures: number;
  penalty: bigint;
}): Offense | undefined {
  if (a.committeeSize === 0 || a.validSignatures * 3 > a.committeeSize * 2) return undefined;
  return {
    validator: normaliseAddress(a.proposer),
    amount: a.penalty,
    offenseType: OffenseType.PROPOSED_INSUFFICIENT_ATTESTATIONS,
    epochOrSlot: BigInt(a.slot),
  };
}

interface Seen {
  payloadHash: string;
  reported: boolean;
}

/**
 * Remembers, per slot, what each signer signed; a second, different payload from the same
 * signer for the same slot (and the same proposal position) is an equivocation, reported once.
 * Slots below the last prune are ignored (their record is gone, so they could be reported twice).
 */
export class EquivocationWatcher {
  private readonly proposals = new Map<number, Map<string, Seen>>();
  private readonly attestations = new Map<number, Map<string, Seen>>();
  private prunedBelow = 0;

  constructor(
    private readonly o: { duplicateProposalPenalty: bigint; duplicateAttestationPenalty: bigint },
  ) {}

  private see(
    bySlot: Map<number, Map<string, Seen>>,
    slot: number,
    key: string,
    payloadHash: string,
  ): boolean {
    if (slot < this.prunedBelow) return false;
    let seen = bySlot.get(slot);
    if (!seen) {
      seen = new Map();
      bySlot.set(slot, seen);
    }
    const hash = payloadHash.toLowerCase();
    const before = seen.get(key);
    if (!before) {
      seen.set(key, { payloadHash: hash, reported: false });
      return false;
    }
    if (before.reported || before.payloadHash === hash) return false;
    before.reported = true;
    return true;
  }

  /**
   * position: the block's index within the checkpoint, or 'checkpoint' for the checkpoint
   * proposal. The DUPLICATE_PROPOSAL offense (epochOrSlot = slot) the first time the signer is
   * seen with a second different payloadHash for that slot+position, else undefined.
   */
  seeProposal(p: {
    slot: number;
    position: number | 'checkpoint';
    signer: string;
    payloadHash: string;
  }): Offense | undefined {
    const signer = normaliseAddress(p.signer);
    if (!this.see(this.proposals, p.slot, `${signer}/${p.position}`, p.payloadHash)) return undefined;
    return {
      validator: signer,
      amount: this.o.duplicateProposalPenalty,
      offenseType: OffenseType.DUPLICATE_PROPOSAL,
      epochOrSlot: BigInt(p.slot),
    };
  }

  /** Same for attestations (DUPLICATE_ATTESTATION), per slot. */
  seeAttestation(a: { slot: number; attester: string; payloadHash: string }): Offense | undefined {
    const attester = normaliseAddress(a.attester);
    if (!this.see(this.attestations, a.slot, attester, a.payloadHash)) return undefined;
    return {
      validator: attester,
      amount: this.o.duplicateAttestationPenalty,
      offenseType: OffenseType.DUPLICATE_ATTESTATION,
      epochOrSlot: BigInt(a.slot),
    };
  }

  /** Forgets slots below `slot` (memory bound); later sightings for them are ignored. */
  prune(belowSlot: number): void {
    if (belowSlot <= this.prunedBelow) return;
    this.prunedBelow = belowSlot;
    for (const bySlot of [this.proposals, this.attestations])
      for (const slot of bySlot.keys()) if (slot < belowSlot) bySlot.delete(slot);
  }

  /** Slots remembered (for tests and metrics). */
  get slotsHeld(): number {
    return new Set([...this.proposals.keys(), ...this.attestations.keys()]).size;
  }
}
