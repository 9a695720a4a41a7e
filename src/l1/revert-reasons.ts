// L1 reverts in words. viem's error for a reverted call is many lines (the call's arguments, its
// calldata in hex, the docs link); the log wants one line that says why. Some reverts are what a
// node meets in the normal course of things, above all after it was stopped while L1 time ran on:
// its slot passed, its view of the pending chain is behind, a proof window closed. Those are
// `expected`: the node logs them in a line and carries on; the rest are worth a closer look.
import { BaseError, ContractFunctionExecutionError, ContractFunctionRevertedError } from 'viem';

export interface L1Revert {
  /** The contract function that reverted (`propose`, `submitEpochRootProof`…), when known. */
  functionName: string | undefined;
  /** The custom error's name, or undefined for a revert without one (a plain `revert()`). */
  errorName: string | undefined;
  args: readonly unknown[];
  /** Why, in words. */
  reason: string;
  /** A revert a node meets in the normal course of things (a slot passed, a window closed). */
  expected: boolean;
}

const n = (v: unknown) => String(v);

/** What each of the rollup's reverts means, and whether a running node should expect it. */
const ROLLUP_REVERTS: Record<string, { expected: boolean; reason: (a: readonly unknown[]) => string }> = {
  Rollup__InvalidSlot: {
    expected: true,
    reason: (a) => `the slot passed: L1 is in slot ${n(a[0])}, the proposal was for slot ${n(a[1])}`,
  },
  Rollup__InvalidCheckpointNumber: {
    expected: true,
    reason: (a) =>
      `L1 expects checkpoint ${n(a[0])}, not ${n(a[1])}: the pending chain on L1 moved (a checkpoint landed or was pruned) since the node last synced`,
  },
  Rollup__SlotAlreadyInChain: {
    expected: true,
    reason: (a) => `slot ${n(a[1])} is not after slot ${n(a[0])} of the pending chain's last checkpoint`,
  },
  Rollup__ProofWindowClosed: {
    expected: true,
    reason: (a) =>
      `the proof window of epoch ${n(a[0])} closed (L1 is in epoch ${n(a[1])}): its unproven checkpoints are pruned`,
  },
  Rollup__InvalidFromCheckpoint: {
    expected: true,
    reason: (a) => `the proof must start at checkpoint ${n(a[0])}, not ${n(a[1])}: L1 has proven more since`,
  },
  Rollup__InvalidToCheckpoint: {
    expected: true,
    reason: (a) => `checkpoint ${n(a[0])} is no longer pending on L1 (its pending chain ends at ${n(a[1])})`,
  },
  Rollup__NothingToPrune: { expected: true, reason: () => 'there was nothing to prune any more' },
  Rollup__InsufficientAttestations: {
    expected: false,
    reason: (a) => `${n(a[1])} attestations where ${n(a[0])} are needed`,
  },
  Rollup__Unauthorized: { expected: false, reason: (a) => `${n(a[0])} may not call it` },
};

/** The L1 revert inside `err` (a viem error from a contract call or simulation), if it is one. */
export function l1RevertOf(err: unknown): L1Revert | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined;
  const call = err.walk((e) => e instanceof ContractFunctionExecutionError);
  const functionName = call instanceof ContractFunctionExecutionError ? call.functionName : undefined;
  const errorName = reverted.data?.errorName;
  const args = reverted.data?.args ?? [];
  const known = errorName === undefined ? undefined : ROLLUP_REVERTS[errorName];
  const shown =
    errorName === undefined
      ? (reverted.reason ?? 'no reason given')
      : `${errorName}(${args.map(n).join(', ')})`;
  return {
    functionName,
    errorName,
    args,
    reason: known === undefined ? shown : `${known.reason(args)} (${shown})`,
    expected: known?.expected ?? false,
  };
}

/** `L1 rejected propose: the slot passed: … (Rollup__InvalidSlot(12, 11))`. */
export function describeL1Revert(revert: L1Revert): string {
  return `L1 rejected ${revert.functionName ?? 'the call'}: ${revert.reason}`;
}
