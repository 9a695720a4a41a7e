// Protocol contracts that run on the AVM with their real bytecode, beside those cairn runs
// natively (Fee Juice and the two registries, protocol-contracts.ts): the AuthRegistry at
// address 1, whose `consume` a Token's authwit check calls. They are not published through the
// registries: public execution finds them at their fixed address, with the class and instance
// the reference derives from the protocol's artifact, so that their gas and behaviour are the
// reference's own.
import type { Fr } from '../core/field.js';
import type { PublicContracts } from './avm-calls.js';

export interface AvmProtocolContract {
  name: string;
  address: Fr;
  classId: Fr;
  /** The artifact's public bytecode (its public_dispatch). */
  bytecode: Uint8Array;
  deployer: Fr;
  initializationHash: Fr;
}

/** `base` with the protocol contracts added at their addresses (they take precedence). */
export function withAvmProtocolContracts(
  base: PublicContracts | undefined,
  contracts: readonly AvmProtocolContract[],
): PublicContracts {
  const byAddress = new Map(contracts.map((c) => [c.address, c]));
  const byClass = new Map(contracts.map((c) => [c.classId, c.bytecode]));
  return {
    instance(address) {
      const c = byAddress.get(address);
      if (c === undefined) return base?.instance(address);
      return { deployer: c.deployer, originalClassId: c.classId, initializationHash: c.initializationHash };
    },
    bytecode: (classId) => byClass.get(classId) ?? base?.bytecode(classId),
  };
}
