// The message methods' handlers, each added to its declaration in src/client/methods/messages.ts
// (names, params, result schema and words, shared with the typed client), and the ports they call.
import { messagesDeclarations } from '../client/methods/messages.js';
import type { ChainQueries } from '../queries/chain.js';
import type { MessageQueries } from '../queries/messages.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';

/**
 * What the message methods call: the message queries, and the chain's block numbers (the
 * earlier set names a block by number or latest).
 */
export interface MessageApiPorts {
  messages: Pick<
    MessageQueries,
    | 'l1ToL2MessageMembershipWitness'
    | 'l1ToL2MessageCheckpoint'
    | 'l1ToL2MessageBlock'
    | 'isL1ToL2MessageSynced'
    | 'l2ToL1MembershipWitness'
    | 'l2ToL1Messages'
    | 'l2ToL1MessagesOfBlock'
  >;
  chain: Pick<ChainQueries, 'blockNumberOf'>;
}

export function messageMethods({ messages: q, chain }: MessageApiPorts): RpcMethod[] {
  const witness = (w: { leafIndex: bigint; siblingPath: bigint[] } | undefined) =>
    w === undefined ? null : ([w.leafIndex, w.siblingPath] as [bigint, bigint[]]);
  return [
    ...defineMethods(
      messagesDeclarations.getL1ToL2MessageMembershipWitness.namespaces,
      {
        ...messagesDeclarations.getL1ToL2MessageMembershipWitness.spec,
        handler: (ref, message) => witness(q.l1ToL2MessageMembershipWitness(ref, message)),
      },
      { node: messagesDeclarations.getL1ToL2MessageMembershipWitness.overrides.node },
    ),
    defineMethod({
      ...messagesDeclarations.svc_getL1ToL2MessageCheckpoint,
      handler: (message) => q.l1ToL2MessageCheckpoint(message) ?? null,
    }),
    defineMethod({
      ...messagesDeclarations.node_getL1ToL2MessageBlock,
      handler: (message) => q.l1ToL2MessageBlock(message) ?? null,
    }),
    defineMethod({
      ...messagesDeclarations.node_isL1ToL2MessageSynced,
      handler: (message) => q.isL1ToL2MessageSynced(message),
    }),
    defineMethod({
      ...messagesDeclarations.svc_getL2ToL1MembershipWitness,
      handler: async (hash, message, index) =>
        (await q.l2ToL1MembershipWitness(hash, message, index)) ?? null,
    }),
    ...defineMethods(
      messagesDeclarations.getL2ToL1Messages.namespaces,
      { ...messagesDeclarations.getL2ToL1Messages.spec, handler: (epoch) => q.l2ToL1Messages(epoch) },
      {
        node: {
          ...messagesDeclarations.getL2ToL1Messages.overrides.node,
          handler: (ref) => {
            const n = chain.blockNumberOf(ref);
            return n === undefined ? null : (q.l2ToL1MessagesOfBlock(n) ?? null);
          },
        },
      },
    ),
  ];
}
