// The reference API's cross-chain message methods, answered by cairn's message queries: the
// L1-to-L2 message witness (its path as base64), where a message lands, and an epoch's
// L2-to-L1 messages.
import { z } from 'zod';
import { REFERENCE_BLOCK_ERRORS } from '../client/methods/errors.js';
import { messagesDeclarations } from '../client/methods/messages.js';
import { uint } from '../core/codecs.js';
import type { MessageQueries } from '../queries/messages.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { blockParameter, epochNumber, fr } from './params.js';
import { l1ToL2MessageWitness } from './schemas.js';

/** What the message methods call. */
export interface AztecMessageApiPorts {
  messages: Pick<
    MessageQueries,
    'l1ToL2MessageMembershipWitness' | 'l1ToL2MessageCheckpoint' | 'isL1ToL2MessageSynced' | 'l2ToL1Messages'
  >;
}

const message = { name: 'l1ToL2Message', schema: fr.describe('The L1-to-L2 message (its hash)') };

export function aztecMessageMethods({ messages: q }: AztecMessageApiPorts): RpcMethod[] {
  return [
    defineMethod({
      namespace: 'node',
      name: 'getL1ToL2MessageMembershipWitness',
      summary:
        "An L1-to-L2 message's leaf index and sibling path as of a block (none before it is in the tree)",
      params: [{ name: 'referenceBlock', schema: blockParameter }, message],
      resultName: 'witness',
      result: l1ToL2MessageWitness.optional(),
      errors: REFERENCE_BLOCK_ERRORS,
      handler: (ref, m) => {
        const w = q.l1ToL2MessageMembershipWitness(ref, m);
        return w && ([w.leafIndex, w.siblingPath] as [bigint, bigint[]]);
      },
    }),
    defineMethod({
      namespace: 'node',
      name: 'getL1ToL2MessageCheckpoint',
      summary:
        'The checkpoint whose first block inserts an L1-to-L2 message (none for a message L1 never sent)',
      params: [message],
      resultName: 'checkpointNumber',
      result: uint.optional(),
      handler: (m) => q.l1ToL2MessageCheckpoint(m),
    }),
    defineMethod({
      namespace: 'node',
      name: 'isL1ToL2MessageSynced',
      summary: 'Whether the node has seen an L1-to-L2 message on L1',
      params: [message],
      resultName: 'synced',
      result: z.boolean(),
      handler: (m) => q.isL1ToL2MessageSynced(m),
    }),
    defineMethod({
      ...messagesDeclarations.getL2ToL1Messages.spec,
      namespace: 'node',
      deprecated: false,
      summary: "The L2-to-L1 messages of an epoch's checkpoints: per checkpoint, block and tx",
      params: [{ name: 'epoch', schema: epochNumber }],
      handler: (epoch) => q.l2ToL1Messages(epoch),
    }),
  ];
}
