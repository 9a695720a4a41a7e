// Sibling paths through the state queries (node_get*SiblingPath): any leaf position below a
// tree's capacity has a path, past the last leaf too; an index at or beyond the capacity is
// invalid params. Known answers: the reference's genesis roots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NodeError } from '../../src/core/errors.js';
import type { L1RollupConstants } from '../../src/core/time.js';
import { type BlockRef, ChainQueries } from '../../src/queries/chain.js';
import { StateQueries } from '../../src/queries/state.js';
import { TreeId } from '../../src/world-state/types.js';
import {
  openTestChainStore,
  openTestWorldState,
  type TestChainStore,
  type TestWorldState,
} from '../helpers/test-chain.js';
import { rootFromPath } from '../world-state/model.js';

const constants: L1RollupConstants = {
  l1StartBlock: 0n,
  l1GenesisTime: 0n,
  slotDuration: 36,
  epochDuration: 4,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  targetCommitteeSize: 0,
  rollupManaLimit: 1_000_000_000,
};
const LATEST: BlockRef = { kind: 'tag', tag: 'proposed' };
const EMPTY_NOTE_HASH_ROOT = 0x2ac5dda169f6bb3b9ca09bbac34e14c94d1654597db740153a1288d859a8a30an;
const GENESIS_NULLIFIER_ROOT = 0x1ec3788cd1c32e54d889d67fe29e481114f9d4afe9b44b229aa29d8ad528dd31n;

describe('state queries: sibling paths', () => {
  let world: TestWorldState;
  let chain: TestChainStore;
  let q: StateQueries;
  before(async () => {
    world = await openTestWorldState('cairn-state-queries-ws-');
    chain = openTestChainStore(world.genesis, { prefix: 'cairn-state-queries-' });
    const store = chain.store;
    q = new StateQueries(world.ws, new ChainQueries(store, constants), () => store.latestBlockNumber);
  });
  after(async () => {
    await chain.close();
    await world.close();
  });

  test('leaf 0 of the empty note hash tree has the path of empty subtrees', () => {
    const path = q.siblingPath(LATEST, TreeId.NOTE_HASH, 0n);
    assert.equal(path.length, 42);
    assert.equal(rootFromPath(0n, 0, path), EMPTY_NOTE_HASH_ROOT);
    assert.deepEqual(q.siblingPath({ kind: 'number', number: 0 }, TreeId.NOTE_HASH, 2n ** 42n - 1n), path);
  });

  test('past the prefilled nullifiers, up to the last position', () => {
    for (const index of [128n, 129n, 2n ** 42n - 1n]) {
      const path = q.siblingPath(LATEST, TreeId.NULLIFIER, index);
      assert.equal(rootFromPath(0n, Number(index), path), GENESIS_NULLIFIER_ROOT, `index ${index}`);
    }
  });

  test('an index at or beyond the capacity is invalid params, naming the capacity', () => {
    for (const [tree, height, name] of [
      [TreeId.NOTE_HASH, 42, 'NOTE_HASH_TREE'],
      [TreeId.NULLIFIER, 42, 'NULLIFIER_TREE'],
      [TreeId.PUBLIC_DATA, 40, 'PUBLIC_DATA_TREE'],
      [TreeId.ARCHIVE, 30, 'ARCHIVE'],
    ] as const) {
      assert.equal(q.siblingPath(LATEST, tree, 2n ** BigInt(height) - 1n).length, height);
      for (const index of [2n ** BigInt(height), 2n ** 53n]) {
        assert.throws(
          () => q.siblingPath(LATEST, tree, index),
          (err: unknown) => {
            assert.ok(err instanceof NodeError);
            assert.equal(err.kind, 'invalid-params');
            assert.match(err.message, new RegExp(`beyond ${name}, which has room for 2\\^${height} leaves`));
            assert.deepEqual((err.data as { issues: { path: string }[] }).issues[0]!.path, 'leafIndex');
            return true;
          },
        );
      }
    }
  });

  test('a block the chain does not have is still refused by name', () => {
    assert.throws(
      () => q.siblingPath({ kind: 'number', number: 7 }, TreeId.NOTE_HASH, 0n),
      (err: unknown) => err instanceof NodeError && /block 7 is not synced yet/.test(err.message),
    );
  });
});
