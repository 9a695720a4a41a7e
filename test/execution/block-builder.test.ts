import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { RevertCode, spongeBlobHash, type TxEffect } from '../../src/core/block.js';
import { blockHeaderHash, emptyGlobalVariables, type GlobalVariables } from '../../src/core/block-header.js';
import { BlockBuilder, buildBlock } from '../../src/execution/block-builder.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { rootFromPath } from '../world-state/model.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-builder-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const globals = (blockNumber: number, slotNumber: number): GlobalVariables => ({
  ...emptyGlobalVariables(),
  chainId: 31337n,
  version: 1n,
  blockNumber,
  slotNumber,
  timestamp: BigInt(1_700_000_000 + slotNumber * 12),
});

const effect = (seed: bigint): TxEffect => ({
  revertCode: RevertCode.OK,
  txHash: seed,
  transactionFee: 1000n + seed,
  noteHashes: [seed * 1000n + 1n, seed * 1000n + 2n],
  // Above the genesis prefill's keys 0..127.
  nullifiers: [seed * 1000n + 501n, seed * 1000n + 502n],
  l2ToL1Msgs: [],
  publicDataWrites: [{ leafSlot: 777n, value: seed }],
  privateLogs: [],
  publicLogs: [],
  contractClassLogs: [],
});

describe('block builder', () => {
  test('builds a checkpoint of two blocks whose hashes chain through the archive', async () => {
    const ws = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const genesisArchive = ws.at(0).snapshot(TreeId.ARCHIVE);

    const fork1 = ws.fork();
    const block1 = buildBlock(fork1, {
      globalVariables: globals(1, 5),
      txEffects: [effect(1n), effect(2n)],
      checkpointNumber: 1,
      indexWithinCheckpoint: 0,
      l1ToL2Messages: [42n, 43n],
      totalManaUsed: 500n,
    });
    await ws.commit(fork1);
    const fork2 = ws.fork();
    const block2 = buildBlock(fork2, {
      globalVariables: globals(2, 5),
      txEffects: [effect(3n)],
      checkpointNumber: 1,
      indexWithinCheckpoint: 1,
      previousSponge: block1.header.spongeBlobHash,
      totalManaUsed: 100n,
    });
    await ws.commit(fork2);

    assert.deepEqual(block1.header.lastArchive, genesisArchive);
    assert.deepEqual(block2.header.lastArchive, block1.archive);
    assert.equal(block1.hash, blockHeaderHash(block1.header));
    assert.equal(block2.hash, blockHeaderHash(block2.header));
    assert.equal(block1.header.totalFees, 1001n + 1002n);
    assert.equal(block2.header.totalManaUsed, 100n);
    // The sponge runs on through the checkpoint.
    assert.equal(block2.header.spongeBlobHash, spongeBlobHash(block1.header.spongeBlobHash, [effect(3n)]));

    const view = ws.at(2);
    assert.deepEqual(view.snapshot(TreeId.ARCHIVE), block2.archive);
    assert.equal(view.getLeafValue(TreeId.ARCHIVE, 1), block1.hash);
    assert.equal(view.getLeafValue(TreeId.ARCHIVE, 2), block2.hash);
    const path = view.getSiblingPath(TreeId.ARCHIVE, 1);
    assert.equal(rootFromPath(block1.hash, 1, path), block2.archive.root);
    // Header state = the trees after the block.
    assert.deepEqual(ws.at(1).snapshot(TreeId.NOTE_HASH), block1.header.state.partial.noteHashTree);
    assert.deepEqual(ws.at(1).snapshot(TreeId.NULLIFIER), block1.header.state.partial.nullifierTree);
    assert.deepEqual(ws.at(1).snapshot(TreeId.PUBLIC_DATA), block1.header.state.partial.publicDataTree);
    assert.deepEqual(ws.at(1).snapshot(TreeId.L1_TO_L2_MESSAGE), block1.header.state.l1ToL2MessageTree);
    // Messages come once per checkpoint, padded to 1024; note hashes and nullifiers in 64-leaf slots.
    assert.equal(block1.header.state.l1ToL2MessageTree.nextAvailableLeafIndex, 1024);
    assert.equal(block2.header.state.l1ToL2MessageTree.nextAvailableLeafIndex, 1024);
    assert.deepEqual(view.findLeaf(TreeId.L1_TO_L2_MESSAGE, 43n), { index: 1, blockNumber: 1 });
    assert.equal(block2.header.state.partial.noteHashTree.nextAvailableLeafIndex, 3 * 64);
    assert.deepEqual(view.findLeaf(TreeId.NOTE_HASH, 2002n), { index: 65, blockNumber: 1 });
    assert.deepEqual(view.findLeaf(TreeId.NULLIFIER, 3502n), { index: 128 + 128 + 1, blockNumber: 2 });
    const slot = view.findLeaf(TreeId.PUBLIC_DATA, 777n)!;
    assert.equal(view.getLeafPreimage(TreeId.PUBLIC_DATA, slot.index)!.value, 3n);
    await ws.close();
  });

  test('refuses a wrong block number and messages outside a checkpoint’s first block', async () => {
    const ws = await WorldState.open(openEnvironment(join(dir, 'b'), 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const base = { txEffects: [], checkpointNumber: 1, totalManaUsed: 0n };
    assert.throws(
      () =>
        buildBlock(ws.fork(), {
          ...base,
          globalVariables: globals(2, 1),
          indexWithinCheckpoint: 0,
          l1ToL2Messages: [],
        }),
      /cannot be built on block 0/,
    );
    assert.throws(
      () =>
        buildBlock(ws.fork(), {
          ...base,
          globalVariables: globals(1, 1),
          indexWithinCheckpoint: 1,
          l1ToL2Messages: [],
        }),
      /first block/,
    );
    assert.throws(
      () => buildBlock(ws.fork(), { ...base, globalVariables: globals(1, 1), indexWithinCheckpoint: 0 }),
      /first block/,
    );
    // An empty block is fine.
    const block = buildBlock(ws.fork(), {
      ...base,
      globalVariables: globals(1, 1),
      indexWithinCheckpoint: 0,
      l1ToL2Messages: [],
    });
    assert.equal(block.body.txEffects.length, 0);
    await ws.close();
  });

  test('sealing in slices gives the same block as sealing at once, first block or later', async () => {
    const ws = await WorldState.open(openEnvironment(join(dir, 'c'), 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const effects = Array.from({ length: 40 }, (_, i) => effect(BigInt(i + 1)));
    const inputs = [
      { globalVariables: globals(1, 3), checkpointNumber: 1, indexWithinCheckpoint: 0, l1ToL2Messages: [9n] },
      {
        globalVariables: globals(1, 3),
        checkpointNumber: 1,
        indexWithinCheckpoint: 1,
        previousSponge: 1234n,
      },
    ];
    for (const input of inputs) {
      const once = new BlockBuilder(ws.fork(), input);
      const sliced = new BlockBuilder(ws.fork(), input);
      for (const e of effects) {
        once.addTx(e);
        sliced.addTx(e);
      }
      const expected = once.finish(77n);
      const got = await sliced.finishInSlices(77n, async () => {});
      assert.deepEqual(got, expected);
      assert.equal(
        got.header.spongeBlobHash,
        spongeBlobHash(input.indexWithinCheckpoint === 0 ? 0n : 1234n, effects),
      );
    }
    await ws.close();
  });
});
