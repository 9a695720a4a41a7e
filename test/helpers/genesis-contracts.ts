// The genesis contracts (the reference's protocol contracts and SponsoredFPC, real 4.1.2 bytecode
// from the artifact cache, fetched on first use) for tests that execute txs without a node.
import type { PublicContracts } from '../../src/execution/avm-calls.js';
import { GenesisContracts } from '../../src/execution/genesis-contracts.js';
import { loadGenesisContracts } from '../../src/node/genesis-artifacts.js';
import { silentLogger } from './rpc.js';

let loading: Promise<GenesisContracts> | undefined;

/** The genesis contracts, loaded once per process. */
export function genesisContracts(): Promise<GenesisContracts> {
  loading ??= loadGenesisContracts(silentLogger()).then((all) => new GenesisContracts(all));
  return loading;
}

/** What public execution reaches with only the genesis contracts (plus `base`, if given). */
export async function genesisPublicContracts(base?: PublicContracts): Promise<PublicContracts> {
  return (await genesisContracts()).forPublicExecution(base);
}
