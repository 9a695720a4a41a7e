// Contracts that exist from genesis, known to the node without a publication: the reference's
// protocol contracts at their fixed addresses 1-6 (AuthRegistry, ContractInstanceRegistry,
// ContractClassRegistry, MultiCallEntrypoint, FeeJuice, PublicChecks) and the SponsoredFPC of the
// reference's local network. The node answers for them as for published contracts (their class
// and instance), and public execution runs their real bytecode on the AVM, so that their gas and
// behaviour are the reference's own (protocol-contracts.ts has the one native extension).
import { type ArtifactError, revertMessageOf } from '../core/artifact.js';
import type { ContractClassPublic, ContractInstance } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import { type PublicContracts, publicInstanceOf } from './avm-calls.js';

export interface GenesisContract {
  /** The artifact's contract name. */
  name: string;
  instance: ContractInstance;
  contractClass: ContractClassPublic;
  /** The artifact's errors (selector to meaning), to name a revert of its code. */
  errors?: ReadonlyMap<bigint, ArtifactError>;
}

/** Instances and classes of the genesis contracts, looked up by address and class id. */
export class GenesisContracts {
  private readonly byAddress: Map<Fr, GenesisContract>;
  private readonly byClass: Map<Fr, ContractClassPublic>;

  constructor(readonly all: readonly GenesisContract[] = []) {
    this.byAddress = new Map(all.map((c) => [c.instance.address, c]));
    this.byClass = new Map(all.map((c) => [c.contractClass.id, c.contractClass]));
  }

  instance(address: Fr): ContractInstance | undefined {
    return this.byAddress.get(address)?.instance;
  }

  contractClass(id: Fr): ContractClassPublic | undefined {
    return this.byClass.get(id);
  }

  /**
   * `base` with the genesis contracts added at their addresses (they take precedence: nothing can
   * be published at a protocol address).
   */
  forPublicExecution(base: PublicContracts | undefined): PublicContracts {
    const byAddress = new Map(this.all.map((c) => [c.instance.address, c.instance]));
    const byClass = new Map(this.all.map((c) => [c.contractClass.id, c.contractClass.packedBytecode]));
    // An error selector hashes the error's message, so one table serves every contract's reverts.
    const errors = new Map(this.all.flatMap((c) => [...(c.errors ?? [])]));
    return {
      instance(address) {
        const c = byAddress.get(address);
        return c === undefined ? base?.instance(address) : publicInstanceOf(c);
      },
      bytecode: (classId) => byClass.get(classId) ?? base?.bytecode(classId),
      revertMessage: (data) => revertMessageOf(errors, data) ?? base?.revertMessage?.(data),
    };
  }
}
