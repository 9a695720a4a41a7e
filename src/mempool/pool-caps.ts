// The pool's caps on pending txs, in count and in bytes, and which pending txs a newcomer evicts
// to stay within them.
import type { Fr } from '../core/field.js';
import type { IndexedEntry, PendingIndex } from './pending-index.js';
import { compareRanked } from './pool-order.js';

export interface PoolCaps {
  /** The most pending txs the pool holds. */
  maxTxCount: number;
  /** The most bytes (sum of the sizes given to `add`) the pending txs may take. */
  maxBytes: number;
}

export function checkCap(name: string, value: number): void {
  if (Number.isNaN(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
}

/**
 * The pending txs to evict, lowest in pool order first, so that `entry` fits within the caps once
 * `replaced` (pending txs it displaces by nullifier) are gone; 'full' when `entry` itself would be
 * the lowest left over a cap.
 */
export function evictionsToFit(
  entry: IndexedEntry,
  pending: Pick<PendingIndex<IndexedEntry>, 'ordered' | 'bytes'>,
  replaced: readonly IndexedEntry[],
  caps: PoolCaps,
): Fr[] | 'full' {
  // Walk up from the lowest pending tx (skipping the replaced ones) until within the caps.
  const replacedSet = new Set(replaced.map((e) => e.hash));
  const ordered = pending.ordered;
  let count = ordered.length - replaced.length + 1;
  let bytes = pending.bytes + entry.size;
  for (const e of replaced) bytes -= e.size;
  const evicted: Fr[] = [];
  let i = ordered.length - 1;
  while (count > caps.maxTxCount || bytes > caps.maxBytes) {
    while (i >= 0 && replacedSet.has(ordered[i]!.hash)) i--;
    const lowest = ordered[i];
    if (!lowest || compareRanked(entry, lowest) > 0) return 'full';
    evicted.push(lowest.hash);
    count--;
    bytes -= lowest.size;
    i--;
  }
  return evicted;
}
