// Contracts that exist from genesis, known to the node without a publication: the reference's
// protocol contracts at their fixed addresses 1-6 (AuthRegistry, ContractInstanceRegistry,
// ContractClassRegistry, MultiCallEntrypoint, FeeJuice, PublicChecks) and the SponsoredFPC of the
// reference's local network. The node answers for them as for published contracts (their class
// and instance), and public execution runs the bytecode of those cairn does not run natively
// (protocol-contracts.ts runs Fee Juice and the two registries), so that their gas and behaviour
// are the reference's own.
import type { ContractClassPublic, ContractInstance } from '../core/contracts.js';
import type { Fr } from '../core/field.js';
import { type PublicContracts, publicInstanceOf } from './avm-calls.js';
import { isNativeContract } from './protocol-contracts.js';

export interface GenesisContract {
  /** The artifact's contract name. */
  name: string;
  instance: ContractInstance;
  contractClass: ContractClassPublic;
}

/** Whether public calls to the contract run its bytecode on the AVM (not natively). */
export const runsOnAvm = (c: GenesisContract): boolean => !isNativeContract(c.instance.address);

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
   * `base` with the genesis contracts that run on the AVM added at their addresses (they take
   * precedence: nothing can be published at a protocol address).
   */
  forPublicExecution(base: PublicContracts | undefined): PublicContracts {
    const onAvm = this.all.filter(runsOnAvm);
    const byAddress = new Map(onAvm.map((c) => [c.instance.address, c.instance]));
    const byClass = new Map(onAvm.map((c) => [c.contractClass.id, c.contractClass.packedBytecode]));
    return {
      instance(address) {
        const c = byAddress.get(address);
        return c === undefined ? base?.instance(address) : publicInstanceOf(c);
      },
      bytecode: (classId) => byClass.get(classId) ?? base?.bytecode(classId),
    };
  }
}
