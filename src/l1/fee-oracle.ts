// Min fees per gas (docs/transactions.md, "Fees") from what L1 says: the fee model's parameters, the excess
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
import type { FeeL1 } from './roles.js';

/** L1 fees recorded with a checkpoint of this slot. */
interface Recorded {
  slot: number;
  fees: L1FeeInputs;
}

export class FeeOracle {
  private params: FeeModelParams | undefined;

  constructor(
    private readonly rollup: FeeL1,
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

  /**
   * What L1 says now, in one read: the slot the next checkpoint can have (after the pending one,
   * and not before the next L1 block's), the excess mana it will record, and the L1 fees recorded
   * by the newest checkpoints, newest first, back to the first one at least FEE_ORACLE_LAG slots
   * before `oldestSlot` (default: the next slot).
   */
  private async read(
    oldestSlot?: number,
  ): Promise<{ nextSlot: number; excess: bigint; recorded: Recorded[] }> {
    const [pending, latest, excess] = await Promise.all([
      this.rollup.pendingCheckpointNumber(),
      this.rollup.latestL1Block(),
      this.rollup.nextExcessMana(),
    ]);
    const nextL1Slot = slotAt(latest.timestamp + BigInt(this.constants.ethereumSlotDuration), this.constants);
    let nextSlot = Math.max(1, nextL1Slot);
    const recorded: Recorded[] = [];
    for (let n = pending; n >= 1; n--) {
      const c = await this.rollup.checkpoint(n);
      if (n === pending) nextSlot = Math.max(c.slot + 1, nextL1Slot);
      recorded.push({ slot: c.slot, fees: { baseFee: c.l1BaseFee, blobFee: c.l1BlobBaseFee } });
      if (c.slot <= Math.min(nextSlot, oldestSlot ?? nextSlot) - FEE_ORACLE_LAG) break;
    }
    return { nextSlot, excess, recorded };
  }

  /** The L1 fees each slot from `first` to `last` pays for. */
  private async l1FeesForSlots(
    recorded: readonly Recorded[],
    first: number,
    last: number,
  ): Promise<L1FeeInputs[]> {
    const current = recorded.length === 0 ? await this.rollup.l1Fees() : undefined;
    const out: L1FeeInputs[] = [];
    for (let slot = first; slot <= last; slot++) {
      const source = recorded.find((r) => r.slot <= slot - FEE_ORACLE_LAG) ?? recorded[recorded.length - 1];
      out.push(source ? source.fees : current!);
    }
    return out;
  }

  /** The next checkpoint's slot and the min fees of its blocks. */
  async current(): Promise<{ slot: number; fees: GasFees }> {
    const { nextSlot, excess, recorded } = await this.read();
    const [params, [l1]] = await Promise.all([
      this.modelParams(),
      this.l1FeesForSlots(recorded, nextSlot, nextSlot),
    ]);
    return { slot: nextSlot, fees: minGasFees(l1!, params, excess, this.ethPerFeeAsset) };
  }

  /** The min fees of blocks in `slot` (the slot a checkpoint is being built for). */
  async minFeesAt(slot: number): Promise<GasFees> {
    const { excess, recorded } = await this.read(slot);
    const [params, [l1]] = await Promise.all([this.modelParams(), this.l1FeesForSlots(recorded, slot, slot)]);
    return minGasFees(l1!, params, excess, this.ethPerFeeAsset);
  }

  /** The current min fees, then one entry per predicted slot (FEE_ORACLE_LAG of them). */
  async predictedMinFees(usage: ManaUsageEstimate): Promise<GasFees[]> {
    const { nextSlot, excess, recorded } = await this.read();
    const [params, l1] = await Promise.all([
      this.modelParams(),
      this.l1FeesForSlots(recorded, nextSlot, nextSlot + FEE_ORACLE_LAG),
    ]);
    return predictMinFees(l1, params, excess, this.ethPerFeeAsset, usage);
  }
}
