// Validator activity per slot (what the node saw each committee member do) and the statistics
// derived from it: the node_getValidatorsStats / node_getValidatorStats results (ValidatorsStats,
// SingleValidatorStats). Kept in the `node` store under sub-databases named `validator-stats-*`:
//
// - `validator-stats-slots`: slot → the slot's activity, for the slots in the window;
// - `validator-stats-history`: `<address>/<slot>` → that validator's status and the slot's
//   timestamp, for the slots in the window (the per-validator history, in slot order);
// - `validator-stats-proven`: address → its performance in each proven epoch (kept forever);
// - `validator-stats-meta`: the first and the highest slot ever recorded.
//
// The window is the last `slotWindow` slots up to the highest recorded one; older slots are
// dropped from the store as the window moves, and a slot older than the window is not recorded.
import type { Database, StoreEnvironment } from '../store/environment.js';

export type ProposalStatus =
  | 'checkpoint-mined'
  | 'checkpoint-proposed'
  | 'checkpoint-missed'
  | 'blocks-missed';
export type AttestationStatus = 'attestation-sent' | 'attestation-missed';
export type ValidatorStatus = ProposalStatus | AttestationStatus;

/** What happened in one slot, as the node saw it. */
export interface SlotActivity {
  slot: number;
  /** Start of the slot (unix seconds). */
  timestamp: bigint;
  proposer: string;
  proposerStatus: ProposalStatus;
  /**
   * Committee members other than the proposer; empty when there was nothing to attest to
   * (checkpoint-missed). An entry for the proposer itself is ignored.
   */
  attestations: Record<string, AttestationStatus>;
}

export interface MissedStats {
  /** Consecutive missed entries counted back from the most recent entry of the kind. */
  currentStreak: number;
  /** count / total; absent when total is 0. */
  rate?: number;
  count: number;
  total: number;
}

export interface SlotTime {
  timestamp: bigint;
  slot: number;
  /** The timestamp as an ISO 8601 date. */
  date: string;
}

export interface ValidatorStats {
  address: string;
  /** The latest slot the validator proposed in (checkpoint-mined or checkpoint-proposed). */
  lastProposal?: SlotTime;
  /** The latest slot the validator attested in (attestation-sent). */
  lastAttestation?: SlotTime;
  /** History entries counted. */
  totalSlots: number;
  /** Over proposal entries; missed = checkpoint-missed or blocks-missed. */
  missedProposals: MissedStats;
  /** Over attestation entries; missed = attestation-missed. */
  missedAttestations: MissedStats;
  /** Ascending slot. */
  history: { slot: number; status: ValidatorStatus }[];
}

export interface ValidatorsStats {
  stats: Record<string, ValidatorStats>;
  lastProcessedSlot?: number;
  initialSlot?: number;
  slotWindow: number;
}

export interface ProvenPerformance {
  missed: number;
  total: number;
  epoch: number;
}

export interface SingleValidatorStats {
  validator: ValidatorStats;
  /** Ascending epoch. */
  allTimeProvenPerformance: ProvenPerformance[];
  lastProcessedSlot?: number;
  initialSlot?: number;
  slotWindow: number;
}

export const PROPOSAL_STATUSES = [
  'checkpoint-mined',
  'checkpoint-proposed',
  'checkpoint-missed',
  'blocks-missed',
] as const satisfies readonly ProposalStatus[];
export const ATTESTATION_STATUSES = [
  'attestation-sent',
  'attestation-missed',
] as const satisfies readonly AttestationStatus[];

const PROPOSALS = new Set<ValidatorStatus>(PROPOSAL_STATUSES);
const ATTESTATIONS = new Set<ValidatorStatus>(ATTESTATION_STATUSES);
const MISSED = new Set<ValidatorStatus>(['checkpoint-missed', 'blocks-missed', 'attestation-missed']);
const PROPOSED = new Set<ValidatorStatus>(['checkpoint-mined', 'checkpoint-proposed']);
const SENT = new Set<ValidatorStatus>(['attestation-sent']);

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** The address in lowercase; throws on anything but `0x` and 40 hex digits. */
export function normaliseAddress(address: string): string {
  const lower = address.toLowerCase();
  if (!ADDRESS.test(lower)) throw new TypeError(`not an address: ${address}`);
  return lower;
}

function checkIndex(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer: ${n}`);
}

function checkPositive(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`${what} must be a positive integer: ${n}`);
}

/** Fixed-width decimal, so that string key order is numeric order. */
const slotKey = (slot: number): string => slot.toString().padStart(16, '0');
const historyKey = (address: string, slot: number): string => `${address}/${slotKey(slot)}`;

interface StoredActivity {
  slot: number;
  timestamp: string;
  proposer: string;
  proposerStatus: ProposalStatus;
  attestations: Record<string, AttestationStatus>;
}

interface StoredEntry {
  status: ValidatorStatus;
  timestamp: string;
}

/** One history entry with the slot's start. */
export interface HistoryEntry {
  slot: number;
  status: ValidatorStatus;
  timestamp: bigint;
}

/** Each validator's status in the slot: the proposer first, then the attesters. */
function participants(a: StoredActivity): [string, ValidatorStatus][] {
  return [[a.proposer, a.proposerStatus], ...Object.entries(a.attestations)];
}

function slotTime(e: HistoryEntry | undefined): SlotTime | undefined {
  if (e === undefined) return undefined;
  return { timestamp: e.timestamp, slot: e.slot, date: new Date(Number(e.timestamp) * 1000).toISOString() };
}

function missedStats(entries: readonly HistoryEntry[]): MissedStats {
  let count = 0;
  for (const e of entries) if (MISSED.has(e.status)) count++;
  let currentStreak = 0;
  for (let i = entries.length - 1; i >= 0 && MISSED.has(entries[i]!.status); i--) currentStreak++;
  const total = entries.length;
  return total === 0 ? { currentStreak, count, total } : { currentStreak, rate: count / total, count, total };
}

function findLast(entries: readonly HistoryEntry[], wanted: Set<ValidatorStatus>): HistoryEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if (wanted.has(entries[i]!.status)) return entries[i];
  return undefined;
}

/** A validator's stats from its history (ascending slot). */
function computeValidatorStats(address: string, history: readonly HistoryEntry[]): ValidatorStats {
  const proposals = history.filter((e) => PROPOSALS.has(e.status));
  const attestations = history.filter((e) => ATTESTATIONS.has(e.status));
  const stats: ValidatorStats = {
    address,
    totalSlots: history.length,
    missedProposals: missedStats(proposals),
    missedAttestations: missedStats(attestations),
    history: history.map((e) => ({ slot: e.slot, status: e.status })),
  };
  const lastProposal = slotTime(findLast(proposals, PROPOSED));
  const lastAttestation = slotTime(findLast(attestations, SENT));
  if (lastProposal) stats.lastProposal = lastProposal;
  if (lastAttestation) stats.lastAttestation = lastAttestation;
  return stats;
}

export class ValidatorStatsStore {
  private readonly slots: Database<StoredActivity, string>;
  private readonly history: Database<StoredEntry, string>;
  private readonly proven: Database<ProvenPerformance[], string>;
  private readonly meta: Database<number, string>;
  private readonly slotWindow: number;

  constructor(
    private readonly env: StoreEnvironment,
    options: { slotWindow: number },
  ) {
    checkPositive('slotWindow', options.slotWindow);
    this.slotWindow = options.slotWindow;
    this.slots = env.database<StoredActivity>('validator-stats-slots');
    this.history = env.database<StoredEntry>('validator-stats-history');
    this.proven = env.database<ProvenPerformance[]>('validator-stats-proven');
    this.meta = env.database<number>('validator-stats-meta');
  }

  get lastProcessedSlot(): number | undefined {
    return this.meta.get('lastProcessedSlot');
  }

  get initialSlot(): number | undefined {
    return this.meta.get('initialSlot');
  }

  /** The first slot in the window (may be negative early on); undefined before any record. */
  private windowStart(last = this.lastProcessedSlot): number | undefined {
    return last === undefined ? undefined : last - this.slotWindow + 1;
  }

  /**
   * Records a slot, durably. Recording a slot again replaces what was recorded for it. A slot
   * older than the window (lastProcessedSlot - slotWindow + 1) is ignored. initialSlot is the
   * first slot ever recorded, lastProcessedSlot the highest; slots that fall out of the window
   * are pruned (allTimeProvenPerformance is not).
   */
  record(activity: SlotActivity): void {
    checkIndex('slot', activity.slot);
    if (typeof activity.timestamp !== 'bigint' || activity.timestamp < 0n)
      throw new RangeError(`timestamp must be a non-negative bigint: ${activity.timestamp}`);
    if (!PROPOSALS.has(activity.proposerStatus))
      throw new TypeError(`not a proposal status: ${activity.proposerStatus}`);
    const proposer = normaliseAddress(activity.proposer);
    const attestations: Record<string, AttestationStatus> = {};
    for (const [address, status] of Object.entries(activity.attestations)) {
      if (!ATTESTATIONS.has(status)) throw new TypeError(`not an attestation status: ${status}`);
      const a = normaliseAddress(address);
      if (a !== proposer) attestations[a] = status;
    }
    const stored: StoredActivity = {
      slot: activity.slot,
      timestamp: activity.timestamp.toString(),
      proposer,
      proposerStatus: activity.proposerStatus,
      attestations,
    };
    const key = slotKey(stored.slot);
    this.env.write(() => {
      const last = this.lastProcessedSlot;
      const start = this.windowStart(last);
      if (start !== undefined && stored.slot < start) return;
      const old = this.slots.get(key);
      if (old)
        for (const [address] of participants(old)) this.history.removeSync(historyKey(address, old.slot));
      this.slots.putSync(key, stored);
      for (const [address, status] of participants(stored))
        this.history.putSync(historyKey(address, stored.slot), { status, timestamp: stored.timestamp });
      if (this.initialSlot === undefined) this.meta.putSync('initialSlot', stored.slot);
      if (last === undefined || stored.slot > last) {
        this.meta.putSync('lastProcessedSlot', stored.slot);
        this.pruneBelow(this.windowStart(stored.slot)!);
      }
    });
  }

  /** Drops the slots below `slot` and their history entries (inside a write). */
  private pruneBelow(slot: number): void {
    if (slot <= 0) return;
    const doomed = Array.from(this.slots.getRange({ end: slotKey(slot) }));
    for (const { key, value } of doomed) {
      for (const [address] of participants(value)) this.history.removeSync(historyKey(address, value.slot));
      this.slots.removeSync(key);
    }
  }

  /** Everything the range holds, grouped by validator, ascending slot, within the window. */
  private entries(range: { start?: string; end?: string }): Map<string, HistoryEntry[]> {
    const start = this.windowStart();
    const out = new Map<string, HistoryEntry[]>();
    if (start === undefined) return out;
    for (const { key, value } of this.history.getRange(range)) {
      const [address, s] = key.split('/') as [string, string];
      const slot = Number(s);
      if (slot < start) continue;
      let list = out.get(address);
      if (!list) {
        list = [];
        out.set(address, list);
      }
      list.push({ slot, status: value.status, timestamp: BigInt(value.timestamp) });
    }
    return out;
  }

  private withSlots<T extends object>(value: T): T & { lastProcessedSlot?: number; initialSlot?: number } {
    const last = this.lastProcessedSlot;
    const initial = this.initialSlot;
    return {
      ...value,
      ...(last === undefined ? {} : { lastProcessedSlot: last }),
      ...(initial === undefined ? {} : { initialSlot: initial }),
    };
  }

  /** Every validator with an entry in the window. */
  all(): ValidatorsStats {
    const stats: Record<string, ValidatorStats> = {};
    for (const [address, history] of this.entries({}))
      stats[address] = computeValidatorStats(address, history);
    return this.withSlots({ stats, slotWindow: this.slotWindow });
  }

  /**
   * One validator's stats; undefined when it has no entry in the window and no proven
   * performance. fromSlot/toSlot (inclusive) filter the history and the stats computed from
   * it, not allTimeProvenPerformance.
   */
  one(address: string, fromSlot?: number, toSlot?: number): SingleValidatorStats | undefined {
    const a = address.toLowerCase();
    if (!ADDRESS.test(a)) return undefined;
    const inWindow = this.entries({ start: `${a}/`, end: `${a}0` }).get(a) ?? []; // '0' follows '/'
    const proven = this.proven.get(a) ?? [];
    if (inWindow.length === 0 && proven.length === 0) return undefined;
    const history = inWindow.filter(
      (e) => (fromSlot === undefined || e.slot >= fromSlot) && (toSlot === undefined || e.slot <= toSlot),
    );
    return this.withSlots({
      validator: computeValidatorStats(a, history),
      allTimeProvenPerformance: proven.map((p) => ({ missed: p.missed, total: p.total, epoch: p.epoch })),
      slotWindow: this.slotWindow,
    });
  }

  /**
   * Duties per validator in the slots [epoch*epochDuration, (epoch+1)*epochDuration) still in
   * the window: total = proposal + attestation entries, missed = the missed ones.
   */
  epochPerformance(epoch: number, epochDuration: number): Map<string, { missed: number; total: number }> {
    checkIndex('epoch', epoch);
    checkPositive('epochDuration', epochDuration);
    const out = new Map<string, { missed: number; total: number }>();
    const start = this.windowStart();
    if (start === undefined) return out;
    const first = epoch * epochDuration;
    const range = { start: slotKey(first), end: slotKey(first + epochDuration) };
    for (const { value } of this.slots.getRange(range)) {
      if (value.slot < start) continue;
      for (const [address, status] of participants(value)) {
        let p = out.get(address);
        if (!p) {
          p = { missed: 0, total: 0 };
          out.set(address, p);
        }
        p.total++;
        if (MISSED.has(status)) p.missed++;
      }
    }
    return out;
  }

  /**
   * Saves epochPerformance(epoch) as each of its validators' allTimeProvenPerformance for the
   * epoch (kept forever; recording the epoch again replaces its entries). Validators without
   * duties in the epoch's recorded slots are left as they were, so an epoch whose slots have
   * left the window changes nothing.
   */
  recordProvenEpoch(epoch: number, epochDuration: number): void {
    this.env.write(() => {
      for (const [address, p] of this.epochPerformance(epoch, epochDuration)) {
        const list = (this.proven.get(address) ?? []).filter((e) => e.epoch !== epoch);
        list.push({ missed: p.missed, total: p.total, epoch });
        list.sort((x, y) => x.epoch - y.epoch);
        this.proven.putSync(address, list);
      }
    });
  }
}
