// The dev methods' handlers, each added to its declaration in src/client/methods/dev.ts (names,
// params, result schema and words, shared with the typed client), and the ports they call.
import { devDeclarations } from '../client/methods/dev.js';
import type { MessageSentEvent } from '../l1/rollup-client.js';
import type { DevOperations } from '../node/dev.js';
import { defineMethod, type RpcMethod } from '../rpc/registry.js';

const sentShape = (e: MessageSentEvent) => ({
  messageHash: e.leaf,
  index: e.index,
  checkpointNumber: e.checkpointNumber,
  l1BlockNumber: e.l1BlockNumber,
});

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
      ...devDeclarations.svcDev_mine,
      handler: async (blocks) => report(await dev.mine(blocks ?? 1)),
    }),
    defineMethod({
      ...devDeclarations.svcDev_advanceToSlot,
      handler: async (slot) => report(await dev.advanceToSlot(slot)),
    }),
    defineMethod({
      ...devDeclarations.svcDev_advanceToNextEpoch,
      handler: async () => report(await dev.advanceToNextEpoch()),
    }),
    defineMethod({
      ...devDeclarations.svcDev_sendL1ToL2Message,
      handler: async (recipient, content, secretHash) =>
        sentShape(await dev.sendL1ToL2Message({ recipient, content, secretHash })),
    }),
    defineMethod({
      ...devDeclarations.svcDev_depositFeeJuice,
      handler: async (to, amount, secretHash) =>
        sentShape(await dev.depositFeeJuice({ to, amount, secretHash })),
    }),
    defineMethod({ ...devDeclarations.svcDev_snapshot, handler: () => dev.snapshot() }),
    defineMethod({
      ...devDeclarations.svcDev_revert,
      handler: async (id) => {
        await dev.revert(id);
        return true as const;
      },
    }),
    defineMethod({ ...devDeclarations.svcDev_reset, handler: async () => report(await dev.reset()) }),
    defineMethod({
      ...devDeclarations.svcDev_setStorageAt,
      handler: (contract, slot, value) => dev.setStorageAt(contract, slot, value),
    }),
    defineMethod({
      ...devDeclarations.svcDev_setBalance,
      handler: (address, amount) => dev.setBalance(address, amount),
    }),
    defineMethod({ ...devDeclarations.svcDev_dropTx, handler: (hash) => dev.dropTx(hash) }),
    defineMethod({ ...devDeclarations.svcDev_getAccounts, handler: () => dev.accounts() }),
    defineMethod({ ...devDeclarations.svcDev_setClock, handler: (mode) => dev.setClock(mode) }),
  ];
}
