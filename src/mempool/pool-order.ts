// The order of pending txs, which block building takes them in and eviction walks from the bottom
// of: priority fee descending, then arrival ascending, then hash ascending.
import type { Fr } from '../core/field.js';

/** What a pool entry is ordered by. */
export interface Ranked {
  readonly hash: Fr;
  /** `txPriorityFee(tx.data)`. */
  readonly priorityFee: bigint;
  /** Arrival sequence number: unique, increasing in the order txs were added. */
  readonly arrival: number;
}

/** Negative when `a` comes before `b` in pool order. */
export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.priorityFee !== b.priorityFee) return a.priorityFee > b.priorityFee ? -1 : 1;
  if (a.arrival !== b.arrival) return a.arrival - b.arrival;
  return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;
}

/** The first index in `sorted` (in pool order) whose entry does not come before `entry`. */
export function lowerBound(sorted: readonly Ranked[], entry: Ranked): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRanked(sorted[mid]!, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
