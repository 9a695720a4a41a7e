// What a tx is validated against (validator.ts's ValidationContext): the latest world state, the
// next block and slot, the current min fees, the network's limits and setup allow-list, and, for
// a tx bound for the pool, the pending txs it shares nullifiers with.
import type { AllowedElement } from '../core/constants.js';
import type { Fr } from '../core/field.js';
import { type L1RollupConstants, slotStart } from '../core/time.js';
import type { Gas } from '../core/tx.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import type { MinFees } from './min-fees.js';
import type { TxPool } from './tx-pool.js';
import { DEV_PROOF_VERIFIER, type ValidationContext } from './validator.js';

/** The network's rules a tx is held to. */
export interface NetworkRules {
  constants: L1RollupConstants;
  chainId: number;
  rollupVersion: number;
  txsLimits: Gas;
}

export class ValidationContexts {
  /** Changed at run time by svcAdmin_setConfig; later validations use the new list. */
  allowedSetup: readonly AllowedElement[];

  constructor(
    private readonly o: NetworkRules & {
      worldState: Pick<ReadableWorldState, 'latestBlockNumber' | 'at'>;
      fees: Pick<MinFees, 'reading'>;
      pool: Pick<TxPool, 'conflictsOf' | 'getEntry'>;
      allowedSetup: readonly AllowedElement[];
    },
  ) {
    this.allowedSetup = o.allowedSetup;
  }

  /** The context of the latest block; `withPool` adds the pending conflicts (a dry-run check). */
  async latest(withPool: boolean): Promise<ValidationContext> {
    const { fees, slot } = await this.o.fees.reading();
    const latest = this.o.worldState.latestBlockNumber;
    const pool = this.o.pool;
    return {
      chainId: this.o.chainId,
      rollupVersion: this.o.rollupVersion,
      state: this.o.worldState.at(latest),
      nextBlockNumber: latest + 1,
      nextSlotTimestamp: slotStart(slot, this.o.constants),
      currentMinFees: fees,
      txsLimits: this.o.txsLimits,
      allowedSetup: this.allowedSetup,
      verifier: DEV_PROOF_VERIFIER,
      ...(withPool
        ? {
            pendingConflicts: (nullifiers: readonly Fr[], self: Fr) =>
              pool
                .conflictsOf(nullifiers)
                .filter((h) => h !== self)
                .map((hash) => ({ hash, priorityFee: pool.getEntry(hash)!.priorityFee })),
          }
        : {}),
    };
  }
}
