// Which pending txs no block can take any more: a nullifier in the chain (from the pool's index of
// new nullifiers, or the tree on a first pass), expiry before the next slot, or an anchor block
// gone; each anchor looked up once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type BlockHeader, blockHeaderHash, emptyBlockHeader } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import type { PoolEntry } from '../../src/mempool/tx-pool.js';
import { findUnincludable } from '../../src/mempool/unincludable.js';
import { type LeafLocation, TreeId, type WorldStateReader } from '../../src/world-state/types.js';
import { makeTx } from './pool-fixtures.js';

/** Two anchor blocks' headers, and their hashes (what the archive tree holds). */
const header = (blockNumber: number): BlockHeader => {
  const h = emptyBlockHeader();
  h.globalVariables.blockNumber = blockNumber;
  return h;
};
const [SEVEN, EIGHT] = [header(7), header(8)];
const SEVEN_HASH = blockHeaderHash(SEVEN);

/** A pending entry with these nullifiers, expiration and anchor block header. */
function entry(nullifiers: Fr[], expiration = 2_000n, anchor: BlockHeader = SEVEN): PoolEntry {
  const t = makeTx(nullifiers, 1n);
  const data = { ...t.tx.data, expirationTimestamp: expiration };
  data.constants = { ...data.constants, anchorBlockHeader: anchor };
  return {
    hash: t.hash,
    tx: { ...t.tx, data },
    size: t.size,
    priorityFee: 1n,
    nullifiers,
    arrival: 0,
    blockNumber: undefined,
  };
}

/** A state whose nullifier and archive trees hold these leaves, counting look-ups per tree. */
function state(
  nullifiers: Fr[],
  archive: Fr[],
): Pick<WorldStateReader, 'findLeaf'> & { lookups: Map<TreeId, number> } {
  const lookups = new Map<TreeId, number>();
  return {
    lookups,
    findLeaf(tree: TreeId, value: Fr): LeafLocation | undefined {
      lookups.set(tree, (lookups.get(tree) ?? 0) + 1);
      const leaves = tree === TreeId.NULLIFIER ? nullifiers : tree === TreeId.ARCHIVE ? archive : [];
      return leaves.includes(value) ? { index: 0, blockNumber: 0 } : undefined;
    },
  };
}

/** The next block: block 5, in a slot starting at 1,000. */
const NEXT = { blockNumber: 5, slotStart: 1_000n };

describe('findUnincludable', () => {
  test('without the new nullifiers, each pending tx is looked up in the nullifier tree', () => {
    const spent = entry([0x10n, 0x11n]);
    const fresh = entry([0x20n]);
    const s = state([0x11n], [SEVEN_HASH]);
    assert.deepEqual(findUnincludable([spent, fresh], s, NEXT, undefined), [
      { hash: spent.hash, why: 'a nullifier of it is now in the chain' },
    ]);
    assert.equal(s.lookups.get(TreeId.NULLIFIER), 3);
  });

  test('with the txs that spend new nullifiers, the nullifier tree is not read', () => {
    const spent = entry([0x30n]);
    const fresh = entry([0x31n]);
    const s = state([0x31n], [SEVEN_HASH]);
    assert.deepEqual(findUnincludable([spent, fresh], s, NEXT, new Set([spent.hash])), [
      { hash: spent.hash, why: 'a nullifier of it is now in the chain' },
    ]);
    assert.equal(s.lookups.get(TreeId.NULLIFIER), undefined);
  });

  test('a tx expiring before the next slot starts is expired; one expiring at its start is not', () => {
    const early = entry([0x40n], 999n);
    const atStart = entry([0x41n], 1_000n);
    assert.deepEqual(findUnincludable([early, atStart], state([], [SEVEN_HASH]), NEXT, new Set()), [
      { hash: early.hash, why: 'expired' },
    ]);
  });

  test('block 1 takes any tx: one anchored at genesis (timestamp 0) is not expired on a fresh chain', () => {
    const fromGenesis = entry([0x42n], 86_399n);
    const s = state([], [SEVEN_HASH]);
    assert.deepEqual(
      findUnincludable([fromGenesis], s, { blockNumber: 1, slotStart: 1_795_906_183n }, new Set()),
      [],
    );
    assert.deepEqual(
      findUnincludable([fromGenesis], s, { blockNumber: 2, slotStart: 1_795_906_183n }, new Set()),
      [{ hash: fromGenesis.hash, why: 'expired' }],
    );
  });

  test('a tx whose anchor block is gone leaves; each distinct anchor is looked up once', () => {
    const txs = [entry([0x50n], 2_000n, SEVEN), entry([0x51n], 2_000n, EIGHT), entry([0x52n], 2_000n, EIGHT)];
    const s = state([], [SEVEN_HASH]);
    assert.deepEqual(
      findUnincludable(txs, s, NEXT, new Set()),
      txs.slice(1).map((t) => ({ hash: t.hash, why: 'its anchor block is no longer in the chain' })),
    );
    assert.equal(s.lookups.get(TreeId.ARCHIVE), 2);
  });

  test('a spent nullifier is the reason given before expiry', () => {
    const both = entry([0x60n], 1n);
    assert.deepEqual(findUnincludable([both], state([0x60n], []), NEXT, undefined), [
      { hash: both.hash, why: 'a nullifier of it is now in the chain' },
    ]);
  });
});
