// Message methods of both sets (docs/messages.md): L1-to-L2 message witnesses and availability, and
// L2-to-L1 messages with their witnesses against the outbox.
import { z } from 'zod';
import { bigintDec, frHex, txHash, uint } from '../core/codecs.js';
import type { ChainQueries } from '../queries/chain.js';
import type { MessageQueries } from '../queries/messages.js';
import { defineMethod, defineMethods, type RpcMethod } from '../rpc/registry.js';
import { referenceBlock } from './params.js';
import { blockNumberOrLatest, siblingPath } from './state.js';

const l1ToL2Message = {
  name: 'l1ToL2Message',
  schema: frHex.describe('The L1-to-L2 message hash (its leaf)'),
};

const leafWitness = z
  .tuple([bigintDec, siblingPath])
  .describe('[leaf index, sibling path] in the L1-to-L2 message tree');

/** The index of a message among its tx's L2-to-L1 messages: a number, or {messageIndexInTx}. */
const messageIndexInTx = z
  .union(
    [
      uint.max(0xffff),
      z
        .object({ messageIndexInTx: uint.max(0xffff) })
        .strict()
        .transform((o) => o.messageIndexInTx),
    ],
    { error: 'expected the index of the message in the tx: a number or {messageIndexInTx: number}' },
  )
  .describe("Index of the message among the tx's L2-to-L1 messages (needed when its value occurs twice)");

const l2ToL1Witness = z
  .object({
    epochNumber: uint,
    numCheckpointsInEpoch: uint,
    root: frHex,
    leafIndex: bigintDec,
    siblingPath: z.array(frHex),
  })
  .describe(
    'L2ToL1MembershipWitness: the outbox root (over the first numCheckpointsInEpoch checkpoints of the epoch), the leaf index and the sibling path (tx, block, checkpoint and epoch trees)',
  );

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
      ['svc', 'node'],
      {
        name: 'getL1ToL2MessageMembershipWitness',
        summary:
          'The leaf index and sibling path of an L1-to-L2 message in the tree as of the reference block, or null',
        params: [{ name: 'referenceBlock', schema: referenceBlock }, l1ToL2Message],
        resultName: 'witness',
        result: leafWitness.nullable(),
        handler: (ref, message) => witness(q.l1ToL2MessageMembershipWitness(ref, message)),
      },
      // A block number or latest in place of the reference block: the same BlockRef once decoded.
      {
        node: {
          summary: 'The leaf index and sibling path of an L1-to-L2 message in the tree at a block, or null',
          params: [{ name: 'blockNumber', schema: blockNumberOrLatest }, l1ToL2Message],
        },
      },
    ),
    defineMethod({
      namespace: 'svc',
      name: 'getL1ToL2MessageCheckpoint',
      summary: 'The checkpoint in which an L1-to-L2 message becomes available, or null when L1 never sent it',
      params: [l1ToL2Message],
      resultName: 'checkpointNumber',
      result: uint.nullable(),
      handler: (message) => q.l1ToL2MessageCheckpoint(message) ?? null,
    }),
    defineMethod({
      namespace: 'node',
      name: 'getL1ToL2MessageBlock',
      summary:
        'The block in which an L1-to-L2 message becomes available (the first block of its checkpoint), or null while that block does not exist',
      params: [l1ToL2Message],
      resultName: 'blockNumber',
      result: uint.nullable(),
      handler: (message) => q.l1ToL2MessageBlock(message) ?? null,
    }),
    defineMethod({
      namespace: 'node',
      name: 'isL1ToL2MessageSynced',
      summary:
        'Whether the node has seen the L1-to-L2 message on L1 (deprecated: use node_getL1ToL2MessageBlock)',
      deprecated: true,
      params: [l1ToL2Message],
      resultName: 'synced',
      result: z.boolean(),
      handler: (message) => q.isL1ToL2MessageSynced(message),
    }),
    defineMethod({
      namespace: 'svc',
      name: 'getL2ToL1MembershipWitness',
      summary:
        "An L2-to-L1 message's witness against the smallest outbox root covering its tx's checkpoint, or null until the tx is checkpointed and such a root is on L1",
      params: [
        { name: 'txHash', schema: txHash },
        { name: 'message', schema: frHex.describe('The L2-to-L1 message hash') },
        { name: 'messageIndexInTx', schema: messageIndexInTx, optional: true },
      ],
      resultName: 'witness',
      result: l2ToL1Witness.nullable(),
      handler: async (hash, message, index) =>
        (await q.l2ToL1MembershipWitness(hash, message, index)) ?? null,
    }),
    ...defineMethods(
      ['svc', 'node'],
      {
        name: 'getL2ToL1Messages',
        summary:
          'The L2-to-L1 messages of an epoch, per checkpoint, block and tx ([] for an epoch without checkpoints; deprecated: use svc_getL2ToL1MembershipWitness)',
        deprecated: true,
        params: [{ name: 'epoch', schema: uint }],
        resultName: 'messages',
        result: z.array(z.array(z.array(z.array(frHex)))),
        handler: (epoch) => q.l2ToL1Messages(epoch),
      },
      // The earlier twin shares only the name: it reads one block, not an epoch, and is current.
      {
        node: {
          summary: 'The L2-to-L1 messages of a block, per tx, or null for a block the chain does not have',
          deprecated: false,
          params: [{ name: 'blockNumber', schema: blockNumberOrLatest }],
          result: z.array(z.array(frHex)).nullable(),
          handler: (ref) => {
            const n = chain.blockNumberOf(ref);
            return n === undefined ? null : (q.l2ToL1MessagesOfBlock(n) ?? null);
          },
        },
      },
    ),
  ];
}
