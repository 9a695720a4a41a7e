// The validator, P2P and slashing methods' handlers, each added to its declaration in
// src/client/methods/validators.ts (names, params, result schema and words, shared with the typed
// client), and the ports they call.
import { validatorsDeclarations } from '../client/methods/validators.js';
import type { ValidatorQueries } from '../queries/validators.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';

/** What the validator methods call: stats, peers, the attestation pool and slashing. */
export interface ValidatorApiPorts {
  validators: Pick<
    ValidatorQueries,
    | 'getValidatorsStats'
    | 'getValidatorStats'
    | 'getPeers'
    | 'getCheckpointAttestationsForSlot'
    | 'getProposalsForSlot'
    | 'getSlashOffenses'
    | 'getSlashPayloads'
  >;
}

export function validatorMethods({ validators: v }: ValidatorApiPorts): RpcMethod[] {
  return [
    ...defineMethods(validatorsDeclarations.getValidatorsStats.namespaces, {
      ...validatorsDeclarations.getValidatorsStats.spec,
      handler: () => v.getValidatorsStats(),
    }),
    ...defineMethods(validatorsDeclarations.getValidatorStats.namespaces, {
      ...validatorsDeclarations.getValidatorStats.spec,
      handler: (address, from, to) => v.getValidatorStats(address, from, to),
    }),
    defineMethod({
      ...validatorsDeclarations.svc_getPeers,
      handler: (includePending) => v.getPeers(includePending ?? false),
    }),
    defineMethod({
      ...validatorsDeclarations.svc_getCheckpointAttestationsForSlot,
      handler: (slot, hash) => v.getCheckpointAttestationsForSlot(slot, hash),
    }),
    defineMethod({
      ...validatorsDeclarations.svc_getProposalsForSlot,
      handler: (slot) => v.getProposalsForSlot(slot),
    }),
    ...defineMethods(validatorsDeclarations.getSlashOffenses.namespaces, {
      ...validatorsDeclarations.getSlashOffenses.spec,
      handler: (round) => v.getSlashOffenses(round),
    }),
    defineMethod({
      ...validatorsDeclarations.nodeAdmin_getSlashPayloads,
      handler: () => v.getSlashPayloads(),
    }),
  ];
}
