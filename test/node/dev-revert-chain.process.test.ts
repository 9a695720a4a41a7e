// The chain side of a dev revert, against a real L1 (the archiver tests' setup): once anvil is
// back at a snapshot (evm_revert), Archiver.revertToSnapshot brings the store and the world state
// back to what Archiver.devSnapshot recorded at the same moment — blocks (a proposed one no
// checkpoint held included), tips (the finalized tip moves back), the L1 sync point and the
// L1-to-L2 messages — and a sync afterwards finds nothing new.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Archiver, ChainSnapshot } from '../../src/archiver/archiver.js';
import type { ChainStore } from '../../src/archiver/chain-store.js';
import type { TxEffect } from '../../src/core/block.js';
import { accumulateCheckpointOutHashes } from '../../src/core/out-hash.js';
import { slotStart } from '../../src/core/time.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import { messageSentIn, type RollupClient } from '../../src/l1/rollup-client.js';
import { TREE_IDS, type TreeSnapshot } from '../../src/world-state/types.js';
import type { WorldState } from '../../src/world-state/world-state.js';
import { deployer, L1ChainFixture, txEffect } from '../helpers/l1-chain-fixture.js';

const tx = (seed: bigint): TxEffect => txEffect(seed);

describe('a dev revert of the chain', () => {
  let chain: L1ChainFixture;
  let rollup: RollupClient;
  let worldState: WorldState;
  let store: ChainStore;
  let archiver: Archiver;

  const trees = (): TreeSnapshot[] =>
    TREE_IDS.map((t) => worldState.at(worldState.latestBlockNumber).snapshot(t));

  before(async () => {
    chain = await L1ChainFixture.start('cairn-dev-revert-');
    rollup = chain.rollup;
    // Checkpoint 1: blocks 1-2 (slot 1); checkpoint 2: block 3 (slot 2).
    await chain.publish(1, 1, [[tx(1n)], [tx(2n)]]);
    await chain.publish(2, 2, [[tx(3n)]]);
    ({ worldState, store, archiver } = await chain.openNode());
    assert.equal((await archiver.sync()).checkpoints, 2);
  });
  after(async () => {
    await worldState?.close();
    await chain?.close();
  });

  test('revertToSnapshot brings back blocks, tips, sync point and messages; the finalized tip moves back', async () => {
    // Block 4: built by this node and proposed, in no checkpoint yet (L1 cannot give it back).
    const fork = worldState.fork();
    const proposed = buildBlock(fork, {
      globalVariables: {
        ...store.getBlock(3)!.header.globalVariables,
        blockNumber: 4,
        slotNumber: 3,
        timestamp: slotStart(3, chain.constants),
      },
      txEffects: [tx(40n)],
      checkpointNumber: 3,
      indexWithinCheckpoint: 0,
      l1ToL2Messages: await rollup.l1ToL2Messages(3),
      totalManaUsed: 10n,
    });
    await archiver.appendBuiltBlock(fork, proposed);

    const snapshot: ChainSnapshot = archiver.devSnapshot();
    const anvilId = await chain.anvil.snapshot();
    const before = {
      tips: store.getTips(),
      sync: store.l1SyncPoint,
      trees: trees(),
      provenAt: store.provenAtL1Block,
    };
    assert.equal(snapshot.proposed.length, 1);
    assert.equal(before.tips.proposed.number, 4);

    // After the snapshot: L1 takes another checkpoint 3 (block 4 is replaced), proves epoch 0 and
    // finalizes it; an L1-to-L2 message is sent.
    await chain.builder.rollbackTo(3);
    await chain.publish(3, 3, [[tx(50n)], [tx(51n)]]);
    const proof = await rollup.submitEpochProof(
      deployer,
      0,
      1,
      3,
      accumulateCheckpointOutHashes(chain.epochOutHashes(0)),
      '0x01',
    );
    const sent = await rollup.sendL2Message(deployer, {
      recipient: 0x1234n,
      rollupVersion: 1,
      content: 0x55n,
      secretHash: 0x66n,
    });
    await chain.anvil.mine({ blocks: 4 });
    assert.equal((await rollup.waitFor(proof)).status, 'success');
    const sentReceipt = await rollup.waitFor(sent);
    assert.equal(sentReceipt.status, 'success');
    await archiver.sync();
    assert.equal(store.latestBlockNumber, 5);
    assert.equal(store.finalizedCheckpoint, 3);
    assert.notEqual(store.getBlock(4)!.hash, proposed.hash);
    const leaf = messageSentIn(sentReceipt).leaf;
    assert.ok(store.messages.get(leaf) !== undefined);

    await chain.anvil.revert({ id: anvilId });
    assert.equal(await archiver.revertToSnapshot(snapshot), true);

    assert.deepEqual(store.getTips(), before.tips);
    assert.equal(store.finalizedCheckpoint, 0, 'the finalized tip moved back');
    assert.equal(store.provenCheckpoint, 0);
    assert.equal(store.provenAtL1Block, before.provenAt);
    assert.deepEqual(store.l1SyncPoint, before.sync);
    assert.equal(store.getBlock(4)!.hash, proposed.hash);
    assert.equal(store.getBlock(5), undefined);
    assert.equal(store.getTxEffect(tx(50n).txHash), undefined);
    assert.equal(store.getTxEffect(tx(40n).txHash)!.l2BlockNumber, 4);
    assert.equal(worldState.latestBlockNumber, 4);
    assert.deepEqual(trees(), before.trees);
    assert.equal(store.messages.get(leaf), undefined, 'the message sent after the snapshot is gone');

    // L1 holds nothing the snapshot did not: a sync changes nothing.
    const report = await archiver.sync();
    assert.deepEqual([report.checkpoints, report.proven, report.pruned], [0, 0, 0]);
    assert.deepEqual(store.getTips(), before.tips);
  });
});
