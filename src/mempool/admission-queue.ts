// Where validated txs wait to enter the pool: the admissions that arrive in one turn of the event
// loop are added in one LMDB transaction (a group commit), and each waiter hears its own result
// once that transaction is committed, which a crash of the process cannot undo.
import type { Fr } from '../core/field.js';
import type { Tx } from '../core/tx.js';
import type { AddResult, TxPool } from './tx-pool.js';

interface Waiting {
  tx: Tx;
  hash: Fr;
  size: number;
  resolve: (result: AddResult) => void;
  reject: (err: unknown) => void;
}

export class AdmissionQueue {
  /** Validated txs waiting for the next group commit, in arrival order. */
  readonly #waiting: Waiting[] = [];

  constructor(private readonly pool: TxPool) {}

  /**
   * Adds a validated tx to the pool with the others of this turn; resolves with its `TxPool.add`
   * result once committed, or rejects with the commit's error (then none of the turn's txs is in).
   * The flush to disk follows off the event loop; waiting for it here put the disk's slowest
   * moments (the embedded L1's saves) into the send latency, p99 612 ms against 122 ms.
   */
  add(tx: Tx, hash: Fr, size: number): Promise<AddResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ tx, hash, size, resolve, reject });
      if (this.#waiting.length === 1) setImmediate(() => this.#commit());
    });
  }

  #commit(): void {
    const batch = this.#waiting.splice(0);
    // Committed on the event loop, not lmdb-js's write thread: an asynchronous commit here made the
    // pool's other (synchronous) writes wait for it, and p99 send latency under a sustained load
    // went from ~53 ms to ~130 ms (bench/flood.bench.ts). Txs validated at once share a commit.
    let results: AddResult[];
    try {
      results = this.pool.batch(() => batch.map((a) => this.pool.add(a.tx, a.hash, a.size)));
    } catch (err) {
      for (const a of batch) a.reject(err);
      return;
    }
    for (const [i, a] of batch.entries()) a.resolve(results[i]!);
  }
}
