// The contract methods' handlers, each added to its declaration in src/client/methods/contracts.ts
// (names, params, result schema and words, shared with the typed client), and the ports they call.
import { contractsDeclarations } from '../client/methods/contracts.js';
import type { ContractClassPublic, ContractInstance } from '../core/contracts.js';
import type { ContractQueries } from '../queries/contracts.js';
import { defineMethods, type RpcMethod } from '../rpc/registry.js';

const classShape = (c: ContractClassPublic | undefined) => c ?? null;
const instanceShape = (i: ContractInstance | undefined) => i ?? null;

/** What the contract methods call: classes by id and instances by address. */
export interface ContractApiPorts {
  contracts: Pick<ContractQueries, 'contractClass' | 'contract'>;
}

export function contractMethods({ contracts: q }: ContractApiPorts): RpcMethod[] {
  return [
    ...defineMethods(contractsDeclarations.getContractClass.namespaces, {
      ...contractsDeclarations.getContractClass.spec,
      handler: (id) => classShape(q.contractClass(id)),
    }),
    ...defineMethods(
      contractsDeclarations.getContract.namespaces,
      { ...contractsDeclarations.getContract.spec, handler: (a, ref) => instanceShape(q.contract(a, ref)) },
      {
        node: {
          ...contractsDeclarations.getContract.overrides.node,
          handler: (a) => instanceShape(q.contract(a)),
        },
      },
    ),
  ];
}
