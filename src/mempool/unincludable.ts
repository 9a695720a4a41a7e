// Which pending txs no block can take any more: one spending a nullifier now in the chain, an
// expired one, or one whose anchor block is gone. The cost is a cheap walk over the pending txs
// plus a look-up per new nullifier and per distinct anchor, not tree reads per pending tx: a large
// pool must not stall the node after every block.

import type { Fr } from '../core/field.js';
import { expiredFor } from '../core/tx.js';
import { txView } from '../core/tx-view.js';
import { TreeId, type WorldStateReader } from '../world-state/types.js';
import type { PoolEntry } from './tx-pool.js';

export interface Unincludable {
  hash: Fr;
  why: string;
}

/**
 * `pending` in pool order; `spent`: the pending txs known to spend a nullifier that landed since
 * the last look, or undefined to look each pending tx's nullifiers up in `state`'s tree;
 * `next`: the next block's number and its slot's start (a tx expiring before it is expired).
 */
export function findUnincludable(
  pending: readonly PoolEntry[],
  state: Pick<WorldStateReader, 'findLeaf'>,
  next: { blockNumber: number; slotStart: bigint },
  spent: ReadonlySet<Fr> | undefined,
): Unincludable[] {
  const anchorKnown = new Map<Fr, boolean>();
  const hasAnchor = (anchor: Fr) => {
    let known = anchorKnown.get(anchor);
    if (known === undefined) {
      known = state.findLeaf(TreeId.ARCHIVE, anchor) !== undefined;
      anchorKnown.set(anchor, known);
    }
    return known;
  };
  const drop: Unincludable[] = [];
  for (const entry of pending) {
    const { data } = entry.tx;
    const isSpent =
      spent === undefined
        ? entry.nullifiers.some((n) => state.findLeaf(TreeId.NULLIFIER, n) !== undefined)
        : spent.has(entry.hash);
    if (isSpent) {
      drop.push({ hash: entry.hash, why: 'a nullifier of it is now in the chain' });
    } else if (expiredFor(data.expirationTimestamp, next.blockNumber, next.slotStart)) {
      drop.push({ hash: entry.hash, why: 'expired' });
    } else if (!hasAnchor(txView(entry.tx).anchorBlockHash)) {
      drop.push({ hash: entry.hash, why: 'its anchor block is no longer in the chain' });
    }
  }
  return drop;
}
