// Dev methods (svcDev_, admin port): move the embedded L1's time and take the chain back to a
// snapshot, in the spirit of Anvil's cheat codes. Registered only when the node runs its own L1.
import { z } from 'zod';
import { bigintDec, frHex, l2Address, slotNumber, txHash, uint } from '../core/codecs.js';
import type { MessageSentEvent } from '../l1/rollup-client.js';
import type { DevOperations } from '../node/dev.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';
import { voidResult } from './schemas.js';

const moved = z
  .object({ l1BlockNumber: bigintDec, l2BlockNumber: uint, slot: uint.optional() })
  .describe('Where L1 and L2 are afterwards');

const sentMessage = z
  .object({ messageHash: frHex, index: bigintDec, checkpointNumber: uint, l1BlockNumber: bigintDec })
  .describe(
    'The message as the inbox recorded it: its hash (the L1-to-L2 tree leaf), global leaf index, the checkpoint that inserts it, and its L1 block',
  );

const sentShape = (e: MessageSentEvent) => ({
  messageHash: e.leaf,
  index: e.index,
  checkpointNumber: e.checkpointNumber,
  l1BlockNumber: e.l1BlockNumber,
});

const written = z
  .object({ txHash, blockNumber: uint })
  .describe("The write's hash (svc_getTxReceipt knows it, as a tx's) and the block that carries it");

/** A dev snapshot's id: a hex quantity, as anvil's evm_snapshot gives. */
const snapshotId = z
  .codec(
    z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,12})$/, 'expected a hex quantity such as 0x1'),
    z.number().int(),
    {
      decode: (text) => Number.parseInt(text.slice(2), 16),
      encode: (id) => `0x${id.toString(16)}`,
    },
  )
  .describe('Dev snapshot id: a hex quantity (0x0, 0x1, …)');

/** What the dev methods call: the cheat codes, undefined unless the node runs its own L1. */
export interface DevApiPorts {
  dev:
    | Pick<
        DevOperations,
        | 'mine'
        | 'advanceToSlot'
        | 'advanceToNextEpoch'
        | 'sendL1ToL2Message'
        | 'depositFeeJuice'
        | 'snapshot'
        | 'revert'
        | 'reset'
        | 'setStorageAt'
        | 'setBalance'
        | 'dropTx'
        | 'accounts'
        | 'setClock'
      >
    | undefined;
}

export function devMethods({ dev }: DevApiPorts): RpcMethod[] {
  if (dev === undefined) return [];
  const report = (r: { l1Block: bigint; l2Block: number; slot?: number }) => ({
    l1BlockNumber: r.l1Block,
    l2BlockNumber: r.l2Block,
    ...(r.slot === undefined ? {} : { slot: r.slot }),
  });
  return [
    defineMethod({
      namespace: 'svcDev',
      name: 'mine',
      summary: 'Mines L1 blocks (default 1), letting the node act after each',
      params: [
        {
          name: 'blocks',
          schema: z.number().int().min(1).max(1000, 'at most 1000 blocks per call'),
          optional: true,
        },
      ],
      resultName: 'moved',
      result: moved,
      handler: async (blocks) => report(await dev.mine(blocks ?? 1)),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'advanceToSlot',
      summary: 'Moves L1 time to the start of a future slot and mines there (the slot’s proposer acts)',
      params: [{ name: 'slot', schema: slotNumber }],
      resultName: 'moved',
      result: moved,
      handler: async (slot) => report(await dev.advanceToSlot(slot)),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'advanceToNextEpoch',
      summary: 'Moves L1 time to the first slot of the next epoch and mines there',
      params: [],
      resultName: 'moved',
      result: moved,
      handler: async () => report(await dev.advanceToNextEpoch()),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'sendL1ToL2Message',
      summary:
        "Sends an L1-to-L2 message through the L1 inbox from the embedded L1's dev account (mined at once with the manual clock)",
      params: [
        { name: 'recipient', schema: l2Address.describe('The L2 contract the message is for') },
        { name: 'content', schema: frHex },
        {
          name: 'secretHash',
          schema: frHex.describe('poseidon2([secret], 4199652938) of the secret that consumes it'),
        },
      ],
      resultName: 'message',
      result: sentMessage,
      handler: async (recipient, content, secretHash) =>
        sentShape(await dev.sendL1ToL2Message({ recipient, content, secretHash })),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'depositFeeJuice',
      summary:
        "Deposits Fee Juice from the embedded L1's dev account through the Fee Juice portal for an L2 address: claimable on L2 with the secret",
      params: [
        { name: 'to', schema: l2Address.describe('The L2 address to credit') },
        { name: 'amount', schema: bigintDec },
        { name: 'secretHash', schema: frHex.describe('poseidon2([secret], 4199652938) of the claim secret') },
      ],
      resultName: 'message',
      result: sentMessage,
      handler: async (to, amount, secretHash) =>
        sentShape(await dev.depositFeeJuice({ to, amount, secretHash })),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'snapshot',
      summary:
        'Takes a snapshot of the whole dev chain, the embedded L1 and the L2 (blocks, tips, state, contracts, mempool); returns its id (in memory: a restart forgets it)',
      params: [],
      resultName: 'id',
      result: snapshotId,
      handler: () => dev.snapshot(),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'revert',
      summary:
        'Takes the whole dev chain back to a snapshot; the snapshot and every later one are consumed. L1 time goes back too, and the finalized tip may move back',
      params: [{ name: 'id', schema: snapshotId }],
      resultName: 'reverted',
      result: z.literal(true).describe('true (an unknown id is an error and changes nothing)'),
      handler: async (id) => {
        await dev.revert(id);
        return true as const;
      },
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'reset',
      summary:
        'Takes the whole dev chain back to genesis, as the node started on it; every snapshot is consumed (refused when the node started on a chain already past genesis)',
      params: [],
      resultName: 'moved',
      result: moved,
      handler: async () => report(await dev.reset()),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'setStorageAt',
      summary:
        'Sets a public storage slot of a contract, carried by the next block the node builds (it moves L1 a slot with the manual and instant clocks); returns once that block is checkpointed',
      params: [
        { name: 'contract', schema: l2Address.describe('The contract whose storage to write') },
        { name: 'slot', schema: frHex.describe('The storage slot, as svc_getPublicStorageAt takes it') },
        { name: 'value', schema: frHex },
      ],
      resultName: 'written',
      result: written,
      handler: (contract, slot, value) => dev.setStorageAt(contract, slot, value),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'setBalance',
      summary:
        "Sets an address's Fee Juice balance (a slot of the FeeJuice contract's public storage), as svcDev_setStorageAt",
      params: [
        { name: 'address', schema: l2Address },
        {
          name: 'amount',
          schema: bigintDec.describe('Fee Juice in base units (10^18 per Fee Juice), below 2^128'),
        },
      ],
      resultName: 'written',
      result: written,
      handler: (address, amount) => dev.setBalance(address, amount),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'dropTx',
      summary:
        'Drops a pending tx from the mempool (its receipt then says dropped); an unknown or mined tx is refused',
      params: [{ name: 'txHash', schema: txHash }],
      resultName: 'void',
      result: voidResult,
      handler: (hash) => dev.dropTx(hash),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'getAccounts',
      summary: 'The dev accounts (prefunded at genesis) with their Fee Juice balances at the latest block',
      params: [],
      resultName: 'accounts',
      result: z.object({
        blockNumber: uint.describe('The block the balances are read at'),
        accounts: z.array(
          z.object({
            index: uint,
            address: l2Address,
            feeJuice: bigintDec.describe('Fee Juice balance in base units (10^18 per Fee Juice)'),
          }),
        ),
      }),
      handler: () => dev.accounts(),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'setClock',
      summary:
        'realtime: L1 mines every l1BlockTime seconds and the node acts on its own; manual: only these methods move time; instant: a block as soon as a tx arrives (pending txs get one at once)',
      params: [{ name: 'mode', schema: z.enum(['realtime', 'manual', 'instant']) }],
      resultName: 'void',
      result: voidResult,
      handler: (mode) => dev.setClock(mode),
    }),
  ];
}
