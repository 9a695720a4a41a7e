// An embedded L1 (manual mining) with the rollup deployed, for tests of L1-facing components.
import { join } from 'node:path';
import { type Address, createTestClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { GENESIS_ARCHIVE_ROOT } from '../../src/core/block-header.js';
import { connectEmbeddedL1, type L1Connection } from '../../src/l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY, deployL1Contracts } from '../../src/l1/deploy.js';

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

/**
 * Deploys a rollup with no validators on an L1 the test runs itself (anvil at `rpcUrl`), as an
 * operator would before pointing a node at it with --l1-rpc-url; the deployer's key proves.
 */
export function deployOnExternalL1(rpcUrl: string) {
  const testClient = createTestClient({ mode: 'anvil', transport: http(rpcUrl) });
  return deployL1Contracts(
    { rpcUrl, mine: () => testClient.mine({ blocks: 1 }) },
    {
      slotDuration: 8,
      epochDuration: 4,
      proofSubmissionEpochs: 1,
      targetCommitteeSize: 1,
      manaTarget: 1000,
      rollupVersion: 1,
      genesisArchiveRoot: 0n,
      proverAddress: privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY).address,
      validators: [],
    },
  );
}
