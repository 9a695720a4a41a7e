// How long the sequencer needs after building a checkpoint's txs until its proposal is ready to
// send — sealing and committing the blocks, storing and announcing them, encoding the body and
// gathering the committee's attestations — learned from the checkpoints it built before. With the
// realtime clock, building stops once the txs taken so far would take all the time left to finish:
// on a busy machine a smaller block that lands beats a full one that misses its slot.

/** Below this many txs a checkpoint's finishing time is mostly fixed cost and says little per tx. */
const MIN_TXS_TO_LEARN = 20;
/** Finishing time that does not grow with the txs (L1 reads, signing, the body's framing). */
const FIXED_MS = 100;
/** Predictions are padded by this factor: a miss costs the whole slot, an early stop a few txs. */
const SAFETY = 1.25;
/** Weight of a new observation that is faster than the estimate (slower ones are taken at once). */
const EASE_DOWN = 0.3;

export class FinishTimeEstimate {
  private perTxMs: number | undefined;

  /** Records that finishing a checkpoint of `txs` txs took `ms` milliseconds. */
  observe(txs: number, ms: number): void {
    if (txs < 1 || !Number.isFinite(ms)) return;
    const perTx = Math.max(0, ms - FIXED_MS) / txs;
    if (txs < MIN_TXS_TO_LEARN) {
      // A small checkpoint's time per tx is mostly fixed cost, so it overstates the cost of a tx:
      // it never raises the estimate, but one that is faster even so brings it down. Without this,
      // an estimate pushed up by one slow checkpoint capped blocks below MIN_TXS_TO_LEARN txs, and
      // the sequencer kept them that small for good.
      if (this.perTxMs !== undefined && perTx < this.perTxMs) this.easeDown(perTx);
      return;
    }
    // A slower checkpoint is believed at once (the machine got busier); a faster one gradually.
    if (this.perTxMs === undefined || perTx > this.perTxMs) this.perTxMs = perTx;
    else this.easeDown(perTx);
  }

  private easeDown(perTx: number): void {
    this.perTxMs = this.perTxMs! + EASE_DOWN * (perTx - this.perTxMs!);
  }

  /** Milliseconds to finish a checkpoint of `txs` txs, or undefined before anything was learned. */
  predict(txs: number): number | undefined {
    if (this.perTxMs === undefined) return undefined;
    return (FIXED_MS + this.perTxMs * txs) * SAFETY;
  }
}
