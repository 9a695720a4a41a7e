// The state query methods' handlers, each added to its declaration in src/client/methods/state.ts
// (names, params, result schema and words, shared with the typed client), and the ports they call.
import { stateDeclarations } from '../client/methods/state.js';
import { nullifierWitnessShape, publicDataWitnessShape, type StateQueries } from '../queries/state.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';
import { TreeId } from '../world-state/types.js';

/** What the state methods call: the state queries' witnesses, leaf indexes and storage reads. */
export interface StateApiPorts {
  state: Pick<
    StateQueries,
    | 'findLeavesIndexes'
    | 'nullifierMembershipWitness'
    | 'lowNullifierMembershipWitness'
    | 'publicDataWitness'
    | 'noteHashMembershipWitness'
    | 'publicStorageAt'
    | 'blockHashMembershipWitness'
    | 'archiveMembershipWitness'
    | 'siblingPath'
  >;
}

export function stateMethods({ state: q }: StateApiPorts): RpcMethod[] {
  // Each twin is declared with the svc_ reference block; node_ takes a block number or latest in
  // its place, which decodes to the same BlockRef, so the handler is shared.
  const methods: RpcMethod[] = [
    ...defineMethods(
      stateDeclarations.findLeavesIndexes.namespaces,
      {
        ...stateDeclarations.findLeavesIndexes.spec,
        handler: (r, tree, values) => q.findLeavesIndexes(r, tree, values).map((e) => e ?? null),
      },
      { node: stateDeclarations.findLeavesIndexes.overrides.node },
    ),
    ...defineMethods(
      stateDeclarations.getNullifierMembershipWitness.namespaces,
      {
        ...stateDeclarations.getNullifierMembershipWitness.spec,
        handler: (r, nullifier) => {
          const w = q.nullifierMembershipWitness(r, nullifier);
          return w && nullifierWitnessShape(w);
        },
      },
      { node: stateDeclarations.getNullifierMembershipWitness.overrides.node },
    ),
    ...defineMethods(
      stateDeclarations.getLowNullifierMembershipWitness.namespaces,
      {
        ...stateDeclarations.getLowNullifierMembershipWitness.spec,
        handler: (r, nullifier) => nullifierWitnessShape(q.lowNullifierMembershipWitness(r, nullifier)),
      },
      { node: stateDeclarations.getLowNullifierMembershipWitness.overrides.node },
    ),
    ...defineMethods(
      stateDeclarations.getPublicDataWitness.namespaces,
      {
        ...stateDeclarations.getPublicDataWitness.spec,
        handler: (r, slot) => publicDataWitnessShape(q.publicDataWitness(r, slot)),
      },
      { node: stateDeclarations.getPublicDataWitness.overrides.node },
    ),
    ...defineMethods(
      stateDeclarations.getNoteHashMembershipWitness.namespaces,
      {
        ...stateDeclarations.getNoteHashMembershipWitness.spec,
        handler: (r, noteHash) => q.noteHashMembershipWitness(r, noteHash),
      },
      { node: stateDeclarations.getNoteHashMembershipWitness.overrides.node },
    ),
    ...defineMethods(
      stateDeclarations.getPublicStorageAt.namespaces,
      {
        ...stateDeclarations.getPublicStorageAt.spec,
        handler: (r, contract, slot) => q.publicStorageAt(r, contract, slot),
      },
      { node: stateDeclarations.getPublicStorageAt.overrides.node },
    ),
  ];
  methods.push(
    defineMethod({
      ...stateDeclarations.svc_getBlockHashMembershipWitness,
      handler: (r, hash) => q.blockHashMembershipWitness(r, hash),
    }),
    defineMethod({
      ...stateDeclarations.node_getArchiveMembershipWitness,
      handler: (r, hash) => q.archiveMembershipWitness(r, hash),
    }),
  );
  const paths = [
    [stateDeclarations.node_getNullifierSiblingPath, TreeId.NULLIFIER],
    [stateDeclarations.node_getNoteHashSiblingPath, TreeId.NOTE_HASH],
    [stateDeclarations.node_getArchiveSiblingPath, TreeId.ARCHIVE],
    [stateDeclarations.node_getPublicDataSiblingPath, TreeId.PUBLIC_DATA],
  ] as const;
  for (const [declaration, tree] of paths) {
    methods.push(defineMethod({ ...declaration, handler: (r, index) => q.siblingPath(r, tree, index) }));
  }
  return methods;
}
