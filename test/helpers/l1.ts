// An embedded L1 (manual mining) with the rollup deployed, for tests of L1-facing components.
import { join } from 'node:path';
import type { Address } from 'viem';
import { GENESIS_ARCHIVE_ROOT } from '../../src/core/block-header.js';
import { connectEmbeddedL1, type L1Connection } from '../../src/l1/connect.js';

/** Rollup parameters of test chains: 8-second slots, 4-slot epochs, a 4-member committee. */
export const TEST_ROLLUP = {
  slotDuration: 8,
  epochDuration: 4,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 4,
  // Room for a few txs per checkpoint (a private tx uses about 500k mana).
  manaTarget: 100_000_000,
  rollupVersion: 1,
  genesisArchiveRoot: GENESIS_ARCHIVE_ROOT,
} as const;

/** Starts anvil under `dir/l1` (mining only on request) and deploys the rollup with these validators. */
export function startTestL1(
  dir: string,
  validators: readonly Address[],
  funded: readonly Address[] = validators,
  overrides: {
    manaTarget?: number;
    genesisArchiveRoot?: bigint;
    slashingRoundSize?: number;
    slashingQuorumSize?: number;
  } = {},
): Promise<L1Connection> {
  return connectEmbeddedL1(
    {
      dir: join(dir, 'l1'),
      chainId: 31337,
      blockTime: undefined,
      deploy: { ...TEST_ROLLUP, ...overrides, validators: [...validators] },
      fund: funded,
    },
    { info: () => {}, warn: () => {}, error: () => {} },
  );
}
