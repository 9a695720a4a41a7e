// The archiver's operator rollback against a real L1 (same setup as archiver.test.ts): rollbackTo
// a block unwinds the world state and the store to it and moves the L1 sync point back, and the
// next sync reads the same blocks again; with rebuildWorldState the world state is cleared and
// re-executed from the stored blocks; catchUpWorldState brings a world state that is behind (or
// ahead of) the store level with it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Archiver } from '../../src/archiver/archiver.js';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import type { L2Block, TxEffect } from '../../src/core/block.js';
import { accumulateCheckpointOutHashes } from '../../src/core/out-hash.js';
import type { L1RollupConstants } from '../../src/core/time.js';
import type { RollupClient } from '../../src/l1/rollup-client.js';
import { TREE_IDS, TreeId, type TreeSnapshot } from '../../src/world-state/types.js';
import type { WorldState } from '../../src/world-state/world-state.js';
import { deployer, L1ChainFixture, txEffect } from '../helpers/l1-chain-fixture.js';

const tx = (seed: bigint): TxEffect => txEffect(seed, seed % 2n === 0n ? [0x7700n + seed] : []);

describe('archiver rollback', () => {
  let chain: L1ChainFixture;
  let rollup: RollupClient;
  let constants: L1RollupConstants;

  // The node under test.
  let worldState: WorldState;
  let store: ChainStore;
  let archiver: Archiver;

  /** The builder's blocks (index = block number; 0 unused) and checkpoint layout. */
  let built: L2Block[];
  /** The builder's tree snapshots after each block. */
  let trees: TreeSnapshot[][];
  /** The L1-to-L2 message sent between checkpoints 1 and 2 (checkpoint 3 inserts it). */
  let messageLeaf: bigint;

  /** The node's world state trees at its latest block. */
  const nodeTrees = () => TREE_IDS.map((tree) => worldState.at(worldState.latestBlockNumber).snapshot(tree));

  /** Asserts the node holds exactly blocks 0..`last` of the builder, in store and world state. */
  function assertNodeAt(last: number): void {
    assert.equal(store.latestBlockNumber, last);
    assert.equal(worldState.latestBlockNumber, last);
    for (let n = 1; n < built.length; n++) {
      assert.equal(store.getBlock(n)?.hash, n <= last ? built[n]!.hash : undefined, `block ${n}`);
    }
    if (last > 0) assert.deepEqual(nodeTrees(), trees[last]);
  }

  /** Counts the node world state's resets and commits from now on. */
  function spyOnWorldState(): { resets: number; commits: number; restore: () => void } {
    const counts = { resets: 0, commits: 0, restore: () => {} };
    const reset = worldState.reset;
    const commit = worldState.commit;
    worldState.reset = function (this: WorldState) {
      counts.resets++;
      return reset.call(this);
    };
    worldState.commit = function (this: WorldState, fork) {
      counts.commits++;
      return commit.call(this, fork);
    };
    counts.restore = () => {
      worldState.reset = reset;
      worldState.commit = commit;
    };
    return counts;
  }

  before(async () => {
    chain = await L1ChainFixture.start('cairn-archiver-rollback-');
    ({ rollup, constants, built, trees } = chain);

    // Checkpoint 1: blocks 1-2; 2: blocks 3-4; 3: block 5; 4: blocks 6-7.
    await chain.publish(1, 1, [[tx(1n), tx(2n)], [tx(3n)]]);
    const sent = await rollup.sendL2Message(deployer, {
      recipient: 0x1234n,
      rollupVersion: 1,
      content: 0x55n,
      secretHash: 0x66n,
    });
    await chain.anvil.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(sent)).status, 'success');
    const group3 = await rollup.l1ToL2Messages(3);
    assert.equal(group3.length, 1, 'the message goes to checkpoint 3');
    messageLeaf = group3[0]!;
    await chain.publish(2, 2, [[tx(4n)], [tx(5n), tx(6n)]]);
    await chain.publish(3, 3, [[tx(7n)]]);
    // Checkpoints 1-3 (epoch 0) are proven.
    const proof = await rollup.submitEpochProof(
      deployer,
      0,
      1,
      3,
      accumulateCheckpointOutHashes(chain.epochOutHashes(0)),
      '0x01',
    );
    await chain.anvil.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(proof)).status, 'success');
    await chain.publish(4, 5, [[tx(8n)], [tx(9n)]]);
    await chain.anvil.mine({ blocks: 3 });

    ({ worldState, store, archiver } = await chain.openNode());
    const report = await archiver.sync();
    assert.equal(report.checkpoints, 4);
  });
  after(async () => {
    await worldState?.close();
    await chain?.close();
  });

  test('the node is synced: 7 blocks in 4 checkpoints, 3 proven and final, the message known', () => {
    assertNodeAt(7);
    assert.equal(store.latestCheckpointNumber, 4);
    assert.equal(store.provenCheckpoint, 3);
    assert.equal(store.finalizedCheckpoint, 3);
    assert.equal(store.getBlock(5)!.checkpointNumber, 3);
    assert.ok(store.messages.get(messageLeaf) !== undefined);
  });

  test('rollbackTo a block inside a checkpoint, then sync: the same blocks come back', async () => {
    const checkpoint1L1 = store.getCheckpoint(1)!.l1;
    const spy = spyOnWorldState();
    let result: Awaited<ReturnType<Archiver['rollbackTo']>>;
    try {
      result = await archiver.rollbackTo(3, { rebuildWorldState: false });
      assert.equal(spy.resets, 0);
      assert.equal(spy.commits, 0);
    } finally {
      spy.restore();
    }
    // Block 3 is checkpoint 2's first block: checkpoint 2 goes, checkpoint 1 is the last kept.
    assert.deepEqual(result, { removed: 4, keptCheckpoint: 1, restartL1Block: checkpoint1L1.blockNumber });
    assertNodeAt(3);
    assert.deepEqual(
      TREE_IDS.map((tree) => worldState.at(3).snapshot(tree)),
      trees[3],
    );
    assert.equal(store.latestCheckpointNumber, 1);
    assert.equal(store.getTips().proposed.number, 3);
    assert.equal(store.provenCheckpoint, 1);
    assert.equal(store.finalizedCheckpoint, 1);
    assert.deepEqual(store.l1SyncPoint, {
      blockNumber: checkpoint1L1.blockNumber,
      blockHash: checkpoint1L1.blockHash,
      timestamp: checkpoint1L1.timestamp,
    });
    // The message was sent after checkpoint 1's L1 block: forgotten until read again.
    assert.equal(store.messages.get(messageLeaf), undefined);

    const report = await archiver.sync();
    assert.equal(report.checkpoints, 3);
    assert.equal(report.proven, 1);
    assertNodeAt(7);
    assert.equal(store.latestCheckpointNumber, 4);
    assert.equal(store.provenCheckpoint, 3);
    assert.equal(store.finalizedCheckpoint, 3);
    assert.ok(store.messages.get(messageLeaf) !== undefined);
    assert.equal(store.getTxEffect(0xabc006n)!.l2BlockNumber, 4);
  });

  test('rollbackTo with rebuildWorldState resets the world state and re-executes it to the target', async () => {
    const checkpoint3L1 = store.getCheckpoint(3)!.l1;
    const spy = spyOnWorldState();
    let result: Awaited<ReturnType<Archiver['rollbackTo']>>;
    try {
      result = await archiver.rollbackTo(5, { rebuildWorldState: true });
      assert.equal(spy.resets, 1, 'the world state was reset');
      assert.equal(spy.commits, 5, 'blocks 1..5 were re-executed');
    } finally {
      spy.restore();
    }
    assert.deepEqual(result, { removed: 2, keptCheckpoint: 3, restartL1Block: checkpoint3L1.blockNumber });
    assertNodeAt(5);
    // The same archive (and every other tree) as before the rollback, block 5 with its message.
    assert.deepEqual(worldState.at(5).snapshot(TreeId.ARCHIVE), trees[5]![TreeId.ARCHIVE]);
    assert.ok(worldState.at(5).findLeaf(TreeId.L1_TO_L2_MESSAGE, messageLeaf) !== undefined);
    assert.equal(store.latestCheckpointNumber, 3);
    assert.equal(store.provenCheckpoint, 3);
    assert.equal(store.l1SyncPoint!.blockNumber, checkpoint3L1.blockNumber);
    // Sent before checkpoint 3's L1 block: kept.
    assert.ok(store.messages.get(messageLeaf) !== undefined);

    assert.equal((await archiver.sync()).checkpoints, 1);
    assertNodeAt(7);
  });

  test('rollbackTo genesis restarts sync from before the rollup start block', async () => {
    const result = await archiver.rollbackTo(0, { rebuildWorldState: false });
    assert.deepEqual(result, { removed: 7, keptCheckpoint: 0, restartL1Block: constants.l1StartBlock - 1n });
    assertNodeAt(0);
    assert.deepEqual(
      TREE_IDS.map((tree) => worldState.at(0).snapshot(tree)),
      trees[0],
    );
    assert.equal(store.latestCheckpointNumber, 0);
    assert.equal(store.provenCheckpoint, 0);
    assert.equal(store.l1SyncPoint!.blockNumber, constants.l1StartBlock - 1n);
    assert.equal(store.messages.get(messageLeaf), undefined);
    assert.equal((await archiver.sync()).checkpoints, 4);
    assertNodeAt(7);
    assert.equal(store.provenCheckpoint, 3);
  });

  test('catchUpWorldState re-executes the stored blocks a world state lacks', async () => {
    await worldState.rollbackTo(2);
    assert.equal(worldState.latestBlockNumber, 2);
    assert.equal(await archiver.catchUpWorldState(), 5);
    assertNodeAt(7);
    // Level already: nothing to do.
    assert.equal(await archiver.catchUpWorldState(), 0);
    assertNodeAt(7);
  });

  test('catchUpWorldState from a reset world state rebuilds every block', async () => {
    await worldState.reset();
    assert.equal(await archiver.catchUpWorldState(), 7);
    assertNodeAt(7);
  });

  test('catchUpWorldState rolls back a world state ahead of the store', async () => {
    // The store loses block 7 (as after a crash between the two stores' commits).
    const checkpoint3L1 = store.getCheckpoint(3)!.l1;
    store.rewind(6, {
      blockNumber: checkpoint3L1.blockNumber,
      blockHash: checkpoint3L1.blockHash,
      timestamp: checkpoint3L1.timestamp,
    });
    assert.equal(worldState.latestBlockNumber, 7);
    assert.equal(await archiver.catchUpWorldState(), 0);
    assert.equal(worldState.latestBlockNumber, 6);
    assert.deepEqual(nodeTrees(), trees[6]);
    // Sync reads checkpoint 4 again: block 6 is kept, block 7 rebuilt.
    assert.equal((await archiver.sync()).checkpoints, 1);
    assertNodeAt(7);
  });

  test('stored blocks that do not re-execute to their header are refused', async () => {
    await worldState.rollbackTo(4);
    // The store returns block 5 with other txs than its header commits to.
    const getBlock = store.getBlock.bind(store);
    store.getBlock = (n: number) => {
      const block = getBlock(n);
      return n === 5 && block ? { ...block, body: { ...block.body, txEffects: [tx(99n)] } } : block;
    };
    try {
      await assert.rejects(archiver.catchUpWorldState(), /stored block 5 does not re-execute/);
    } finally {
      store.getBlock = getBlock;
    }
    assert.equal(worldState.latestBlockNumber, 4);
    assert.equal(await archiver.catchUpWorldState(), 3);
    assertNodeAt(7);
  });
});
