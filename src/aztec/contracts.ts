// The reference API's contract methods: published classes (their packed bytecode as base64, as
// the reference's JSON carries bytes) and instances, from cairn's contract queries.
import { contractInstance } from '../client/methods/contracts.js';
import type { ContractQueries } from '../queries/contracts.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { aztecAddress, fr } from './params.js';
import { contractClassPublic } from './schemas.js';

/** What the contract methods call. */
export interface AztecContractApiPorts {
  contracts: Pick<ContractQueries, 'contractClass' | 'contract'>;
}

export function aztecContractMethods({ contracts: q }: AztecContractApiPorts): RpcMethod[] {
  return [
    defineMethod({
      namespace: 'node',
      name: 'getContractClass',
      summary: 'A published contract class by id (none when it was never published)',
      params: [{ name: 'id', schema: fr.describe('Contract class id') }],
      resultName: 'contractClass',
      result: contractClassPublic.optional(),
      handler: (id) => q.contractClass(id),
    }),
    defineMethod({
      namespace: 'node',
      name: 'getContract',
      summary: 'A published contract instance by address, with its current class (none when unpublished)',
      params: [{ name: 'address', schema: aztecAddress.describe('Contract address') }],
      resultName: 'contract',
      result: contractInstance.optional(),
      handler: (address) => q.contract(address),
    }),
  ];
}
