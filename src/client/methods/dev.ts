// The dev methods as declared, without their handlers (src/api/dev.ts adds them).
// Dev methods (svcDev_, admin port): move the embedded L1's time and take the chain back to a
// snapshot, in the spirit of Anvil's cheat codes. Registered only when the node runs its own L1.
import { z } from 'zod';
import { bigintDec, frHex, l2Address, slotNumber, txHash, uint } from '../../core/codecs.js';
import { method } from './declare.js';
import {
  BALANCE_ABOVE_U128,
  DEV_WRITE_ERRORS,
  DROP_TX_ERRORS,
  L1_TX_REVERTED,
  NO_L1_GENESIS,
  SLOT_NOT_IN_FUTURE,
  UNKNOWN_SNAPSHOT,
} from './errors.js';
import { voidResult } from './schemas.js';

export const moved = z
  .object({ l1BlockNumber: bigintDec, l2BlockNumber: uint, slot: uint.optional() })
  .describe('Where L1 and L2 are afterwards');

export const sentMessage = z
  .object({ messageHash: frHex, index: bigintDec, checkpointNumber: uint, l1BlockNumber: bigintDec })
  .describe(
    'The message as the inbox recorded it: its hash (the L1-to-L2 tree leaf), global leaf index, the checkpoint that inserts it, and its L1 block',
  );

export const written = z
  .object({ txHash, blockNumber: uint })
  .describe("The write's hash (svc_getTxReceipt knows it, as a tx's) and the block that carries it");

/** A dev snapshot's id: a hex quantity, as anvil's evm_snapshot gives. */
export const snapshotId = z
  .codec(
    z.string().regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,12})$/, 'expected a hex quantity such as 0x1'),
    z.number().int(),
    {
      decode: (text) => Number.parseInt(text.slice(2), 16),
      encode: (id) => `0x${id.toString(16)}`,
    },
  )
  .describe('Dev snapshot id: a hex quantity (0x0, 0x1, …)');

export const devDeclarations = {
  svcDev_mine: method({
    namespace: 'svcDev',
    name: 'mine',
    summary: 'Mines L1 blocks (default 1), letting the node act after each',
    params: [
      {
        name: 'blocks',
        schema: z.number().int().min(1).max(1000, 'at most 1000 blocks per call'),
        optional: true,
        description: 'How many L1 blocks to mine, 1 to 1000 (default 1)',
      },
    ],
    resultName: 'moved',
    result: moved,
  }),
  svcDev_advanceToSlot: method({
    namespace: 'svcDev',
    name: 'advanceToSlot',
    summary: 'Moves L1 time to the start of a future slot and mines there (the slot’s proposer acts)',
    params: [{ name: 'slot', schema: slotNumber }],
    resultName: 'moved',
    result: moved,
    errors: [SLOT_NOT_IN_FUTURE],
  }),
  svcDev_advanceToNextEpoch: method({
    namespace: 'svcDev',
    name: 'advanceToNextEpoch',
    summary: 'Moves L1 time to the first slot of the next epoch and mines there',
    params: [],
    resultName: 'moved',
    result: moved,
  }),
  svcDev_sendL1ToL2Message: method({
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
    errors: [L1_TX_REVERTED],
  }),
  svcDev_depositFeeJuice: method({
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
    errors: [L1_TX_REVERTED],
  }),
  svcDev_snapshot: method({
    namespace: 'svcDev',
    name: 'snapshot',
    summary:
      'Takes a snapshot of the whole dev chain, the embedded L1 and the L2 (blocks, tips, state, contracts, mempool); returns its id (in memory: a restart forgets it)',
    params: [],
    resultName: 'id',
    result: snapshotId,
  }),
  svcDev_revert: method({
    namespace: 'svcDev',
    name: 'revert',
    summary:
      'Takes the whole dev chain back to a snapshot; the snapshot and every later one are consumed. L1 time goes back too, and the finalized tip may move back',
    params: [{ name: 'id', schema: snapshotId }],
    resultName: 'reverted',
    result: z.literal(true).describe('true (an unknown id is an error and changes nothing)'),
    errors: [UNKNOWN_SNAPSHOT],
  }),
  svcDev_reset: method({
    namespace: 'svcDev',
    name: 'reset',
    summary:
      'Takes the whole dev chain back to genesis, as the node started on it; every snapshot is consumed (refused when the node started on a chain already past genesis)',
    params: [],
    resultName: 'moved',
    result: moved,
    errors: [NO_L1_GENESIS],
  }),
  svcDev_setStorageAt: method({
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
    errors: DEV_WRITE_ERRORS,
  }),
  svcDev_setBalance: method({
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
    errors: [BALANCE_ABOVE_U128, ...DEV_WRITE_ERRORS],
  }),
  svcDev_dropTx: method({
    namespace: 'svcDev',
    name: 'dropTx',
    summary:
      'Drops a pending tx from the mempool (its receipt then says dropped); an unknown or mined tx is refused',
    params: [{ name: 'txHash', schema: txHash }],
    resultName: 'void',
    result: voidResult,
    errors: DROP_TX_ERRORS,
  }),
  svcDev_getAccounts: method({
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
  }),
  svcDev_setClock: method({
    namespace: 'svcDev',
    name: 'setClock',
    summary:
      'realtime: L1 mines every l1BlockTime seconds and the node acts on its own; manual: only these methods move time; instant: a block as soon as a tx arrives (pending txs get one at once)',
    params: [
      {
        name: 'mode',
        schema: z.enum(['realtime', 'manual', 'instant']),
        description:
          'realtime: blocks in wall-clock slots; manual: only the dev methods move L1; instant: a block as soon as a tx arrives',
      },
    ],
    resultName: 'void',
    result: voidResult,
  }),
} as const;
