// The min fees per gas that txs are checked against: read from the fee oracle after every chain
// pass and kept until the next (L1 only changes them per block), so a send does not ask L1.
import type { GasFees } from '../core/block-header.js';
import type { ManaUsageEstimate } from '../core/fee-math.js';
import type { FeeOracle } from '../l1/fee-oracle.js';

/** Min fees per gas, now and predicted for the next slots (the fee oracle). */
export type MinFeeSource = Pick<FeeOracle, 'current' | 'predictedMinFees'>;

/** The min fees for the next slot, and that slot. */
export interface MinFeeReading {
  fees: GasFees;
  slot: number;
}

export class MinFees {
  #last: MinFeeReading | undefined;

  constructor(private readonly source: MinFeeSource) {}

  /** Re-reads the fee inputs from L1. */
  async refresh(): Promise<void> {
    this.#last = await this.source.current();
  }

  /** The last reading; the first call reads. */
  async reading(): Promise<MinFeeReading> {
    if (!this.#last) await this.refresh();
    return this.#last!;
  }

  /** The last reading, after a `refresh` or `reading` has made one. */
  get last(): MinFeeReading {
    return this.#last!;
  }

  predicted(usage: ManaUsageEstimate): Promise<GasFees[]> {
    return this.source.predictedMinFees(usage);
  }
}
