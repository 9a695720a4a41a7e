// Dev methods (svcDev_, admin port): move the embedded L1's time, in the spirit of Anvil's
// cheat codes. Registered only when the node runs its own L1.
import { z } from 'zod';
import { bigintDec, slotNumber, uint } from '../../core/codecs.js';
import type { CairnNode } from '../../node/node.js';
import { defineMethod, type RpcMethod } from '../../rpc/registry.js';
import { voidResult } from '../schemas.js';

const moved = z
  .object({ l1BlockNumber: bigintDec, l2BlockNumber: uint, slot: uint.optional() })
  .describe('Where L1 and L2 are afterwards');

export function devMethods(node: CairnNode): RpcMethod[] {
  if (!node.l1.embedded) return [];
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
      handler: async (blocks) => report(await node.mine(blocks ?? 1)),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'advanceToSlot',
      summary: 'Moves L1 time to the start of a future slot and mines there (the slot’s proposer acts)',
      params: [{ name: 'slot', schema: slotNumber }],
      resultName: 'moved',
      result: moved,
      handler: async (slot) => report(await node.advanceToSlot(slot)),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'advanceToNextEpoch',
      summary: 'Moves L1 time to the first slot of the next epoch and mines there',
      params: [],
      resultName: 'moved',
      result: moved,
      handler: async () => report(await node.advanceToNextEpoch()),
    }),
    defineMethod({
      namespace: 'svcDev',
      name: 'setClock',
      summary:
        'realtime: L1 mines every l1BlockTime seconds and the node acts on its own; manual: only these methods move time',
      params: [{ name: 'mode', schema: z.enum(['realtime', 'manual']) }],
      resultName: 'void',
      result: voidResult,
      handler: (mode) => node.setClock(mode),
    }),
  ];
}
