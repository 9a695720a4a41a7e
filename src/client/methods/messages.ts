// The messages methods as declared, without their handlers (src/api/messages.ts adds them).
// Message methods of both sets (docs/messages.md): L1-to-L2 message witnesses and availability, and
// L2-to-L1 messages with their witnesses against the outbox.
import { z } from 'zod';
import { bigintDec, frHex, txHash, uint } from '../../core/codecs.js';
import { method, twins } from './declare.js';
import { BLOCK_NUMBER_ERRORS, L2_TO_L1_MESSAGE_ERRORS, REFERENCE_BLOCK_ERRORS } from './errors.js';
import { referenceBlock } from './params.js';
import { blockNumberOrLatest, siblingPath } from './state.js';

export const l1ToL2Message = {
  name: 'l1ToL2Message',
  schema: frHex.describe('The L1-to-L2 message hash (its leaf)'),
};

export const leafWitness = z
  .tuple([bigintDec, siblingPath])
  .describe('[leaf index, sibling path] in the L1-to-L2 message tree');

/** The index of a message among its tx's L2-to-L1 messages: a number, or {messageIndexInTx}. */
export const messageIndexInTx = z
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

export const l2ToL1Witness = z
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

export const messagesDeclarations = {
  getL1ToL2MessageMembershipWitness: twins(
    ['svc', 'node'],
    {
      name: 'getL1ToL2MessageMembershipWitness',
      summary:
        'The leaf index and sibling path of an L1-to-L2 message in the tree as of the reference block, or null',
      params: [{ name: 'referenceBlock', schema: referenceBlock }, l1ToL2Message],
      resultName: 'witness',
      result: leafWitness.nullable(),
      errors: REFERENCE_BLOCK_ERRORS,
    },
    {
      node: {
        summary: 'The leaf index and sibling path of an L1-to-L2 message in the tree at a block, or null',
        errors: BLOCK_NUMBER_ERRORS,
        params: [{ name: 'blockNumber', schema: blockNumberOrLatest }, l1ToL2Message],
      },
    },
  ),
  svc_getL1ToL2MessageCheckpoint: method({
    namespace: 'svc',
    name: 'getL1ToL2MessageCheckpoint',
    summary: 'The checkpoint in which an L1-to-L2 message becomes available, or null when L1 never sent it',
    params: [l1ToL2Message],
    resultName: 'checkpointNumber',
    result: uint.nullable(),
  }),
  node_getL1ToL2MessageBlock: method({
    namespace: 'node',
    name: 'getL1ToL2MessageBlock',
    summary:
      'The block in which an L1-to-L2 message becomes available (the first block of its checkpoint), or null while that block does not exist',
    params: [l1ToL2Message],
    resultName: 'blockNumber',
    result: uint.nullable(),
  }),
  node_isL1ToL2MessageSynced: method({
    namespace: 'node',
    name: 'isL1ToL2MessageSynced',
    summary:
      'Whether the node has seen the L1-to-L2 message on L1 (deprecated: use node_getL1ToL2MessageBlock)',
    deprecated: true,
    params: [l1ToL2Message],
    resultName: 'synced',
    result: z.boolean(),
  }),
  svc_getL2ToL1MembershipWitness: method({
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
    errors: L2_TO_L1_MESSAGE_ERRORS,
  }),
  getL2ToL1Messages: twins(
    ['svc', 'node'],
    {
      name: 'getL2ToL1Messages',
      summary:
        'The L2-to-L1 messages of an epoch, per checkpoint, block and tx ([] for an epoch without checkpoints; deprecated: use svc_getL2ToL1MembershipWitness)',
      deprecated: true,
      params: [{ name: 'epoch', schema: uint, description: 'The epoch number' }],
      resultName: 'messages',
      result: z.array(z.array(z.array(z.array(frHex)))),
    },
    {
      node: {
        summary: 'The L2-to-L1 messages of a block, per tx, or null for a block the chain does not have',
        deprecated: false,
        params: [{ name: 'blockNumber', schema: blockNumberOrLatest }],
        result: z.array(z.array(frHex)).nullable(),
      },
    },
  ),
} as const;
