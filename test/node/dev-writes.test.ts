// Dev writes (svcDev_setStorageAt, svcDev_setBalance) ride in blocks, so they are consensus data:
// property tests that a block carrying a dev write effect — first, before ordinary tx effects, as
// the sequencer puts it — replays on another world state to the same block (what the archiver
// and attesting validators do), through the checkpoint body encoding L1 carries, and leaves the
// written values in public storage; each effect is distinct by its nonce and lands once. And the
// queue the sequencer takes them from offers only what no block of the chain holds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { RevertCode, type TxEffect } from '../../src/core/block.js';
import { emptyCheckpointHeader, emptyGlobalVariables } from '../../src/core/block-header.js';
import { decodeCheckpointBody, encodeCheckpointBody } from '../../src/core/checkpoint-body.js';
import { FR_MODULUS } from '../../src/core/field.js';
import { buildBlock, replaysTo } from '../../src/execution/block-builder.js';
import { readPublicData } from '../../src/execution/public-storage.js';
import { DevWrites, devWriteEffect } from '../../src/node/dev-writes.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { WorldState } from '../../src/world-state/world-state.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-dev-writes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const field = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });
/** Leaf slots above the genesis prefill's keys (0..127): distinct, 1 to 8 of them, with values. */
const writesArb = fc
  .uniqueArray(fc.bigInt({ min: 1000n, max: FR_MODULUS - 1n }), { minLength: 1, maxLength: 8 })
  .chain((slots) => fc.tuple(...slots.map((leafSlot) => field.map((value) => ({ leafSlot, value })))));

/** An ordinary tx's effect, which the dev write goes before. */
const txEffect = (seed: bigint): TxEffect => ({
  revertCode: RevertCode.OK,
  txHash: 0xabc000n + seed,
  transactionFee: 5n,
  noteHashes: [0x1000n + seed],
  nullifiers: [0x2000n + seed],
  l2ToL1Msgs: [],
  publicDataWrites: [{ leafSlot: 0x3000n + seed, value: seed }],
  privateLogs: [],
  publicLogs: [],
  contractClassLogs: [],
});

describe('dev writes', () => {
  let builder: WorldState;
  let replayer: WorldState;
  before(async () => {
    const open = (name: string) =>
      WorldState.open(openEnvironment(join(dir, name), 'world-state'), {
        historyBlocks: 0,
        genesisBlockHash: genesisBlockHashOf,
      });
    [builder, replayer] = [await open('builder'), await open('replayer')];
  });
  after(async () => {
    await builder?.close();
    await replayer?.close();
  });

  test('a block carrying a dev write replays to the same block, through the L1 body, with the values written', async () => {
    await fc.assert(
      fc.asyncProperty(writesArb, field, fc.boolean(), async (writes, nonce, withTx) => {
        const effect = devWriteEffect(writes, nonce);
        const fork = builder.fork();
        const block = buildBlock(fork, {
          globalVariables: {
            ...emptyGlobalVariables(),
            chainId: 31337n,
            version: 1n,
            blockNumber: 1,
            slotNumber: 1,
          },
          txEffects: withTx ? [effect, txEffect(nonce % 1000n)] : [effect],
          checkpointNumber: 1,
          indexWithinCheckpoint: 0,
          l1ToL2Messages: [],
          totalManaUsed: 0n,
        });
        // What another node reads from L1: the checkpoint body.
        const [carried] = decodeCheckpointBody(
          encodeCheckpointBody({ header: emptyCheckpointHeader(), blocks: [block] }),
        ).blocks;
        assert.deepEqual(carried, block);
        try {
          const fork = replayer.fork();
          assert.equal(
            replaysTo(
              fork,
              carried!,
              { checkpointNumber: 1, indexWithinCheckpoint: 0 },
              { l1ToL2Messages: [] },
            ),
            true,
          );
          await replayer.commit(fork);
          const state = replayer.at(1);
          for (const w of writes) assert.equal(readPublicData(state, w.leafSlot), w.value);
          assert.equal(block.header.totalFees, withTx ? 5n : 0n, 'a dev write pays no fee');
        } finally {
          await replayer.rollbackTo(0);
        }
      }),
      { numRuns: 25 },
    );
  });

  test('an effect is named by its nonce and writes, lands once, and is refused empty or with a slot twice', () => {
    fc.assert(
      fc.property(writesArb, field, field, (writes, a, b) => {
        const e = devWriteEffect(writes, a);
        assert.deepEqual(devWriteEffect(writes, a), e);
        if (a !== b) assert.notEqual(devWriteEffect(writes, b).txHash, e.txHash);
        // Its hash is its one nullifier: a block (or a chain) cannot hold it twice.
        assert.deepEqual(e.nullifiers, [e.txHash]);
        assert.deepEqual(e.publicDataWrites, writes);
        assert.equal(e.transactionFee, 0n);
      }),
    );
    assert.throws(() => devWriteEffect([], 1n), /at least one slot/);
    assert.throws(
      () =>
        devWriteEffect(
          [
            { leafSlot: 5n, value: 1n },
            { leafSlot: 5n, value: 2n },
          ],
          1n,
        ),
      /each slot once/,
    );
  });

  test('the queue offers a write until a block of the chain holds it, again once that block is gone', () => {
    const inChain = new Set<bigint>();
    const queue = new DevWrites({ getTxEffect: (h) => (inChain.has(h) ? ({} as never) : undefined) });
    const [x, y] = [
      devWriteEffect([{ leafSlot: 1n, value: 2n }], 1n),
      devWriteEffect([{ leafSlot: 1n, value: 3n }], 2n),
    ];
    queue.add(x);
    queue.add(y);
    assert.deepEqual(queue.take(), [x, y]);
    inChain.add(x.txHash);
    assert.deepEqual(queue.take(), [y], 'x is in a block');
    inChain.delete(x.txHash);
    assert.deepEqual(queue.take(), [x, y], 'its block was dropped: x comes again');
    queue.remove(x.txHash);
    queue.remove(y.txHash);
    assert.deepEqual(queue.take(), []);
  });
});
