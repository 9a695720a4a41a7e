// The pool as the sequencer's TxSource: pending txs best first, and what became of a tx in a
// block being built (rejected: it leaves the pool; reverted: the reason is kept for its receipt).
import type { Logger } from 'pino';
import { type Fr, toHex32 } from '../core/field.js';
import type { Tx } from '../core/tx.js';
import type { RevertReasons } from './revert-reasons.js';
import type { TxPool } from './tx-pool.js';

export class PoolTxSource {
  constructor(
    private readonly pool: TxPool,
    private readonly revertReasons: RevertReasons,
    private readonly logger: Logger,
  ) {}

  *pending(): Iterable<{ hash: Fr; tx: Tx }> {
    for (const entry of this.pool.pendingInOrder()) yield { hash: entry.hash, tx: entry.tx };
  }

  reject(hash: Fr, reason: string): void {
    this.logger.warn(`tx ${toHex32(hash)} dropped: ${reason}`);
    this.pool.remove([hash]);
  }

  reverted(hash: Fr, reason: string): void {
    this.revertReasons.put(hash, reason);
  }
}
