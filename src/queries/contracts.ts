// Contract queries (docs/logs-and-contracts.md): published classes by id, and instances by
// address as of a block, with the class they run as of that block's time. The contracts that
// exist from genesis (the protocol contracts, the SponsoredFPC) answer like published ones.
import type { ChainReader } from '../archiver/chain-reader.js';
import type { ContractClassPublic, ContractInstance } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import { GenesisContracts } from '../execution/genesis-contracts.js';
import type { BlockRef } from './chain.js';

export class ContractQueries {
  constructor(
    private readonly chain: ChainReader,
    /** Resolves a reference block to its number; throws (refused) when the chain lacks it. */
    private readonly resolve: (ref: BlockRef) => number,
    private readonly genesis = new GenesisContracts(),
  ) {}

  contractClass(id: Fr): ContractClassPublic | undefined {
    return this.genesis.contractClass(id) ?? this.chain.contracts.getClass(id);
  }

  /** The instance as of the reference block (default: the latest block). */
  contract(address: Fr, ref: BlockRef = { kind: 'tag', tag: 'proposed' }): ContractInstance | undefined {
    const blockNumber = this.resolve(ref);
    const block = this.chain.getBlock(blockNumber)!;
    const genesis = this.genesis.instance(address);
    if (genesis !== undefined) return genesis;
    return this.chain.contracts.getInstance(address, {
      blockNumber,
      timestamp: block.header.globalVariables.timestamp,
    });
  }
}
