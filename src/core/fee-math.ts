// Mana min-fee math of the reference fee model: the L1 costs of proposing and proving a checkpoint,
// amortised over the mana target, scaled by a congestion multiplier and converted to fee asset.
// Pure bigint arithmetic so the node's answers match the L1 contracts to the unit.

import type { GasFees } from './block-header.js';

/** Slots ahead of the current one for which min fees are predicted. */
export const FEE_ORACLE_LAG = 2;
/** ethPerFeeAsset is a fixed-point value: ETH per fee asset × 1e12. */
export const ETH_PER_FEE_ASSET_PRECISION = 10n ** 12n;
/** Floor for ethPerFeeAsset, so the conversion never divides by (near) zero. */
export const MIN_ETH_PER_FEE_ASSET = 100n;
/** 1 fee asset = 1e-5 ETH. */
export const DEFAULT_ETH_PER_FEE_ASSET = 10_000_000n;
/** Largest per-slot move of the fee-asset price, in basis points (1%). */
export const MAX_FEE_ASSET_PRICE_MODIFIER_BPS = 100n;
/** Fixed-point scale of the congestion multiplier (1e9 = no congestion). */
export const CONGESTION_MULTIPLIER_PRECISION = 1_000_000_000n;

/** L1 gas spent proposing one checkpoint. */
export const L1_GAS_PER_CHECKPOINT_PROPOSED = 300_000n;
/** L1 gas spent verifying one epoch proof. */
export const L1_GAS_PER_EPOCH_VERIFIED = 3_600_000n;
/** Blob gas of the blobs one checkpoint carries (3 blobs of 2^17 blob gas). */
export const BLOB_GAS_PER_CHECKPOINT = 3n * 2n ** 17n;
/** Min fees saturate here (they are stored as uint128 on L1). */
export const MAX_MANA_MIN_FEE = 2n ** 128n - 1n;

// Congestion update fraction = manaTarget × 854_700_854 / 1e8 (integer division).
const CONGESTION_UPDATE_FRACTION_NUM = 854_700_854n;
const CONGESTION_UPDATE_FRACTION_DEN = 100_000_000n;
// The exponent is capped at 100, which bounds the multiplier and the loop in fakeExponential.
const MAX_CONGESTION_EXPONENT = 100n;
const BPS = 10_000n;

/** Mana the next checkpoints are assumed to use when predicting fees. */
export type ManaUsageEstimate = 'none' | 'target' | 'limit';

/** L1 fees in wei. */
export interface L1FeeInputs {
  baseFee: bigint;
  blobFee: bigint;
}

export interface FeeModelParams {
  manaTarget: bigint;
  /** Slots per epoch (≥ 1). */
  epochDuration: bigint;
  /** Wei per mana charged for proving. */
  provingCostPerManaEth: bigint;
}

/** The three cost components in fee-asset units per mana, plus the multiplier (scaled by 1e9) behind the congestion cost. */
export interface ManaMinFeeComponents {
  sequencerCost: bigint;
  proverCost: bigint;
  congestionCost: bigint;
  congestionMultiplier: bigint;
}

// Inputs are non-negative, so ceil(a/b) = (a + b - 1) / b.
function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function clampEthPerFeeAsset(ethPerFeeAsset: bigint): bigint {
  return max(ethPerFeeAsset, MIN_ETH_PER_FEE_ASSET);
}

/**
 * EIP-4844's integer approximation of factor · e^(numerator / denominator): a Taylor series
 * summed until its terms round to zero.
 */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('fakeExponential: denominator must be positive');
  let i = 1n;
  let output = 0n;
  let acc = factor * denominator;
  while (acc > 0n) {
    output += acc;
    acc = (acc * numerator) / (denominator * i);
    i += 1n;
  }
  return output / denominator;
}

/** The congestion multiplier (1e9 = 1.0) for the given excess mana. */
export function congestionMultiplier(excessMana: bigint, manaTarget: bigint): bigint {
  const d = (manaTarget * CONGESTION_UPDATE_FRACTION_NUM) / CONGESTION_UPDATE_FRACTION_DEN;
  // No target means no congestion pricing (and avoids a zero denominator).
  if (d <= 0n) return CONGESTION_MULTIPLIER_PRECISION;
  return fakeExponential(
    CONGESTION_MULTIPLIER_PRECISION,
    min(max(excessMana, 0n), MAX_CONGESTION_EXPONENT * d),
    d,
  );
}

/** Wei → fee-asset units, rounding up so the fee never undercharges. */
function toFeeAsset(wei: bigint, ethPerFeeAsset: bigint): bigint {
  return ceilDiv(wei * ETH_PER_FEE_ASSET_PRECISION, clampEthPerFeeAsset(ethPerFeeAsset));
}

function checkParams(params: FeeModelParams): void {
  if (params.epochDuration < 1n) throw new RangeError('epochDuration must be at least 1');
  if (params.manaTarget < 0n) throw new RangeError('manaTarget must not be negative');
}

/** The min fee's components in fee-asset units per mana. */
export function manaMinFeeComponents(
  l1: L1FeeInputs,
  params: FeeModelParams,
  excessMana: bigint,
  ethPerFeeAsset: bigint,
): ManaMinFeeComponents {
  checkParams(params);
  const { manaTarget, epochDuration, provingCostPerManaEth } = params;
  if (manaTarget === 0n) {
    return {
      sequencerCost: 0n,
      proverCost: 0n,
      congestionCost: 0n,
      congestionMultiplier: CONGESTION_MULTIPLIER_PRECISION,
    };
  }
  // Wei per mana: each checkpoint's proposal (calldata gas + blobs) spread over the target...
  const sequencerWei = ceilDiv(
    L1_GAS_PER_CHECKPOINT_PROPOSED * l1.baseFee + BLOB_GAS_PER_CHECKPOINT * l1.blobFee,
    manaTarget,
  );
  // ...and the epoch proof's verification spread over the epoch's checkpoints, plus proving itself.
  const proverWei =
    ceilDiv(ceilDiv(L1_GAS_PER_EPOCH_VERIFIED * l1.baseFee, epochDuration), manaTarget) +
    provingCostPerManaEth;
  const multiplier = congestionMultiplier(excessMana, manaTarget);
  const total = sequencerWei + proverWei;
  const congestionWei = (total * multiplier) / CONGESTION_MULTIPLIER_PRECISION - total;
  // Each component is converted separately (each rounds up), matching the reference.
  return {
    sequencerCost: toFeeAsset(sequencerWei, ethPerFeeAsset),
    proverCost: toFeeAsset(proverWei, ethPerFeeAsset),
    congestionCost: toFeeAsset(congestionWei, ethPerFeeAsset),
    congestionMultiplier: multiplier,
  };
}

/** The mana min fee in fee-asset units per mana, capped at 2^128 − 1. */
export function manaMinFee(
  l1: L1FeeInputs,
  params: FeeModelParams,
  excessMana: bigint,
  ethPerFeeAsset: bigint,
): bigint {
  const c = manaMinFeeComponents(l1, params, excessMana, ethPerFeeAsset);
  return min(c.sequencerCost + c.proverCost + c.congestionCost, MAX_MANA_MIN_FEE);
}

/** The min gas fees: L2 gas costs the mana min fee, DA gas is free. */
export function minGasFees(
  l1: L1FeeInputs,
  params: FeeModelParams,
  excessMana: bigint,
  ethPerFeeAsset: bigint,
): GasFees {
  return { feePerDaGas: 0n, feePerL2Gas: manaMinFee(l1, params, excessMana, ethPerFeeAsset) };
}

/** Excess mana after a checkpoint that used `prevManaUsed`: what exceeded the target accumulates, never below 0. */
export function nextExcessMana(prevExcess: bigint, prevManaUsed: bigint, manaTarget: bigint): bigint {
  return max(0n, prevExcess + prevManaUsed - manaTarget);
}

/** Mana assumed used per checkpoint for a usage estimate. */
export function assumedManaUsed(usage: ManaUsageEstimate, manaTarget: bigint): bigint {
  switch (usage) {
    case 'none':
      return 0n;
    case 'target':
      return manaTarget;
    case 'limit':
      return 2n * manaTarget;
  }
}

/** ethPerFeeAsset one slot later in the worst case for payers: the price moves 1% against them. */
export function decayEthPerFeeAsset(ethPerFeeAsset: bigint): bigint {
  return clampEthPerFeeAsset((ethPerFeeAsset * (BPS - MAX_FEE_ASSET_PRICE_MODIFIER_BPS)) / BPS);
}

/**
 * The current min fee followed by FEE_ORACLE_LAG predictions. `l1PerSlot[i]` holds the L1 fees
 * for slot i ahead (index 0 = current); missing entries reuse the last one given.
 */
export function predictManaMinFees(
  l1PerSlot: readonly L1FeeInputs[],
  params: FeeModelParams,
  excessMana: bigint,
  ethPerFeeAsset: bigint,
  usage: ManaUsageEstimate,
): bigint[] {
  if (l1PerSlot.length === 0) throw new RangeError('predictManaMinFees: need the current L1 fees');
  const used = assumedManaUsed(usage, params.manaTarget);
  const fees: bigint[] = [];
  let excess = excessMana;
  let eth = ethPerFeeAsset;
  for (let i = 0; i <= FEE_ORACLE_LAG; i++) {
    if (i > 0) {
      excess = nextExcessMana(excess, used, params.manaTarget);
      eth = decayEthPerFeeAsset(eth);
    }
    const l1 = l1PerSlot[Math.min(i, l1PerSlot.length - 1)]!;
    fees.push(manaMinFee(l1, params, excess, eth));
  }
  return fees;
}

/** predictManaMinFees as min gas fees per slot. */
export function predictMinFees(
  l1PerSlot: readonly L1FeeInputs[],
  params: FeeModelParams,
  excessMana: bigint,
  ethPerFeeAsset: bigint,
  usage: ManaUsageEstimate,
): GasFees[] {
  return predictManaMinFees(l1PerSlot, params, excessMana, ethPerFeeAsset, usage).map((feePerL2Gas) => ({
    feePerDaGas: 0n,
    feePerL2Gas,
  }));
}
