// Min fees per gas (reference-facts §6) from what L1 says: the fee model's parameters, the excess
// mana the next checkpoint records, and L1 gas prices. L1 prices reach L2 fees through an oracle
// with a lag of FEE_ORACLE_LAG slots: slot s pays for the L1 fees recorded by the newest checkpoint
// at least that many slots older (the latest L1 block's fees when there is none yet), so the
// predictions for the next slots see the newer prices coming in.
import type { GasFees } from '../core/block-header.js';
import {
  DEFAULT_ETH_PER_FEE_ASSET,
  FEE_ORACLE_LAG,
  type FeeModelParams,
  type L1FeeInputs,
  type ManaUsageEstimate,
  minGasFees,
  predictMinFees,
} from '../core/fee-math.js';
import { type L1RollupConstants, slotAt } from '../core/time.js';
import type { RollupClient } from './rollup-client.js';

export class FeeOracle {
  private params: FeeModelParams | undefined;

  constructor(
    private readonly rollup: RollupClient,
    private readonly constants: L1RollupConstants,
    private readonly ethPerFeeAsset: bigint = DEFAULT_ETH_PER_FEE_ASSET,
  ) {}

  private async modelParams(): Promise<FeeModelParams> {
    if (!this.params) {
      const p = await this.rollup.feeModelParams();
      this.params = {
        manaTarget: p.manaTarget,
        epochDuration: BigInt(this.constants.epochDuration),
        provingCostPerManaEth: p.provingCostPerMana,
      };
    }
    return this.params;
  }

  /** The L1 fees slot `slot` pays for, per slot from `first` to `last`. */
  private async l1FeesForSlots(first: number, last: number): Promise<L1FeeInputs[]> {
    // The newest checkpoints, newest first, back to the first one at least LAG slots before `first`.
    const recorded: { slot: number; fees: L1FeeInputs }[] = [];
    for (let n = await this.rollup.pendingCheckpointNumber(); n >= 1; n--) {
      const c = await this.rollup.checkpoint(n);
      recorded.push({ slot: c.slot, fees: { baseFee: c.l1BaseFee, blobFee: c.l1BlobBaseFee } });
      if (c.slot <= first - FEE_ORACLE_LAG) break;
    }
    const current = recorded.length === 0 ? await this.rollup.l1Fees() : undefined;
    const out: L1FeeInputs[] = [];
    for (let slot = first; slot <= last; slot++) {
      const source = recorded.find((r) => r.slot <= slot - FEE_ORACLE_LAG) ?? recorded[recorded.length - 1];
      out.push(source ? source.fees : current!);
    }
    return out;
  }

  /** The slot the next checkpoint can have: after the pending one, and not before the next L1 block's. */
  async nextSlot(): Promise<number> {
    const pending = await this.rollup.pendingCheckpointNumber();
    const pendingSlot = pending === 0 ? 0 : (await this.rollup.checkpoint(pending)).slot;
    const latest = await this.rollup.latestL1Block();
    const nextL1 = latest.timestamp + BigInt(this.constants.ethereumSlotDuration);
    return Math.max(pendingSlot + 1, slotAt(nextL1, this.constants));
  }

  /** The min fees of blocks in `slot` (the next checkpoint's slot). */
  async minFeesAt(slot: number): Promise<GasFees> {
    const [params, excess, [l1]] = await Promise.all([
      this.modelParams(),
      this.rollup.nextExcessMana(),
      this.l1FeesForSlots(slot, slot),
    ]);
    return minGasFees(l1!, params, excess, this.ethPerFeeAsset);
  }

  async currentMinFees(): Promise<GasFees> {
    return this.minFeesAt(await this.nextSlot());
  }

  /** The current min fees, then one entry per predicted slot (FEE_ORACLE_LAG of them). */
  async predictedMinFees(usage: ManaUsageEstimate): Promise<GasFees[]> {
    const slot = await this.nextSlot();
    const [params, excess, l1] = await Promise.all([
      this.modelParams(),
      this.rollup.nextExcessMana(),
      this.l1FeesForSlots(slot, slot + FEE_ORACLE_LAG),
    ]);
    return predictMinFees(l1, params, excess, this.ethPerFeeAsset, usage);
  }
}
