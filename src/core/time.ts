// L2 time (docs/chain.md, "Time"): slots and epochs counted from the L1 genesis time.

/** The rollup's time constants (svc_getL1Constants). */
export interface L1RollupConstants {
  l1StartBlock: bigint;
  l1GenesisTime: bigint;
  /** Seconds per L2 slot. */
  slotDuration: number;
  /** Slots per epoch. */
  epochDuration: number;
  /** Seconds per L1 block. */
  ethereumSlotDuration: number;
  proofSubmissionEpochs: number;
  targetCommitteeSize: number;
  rollupManaLimit: number;
}

type Timing = Pick<L1RollupConstants, 'l1GenesisTime' | 'slotDuration' | 'epochDuration'>;

/** The slot holding L1 timestamp `ts` (seconds); timestamps before genesis are slot 0. */
export function slotAt(ts: bigint, c: Timing): number {
  if (ts <= c.l1GenesisTime) return 0;
  return Number((ts - c.l1GenesisTime) / BigInt(c.slotDuration));
}

/** The L1 timestamp at which a slot starts. */
export function slotStart(slot: number, c: Timing): bigint {
  return c.l1GenesisTime + BigInt(slot) * BigInt(c.slotDuration);
}

export function epochOfSlot(slot: number, c: Pick<L1RollupConstants, 'epochDuration'>): number {
  return Math.floor(slot / c.epochDuration);
}

export function epochAt(ts: bigint, c: Timing): number {
  return epochOfSlot(slotAt(ts, c), c);
}

/** The first and last slot of an epoch. */
export function epochSlots(
  epoch: number,
  c: Pick<L1RollupConstants, 'epochDuration'>,
): [first: number, last: number] {
  return [epoch * c.epochDuration, (epoch + 1) * c.epochDuration - 1];
}
