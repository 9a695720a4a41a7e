// A TxService over real stores without L1, as the mempool tests and the pool's memory bench use it:
// a world state funding the given accounts at genesis, a chain store holding genesis, and the
// service with fixed min fees.
import { ChainStore } from '../../src/archiver/chain-store.js';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import type { GasFees } from '../../src/core/block-header.js';
import type { L1RollupConstants } from '../../src/core/time.js';
import { type DevAccount, devAccountsGenesisData } from '../../src/execution/dev-accounts.js';
import type { MinFeeSource } from '../../src/mempool/min-fees.js';
import { TxService, type TxServiceOptions } from '../../src/mempool/tx-service.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { silentLogger } from './rpc.js';

export interface TxServiceFixture {
  worldState: WorldState;
  chain: ChainStore;
  service: TxService;
}

/** Rollup constants of a chain without L1: 8 s slots from L1 time 1,000,000, 4-slot epochs. */
export const TEST_CONSTANTS: L1RollupConstants = {
  l1StartBlock: 0n,
  l1GenesisTime: 1_000_000n,
  slotDuration: 8,
  epochDuration: 4,
  ethereumSlotDuration: 2,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 4,
  rollupManaLimit: 200_000_000,
};

/** Fixed min fees; the next slot is the one `current` reports. */
export function fixedFees(fees: GasFees, slot = 1): MinFeeSource {
  return {
    current: async () => ({ slot, fees }),
    predictedMinFees: async () => [fees, fees, fees],
  };
}

export async function openTxService(
  dir: string,
  o: {
    funded: readonly DevAccount[];
    fees: MinFeeSource;
    constants: L1RollupConstants;
  } & Partial<Pick<TxServiceOptions, 'maxTxCount' | 'maxBytes'>>,
): Promise<TxServiceFixture> {
  const worldState = await WorldState.open(openEnvironment(dir, 'world-state'), {
    historyBlocks: 0,
    genesisPublicData: devAccountsGenesisData(o.funded),
    genesisBlockHash: genesisBlockHashOf,
  });
  const chain = new ChainStore(openEnvironment(dir, 'archiver'));
  chain.initialize(genesisBlockOf(worldState));
  const service = new TxService({
    env: openEnvironment(dir, 'mempool'),
    worldState,
    chain,
    fees: o.fees,
    constants: o.constants,
    chainId: 31337,
    rollupVersion: 1,
    txsLimits: { daGas: 786_432, l2Gas: 6_540_000 },
    allowedSetup: [],
    maxTxCount: o.maxTxCount ?? 100,
    maxBytes: o.maxBytes ?? 1 << 24,
    logger: silentLogger(),
  });
  return { worldState, chain, service };
}
