// Types for scripts/follow.mjs, so the TypeScript tests can import its functions.

/** The L1 contracts a follower is told (the others are read from the rollup or are absent). */
export const DEPLOYED_CONTRACTS: readonly string[];

/** What followerArgs reads of svc_getNodeInfo. */
export interface FollowedNodeInfo {
  l1ChainId: number;
  rollupVersion: number;
  l1ContractAddresses: Record<string, string>;
}

/** The `cairn` arguments of a follower of that node, on the L1 at `l1Url`; `extra` come last. */
export function followerArgs(
  info: FollowedNodeInfo,
  l1Url: string,
  enr: string | null,
  extra?: readonly string[],
): string[];
