// The private kernel tail's public inputs: what the tx's proof proves about it, and what a node
// works from. A private-only tx's output goes to the rollup (`forRollup`); one that enqueues
// public calls goes to the public phase (`forPublic`: a non-revertible and a revertible part, each
// with the calls it enqueued, and the teardown call). Each has a fixed-width form the tx hash is
// computed over (PrivateToRollup… / PrivateToPublicKernelCircuitPublicInputs), with the same
// members in another order.

import { type BlockHeader, emptyBlockHeader, emptyGasFees, type GasFees } from '../block-header.js';
import type { Fr } from '../field.js';
import {
  emptyPublicAccumulatedData,
  emptyPublicCallRequest,
  emptyRollupAccumulatedData,
  type PrivateToPublicAccumulatedData,
  type PrivateToRollupAccumulatedData,
  type PublicCallRequest,
} from './side-effects.js';

export type { GasFees };

export interface Gas {
  daGas: number;
  l2Gas: number;
}

export interface GasSettings {
  gasLimits: Gas;
  /** Part of gasLimits, set aside for the teardown call. */
  teardownGasLimits: Gas;
  maxFeesPerGas: GasFees;
  maxPriorityFeesPerGas: GasFees;
}

export interface TxContext {
  chainId: Fr;
  version: Fr;
  gasSettings: GasSettings;
}

/** What the kernels take as given rather than compute. */
export interface TxConstantData {
  /** The block whose state the tx was built on: the whole header, not only its hash. */
  anchorBlockHeader: BlockHeader;
  txContext: TxContext;
  vkTreeRoot: Fr;
  protocolContractsHash: Fr;
}

/** The members both variants share. */
interface TailCommon {
  constants: TxConstantData;
  /** The private part's gas (with the teardown limits when there is a teardown call). */
  gasUsed: Gas;
  feePayer: Fr;
  /** u64, unix seconds: the last block timestamp the tx may be included at. */
  expirationTimestamp: bigint;
}

export interface PartialTailForRollup {
  end: PrivateToRollupAccumulatedData;
}

export interface PartialTailForPublic {
  nonRevertibleAccumulatedData: PrivateToPublicAccumulatedData;
  revertibleAccumulatedData: PrivateToPublicAccumulatedData;
  /** All zero when the tx has no teardown call. */
  publicTeardownCallRequest: PublicCallRequest;
}

export type TailForRollup = TailCommon & { forRollup: PartialTailForRollup; forPublic?: undefined };
export type TailForPublic = TailCommon & { forPublic: PartialTailForPublic; forRollup?: undefined };

/** The private kernel tail's public inputs: exactly one of `forRollup` and `forPublic`. */
export type PrivateKernelTailCircuitPublicInputs = TailForRollup | TailForPublic;

/** A private-only tx as the rollup sees it (what its tx hash covers). */
export interface PrivateToRollupKernelCircuitPublicInputs extends TailCommon {
  end: PrivateToRollupAccumulatedData;
}

/** A tx with public calls as the public phase sees it (what its tx hash covers). */
export interface PrivateToPublicKernelCircuitPublicInputs extends TailCommon, PartialTailForPublic {}

export const isForPublic = (tail: PrivateKernelTailCircuitPublicInputs): tail is TailForPublic =>
  tail.forPublic !== undefined;

export function toRollupKernelInputs(tail: TailForRollup): PrivateToRollupKernelCircuitPublicInputs {
  const { constants, gasUsed, feePayer, expirationTimestamp } = tail;
  return { constants, end: tail.forRollup.end, gasUsed, feePayer, expirationTimestamp };
}

export function toPublicKernelInputs(tail: TailForPublic): PrivateToPublicKernelCircuitPublicInputs {
  const { constants, gasUsed, feePayer, expirationTimestamp } = tail;
  return { constants, ...tail.forPublic, gasUsed, feePayer, expirationTimestamp };
}

export const emptyGas = (): Gas => ({ daGas: 0, l2Gas: 0 });

export function emptyTxConstantData(): TxConstantData {
  return {
    anchorBlockHeader: emptyBlockHeader(),
    txContext: {
      chainId: 0n,
      version: 0n,
      gasSettings: {
        gasLimits: emptyGas(),
        teardownGasLimits: emptyGas(),
        maxFeesPerGas: emptyGasFees(),
        maxPriorityFeesPerGas: emptyGasFees(),
      },
    },
    vkTreeRoot: 0n,
    protocolContractsHash: 0n,
  };
}

/** The all-zero tail output of a private-only tx. */
export function emptyTailForRollup(): TailForRollup {
  return {
    constants: emptyTxConstantData(),
    gasUsed: emptyGas(),
    feePayer: 0n,
    expirationTimestamp: 0n,
    forRollup: { end: emptyRollupAccumulatedData() },
  };
}

/** The all-zero tail output of a tx with public calls. */
export function emptyTailForPublic(): TailForPublic {
  return {
    constants: emptyTxConstantData(),
    gasUsed: emptyGas(),
    feePayer: 0n,
    expirationTimestamp: 0n,
    forPublic: {
      nonRevertibleAccumulatedData: emptyPublicAccumulatedData(),
      revertibleAccumulatedData: emptyPublicAccumulatedData(),
      publicTeardownCallRequest: emptyPublicCallRequest(),
    },
  };
}
