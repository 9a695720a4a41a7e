// Settling the pool with a chain of fakes: txs in new blocks become mined, txs of a block that went
// away are pending again, final ones leave; the pending txs are re-checked only when the latest
// block or the next slot moved, and against the nullifiers of the blocks settled since.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChainTips } from '../../src/archiver/types.js';
import type { L2Block } from '../../src/core/block.js';
import type { Fr } from '../../src/core/field.js';
import { txView } from '../../src/core/tx-view.js';
import { PoolSettling } from '../../src/mempool/pool-settling.js';
import { TxPool } from '../../src/mempool/tx-pool.js';
import { type LeafLocation, TreeId, type WorldStateReader } from '../../src/world-state/types.js';
import { silentLogger } from '../helpers/rpc.js';
import { TEST_CONSTANTS } from '../helpers/tx-service-fixture.js';
import { addOk, type MadeTx, makeTx, poolStores } from './pool-fixtures.js';

const stores = poolStores('cairn-pool-settling-test-');

const tip = (n: number) => ({ block: { number: n, hash: BigInt(n) }, checkpoint: { number: n, hash: 0n } });

/** A block of these txs' hashes and nullifiers (all the settling reads of a block). */
const block = (number: number, txs: { hash: Fr; nullifiers: Fr[] }[], salt = 0n): L2Block =>
  ({
    number,
    hash: BigInt(number) * 1000n + salt,
    body: { txEffects: txs.map((t) => ({ txHash: t.hash, nullifiers: t.nullifiers })) },
  }) as unknown as L2Block;

const effectOf = (t: MadeTx) => ({ hash: t.hash, nullifiers: [...txView(t.tx).nonRevertible.nullifiers] });

function setup() {
  const pool = TxPool.open(stores.open(), {
    maxTxCount: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
  });
  const blocks: L2Block[] = [block(0, [])];
  let finalized = 0;
  let slot = 1;
  /** Nullifiers in the tree, and each state the eviction asked for. */
  const treeNullifiers = new Set<Fr>();
  const statesRead: number[] = [];
  const state: Pick<WorldStateReader, 'findLeaf'> = {
    findLeaf: (tree: TreeId, value: Fr): LeafLocation | undefined =>
      tree === TreeId.ARCHIVE || treeNullifiers.has(value) ? { index: 0, blockNumber: 0 } : undefined,
  };
  const chain = {
    get latestBlockNumber() {
      return blocks.length - 1;
    },
    getBlock: (n: number) => blocks[n],
    getTips: (): ChainTips => ({
      proposed: { number: blocks.length - 1, hash: 0n },
      checkpointed: tip(blocks.length - 1),
      proven: tip(finalized),
      finalized: tip(finalized),
    }),
    getTxEffect: (hash: Fr) => {
      const b = blocks.find((x) => x.body.txEffects.some((e) => e.txHash === hash));
      return (
        b && {
          l2BlockNumber: b.number,
          l2BlockHash: b.hash,
          txIndexInBlock: 0,
          slotNumber: 0,
          data: {} as never,
        }
      );
    },
  };
  const settling = new PoolSettling({
    pool,
    chain,
    worldState: {
      get latestBlockNumber() {
        return blocks.length - 1;
      },
      at: (n: number) => {
        statesRead.push(n);
        return state as WorldStateReader;
      },
    },
    fees: {
      refresh: async () => {},
      get last() {
        return { slot, fees: { feePerDaGas: 0n, feePerL2Gas: 0n } };
      },
    },
    constants: TEST_CONSTANTS,
    logger: silentLogger(),
  });
  return {
    pool,
    blocks,
    settling,
    treeNullifiers,
    statesRead,
    finalize: (n: number) => {
      finalized = n;
    },
    nextSlot: () => {
      slot++;
    },
  };
}

describe('PoolSettling.afterPass', () => {
  test('mined with a new block, pending again when it goes, gone once final', async () => {
    const { pool, blocks, settling, finalize } = setup();
    const a = makeTx([0x100n], 1n);
    addOk(pool, a);
    blocks.push(block(1, [effectOf(a)]));
    await settling.afterPass();
    assert.equal(pool.getEntry(a.hash)?.blockNumber, 1);
    blocks.pop();
    await settling.afterPass();
    assert.equal(pool.status(a.hash), 'pending');
    blocks.push(block(1, [effectOf(a)], 7n));
    await settling.afterPass();
    assert.equal(pool.status(a.hash), 'mined', 'a rebuilt block 1 is settled again');
    finalize(1);
    await settling.afterPass();
    assert.equal(pool.status(a.hash), undefined);
  });

  test('pending txs are re-checked only when the latest block or the next slot moved', async () => {
    const { pool, blocks, settling, statesRead, nextSlot } = setup();
    addOk(pool, makeTx([0x200n], 1n));
    await settling.afterPass();
    await settling.afterPass();
    assert.equal(statesRead.length, 1);
    nextSlot();
    await settling.afterPass();
    assert.equal(statesRead.length, 2);
    blocks.push(block(1, []));
    await settling.afterPass();
    assert.deepEqual(statesRead, [0, 0, 1]);
    settling.poolReplaced();
    await settling.afterPass();
    assert.equal(statesRead.length, 4, 'a replaced pool is re-checked');
  });

  test('the first pass checks the tree; later ones the nullifiers of the new blocks', async () => {
    const { pool, blocks, settling, treeNullifiers } = setup();
    const inTree = makeTx([0x300n], 1n);
    const rivalled = makeTx([0x301n], 2n);
    const kept = makeTx([0x302n], 3n);
    for (const t of [inTree, rivalled, kept]) addOk(pool, t);
    treeNullifiers.add(0x300n);
    blocks.push(block(1, []));
    await settling.afterPass();
    assert.equal(pool.status(inTree.hash), undefined);
    // Later passes do not read the tree: a nullifier only there is not seen.
    treeNullifiers.add(0x302n);
    blocks.push(block(2, [{ hash: 0xfeen, nullifiers: [0x301n] }]));
    await settling.afterPass();
    assert.equal(pool.status(rivalled.hash), undefined);
    assert.equal(pool.status(kept.hash), 'pending');
  });
});
