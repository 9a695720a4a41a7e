// End to end with the manual clock: a real node on its embedded L1, moved slot by slot.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CairnProcess, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-chain-'));
const dataDir = join(dir, 'data');
const args = ['--ephemeral', 'false', '--data-dir', dataDir, '--clock', 'manual', '--log-format', 'json'];

describe('the chain, with the manual clock', () => {
  let node: CairnProcess;
  const pub = (m: string, p?: unknown) => result(node.publicUrl, m, p);
  const dev = (m: string, p?: unknown) => result(node.adminUrl, m, p);
  /**
   * Mines L1 blocks one at a time (at least `min`, at most `min` + 3) until the finalized tip reaches
   * `block`: a proof is final once L1 has saved its block, which the embedded L1 does in its own
   * time (seconds on a loaded machine), so the count of blocks it takes varies.
   */
  // Mines until `block` is proven (the dev prover's proof lands within an L1 block or a few, more
  // under load), then the finality depth (2) past it, then waits: a proof is final once the embedded
  // L1's saved state holds its block, and when a save was refused for now (saves are slow on a
  // loaded machine) the L1's next timed save makes it final with no further L1 block.
  const mineUntilFinal = async (block: number) => {
    for (let i = 0; i < 5 && ((await pub('svc_getBlockNumber', ['proven'])) as number) < block; i++)
      await dev('svcDev_mine', [1]);
    assert.ok(((await pub('svc_getBlockNumber', ['proven'])) as number) >= block, `block ${block} proven`);
    await dev('svcDev_mine', [2]);
    await until(
      `block ${block} final without another L1 block`,
      async () => (((await pub('svc_getBlockNumber', ['finalized'])) as number) >= block ? true : undefined),
      60_000,
      100,
    );
  };
  before(async () => {
    node = await startCairn(args);
  });
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('starts at genesis', async () => {
    assert.equal(await pub('svc_getBlockNumber'), 0);
    assert.equal(await pub('svc_getCheckpointNumber'), 0);
    const tips = (await pub('svc_getChainTips')) as any;
    assert.equal(tips.proposed.number, 0);
    assert.equal(tips.finalized.checkpoint.number, 0);
    const constants = (await pub('svc_getL1Constants')) as any;
    assert.equal(constants.slotDuration, 8);
    assert.equal(constants.epochDuration, 4);
  });

  test('through two epochs: blocks, checkpoints, then proven and finalized tips advance in order', async () => {
    for (const slot of [1, 2, 3]) {
      const moved = (await dev('svcDev_advanceToSlot', [slot])) as any;
      assert.equal(moved.l2BlockNumber, slot);
      assert.equal(await pub('svc_getCheckpointNumber'), slot);
    }
    let tips = (await pub('svc_getChainTips')) as any;
    assert.equal(tips.checkpointed.block.number, 3);
    assert.equal(tips.proven.block.number, 0);
    // Epoch 1 begins: epoch 0 is proven (the dev prover's proof lands on L1 within an L1 block or
    // two; more under load); a few L1 blocks later it is final.
    await dev('svcDev_advanceToNextEpoch');
    for (let i = 0; i < 5; i++) {
      await dev('svcDev_mine', [1]);
      if (((await pub('svc_getBlockNumber', ['proven'])) as number) >= 3) break;
    }
    tips = (await pub('svc_getChainTips')) as any;
    assert.equal(tips.proven.checkpoint.number, 3);
    assert.equal(await pub('svc_getBlockNumber', ['proven']), 3);
    await mineUntilFinal(3);
    assert.equal(await pub('svc_getBlockNumber', ['finalized']), 3);
    assert.equal(await pub('node_getProvenBlockNumber'), 3);
    for (const slot of [5, 6, 7]) await dev('svcDev_advanceToSlot', [slot]);
    await dev('svcDev_advanceToNextEpoch');
    await mineUntilFinal(7);
    tips = (await pub('svc_getChainTips')) as any;
    assert.equal(tips.proposed.number, 8);
    assert.equal(tips.proven.block.number, 7);
    assert.equal(tips.finalized.block.number, 7);
    assert.ok(tips.finalized.block.number <= tips.proven.block.number);
    assert.ok(tips.proven.block.number <= tips.checkpointed.block.number);
    assert.ok(tips.checkpointed.block.number <= tips.proposed.number);
    const l2Tips = (await pub('node_getL2Tips')) as any;
    assert.deepEqual(l2Tips, {
      latest: tips.proposed,
      pending: tips.checkpointed.block,
      proven: tips.proven.block,
    });
    assert.equal(await pub('svc_getSyncedL2EpochNumber'), 1);
  });

  test('every block parameter form returns the same block', async () => {
    const block = (await pub('svc_getBlock', [2])) as any;
    assert.equal(block.number, 2);
    const forms = [
      block.hash,
      { number: 2 },
      { hash: block.hash },
      { archive: block.archive.root },
      { number: 2, hash: block.hash },
    ];
    for (const form of forms)
      assert.deepEqual(await pub('svc_getBlock', [form]), block, JSON.stringify(form));
    assert.equal(((await pub('svc_getBlock', ['latest'])) as any).number, 8);
    assert.equal(((await pub('svc_getBlock', [{ tag: 'proven' }])) as any).number, 7);
    assert.equal(await pub('svc_getBlock', [99]), null);
    const data = (await pub('svc_getBlockData', [block.hash])) as any;
    assert.equal(data.blockHash, block.hash);
    assert.deepEqual(data.header, block.header);
    const legacy = (await pub('node_getBlock', [2])) as any;
    assert.deepEqual(legacy.header, block.header);
    assert.deepEqual(await pub('node_getBlockHeader', [2]), block.header);
    const ambiguous = await call(node.publicUrl, 'svc_getBlock', [
      { number: 2, archive: block.archive.root },
    ]);
    assert.equal(ambiguous.error?.code, -32602);
    assert.match(ambiguous.error!.message, /exactly one block/);
  });

  test('blocks and checkpoints with their options and limits', async () => {
    const full = (await pub('svc_getBlock', [
      1,
      { includeTransactions: true, includeL1PublishInfo: true, includeAttestations: true },
    ])) as any;
    assert.deepEqual(full.body, { txEffects: [] });
    assert.equal(full.l1.published, true);
    assert.equal(full.attestations.length, 4);
    const blocks = (await pub('svc_getBlocks', [1, 100])) as any[];
    assert.equal(blocks.length, 8);
    assert.equal(((await pub('node_getBlocks', [7, 5])) as any[]).length, 2);
    assert.equal((await call(node.publicUrl, 'svc_getBlocks', [0, 5])).error?.code, -32602);
    assert.equal((await call(node.publicUrl, 'node_getBlocks', [1, 101])).error?.code, -32602);
    const checkpoint = (await pub('svc_getCheckpoint', [
      1,
      { includeBlocks: true, includeAttestations: true },
    ])) as any;
    assert.equal(checkpoint.number, 1);
    assert.equal(checkpoint.blocks.length, 1);
    assert.equal(checkpoint.attestations.length, 4);
    assert.deepEqual(await pub('svc_getCheckpoint', [{ slot: 2 }]), await pub('svc_getCheckpoint', [2]));
    assert.equal(((await pub('svc_getCheckpoint', ['proven'])) as any).number, 7);
    const epoch0 = (await pub('svc_getCheckpointsData', [{ epoch: 0 }])) as any[];
    assert.deepEqual(
      epoch0.map((c) => c.checkpointNumber),
      [1, 2, 3],
    );
    assert.equal((await call(node.publicUrl, 'svc_getCheckpointNumber', ['proposed'])).error?.code, -32602);
    const status = (await pub('svc_getWorldStateSyncStatus')) as any;
    assert.equal(status.latestBlockNumber, 8);
    assert.equal(status.treesAreSynched, true);
  });

  test('a restarted node serves the same chain', async () => {
    const before = (await pub('svc_getBlock', [8])) as any;
    assert.equal(await node.stop(), 0);
    node = await startCairn(args);
    assert.deepEqual(await pub('svc_getBlock', [8]), before);
    assert.equal(await pub('svc_getCheckpointNumber', ['finalized']), 7);
    // Slot 20 is past checkpoint 8's proof window (epoch 2): the jump stops at the end of epoch 2,
    // where the dev prover proves it, so nothing is pruned and block 8 stays; the chain goes on.
    await dev('svcDev_advanceToSlot', [20]);
    await dev('svcDev_mine', [1]);
    const tips = (await pub('svc_getChainTips')) as any;
    assert.ok(tips.proven.block.number >= 8, `proven ${tips.proven.block.number}`);
    assert.ok(tips.checkpointed.checkpoint.number >= 8);
    assert.equal(((await pub('svc_getBlock', [8])) as any).hash, before.hash);
    assert.doesNotMatch(node.output(), /pruned on L1/);
  });
});

describe('the chain, with the realtime clock', () => {
  test('produces, syncs and proves checkpoints on its own', async () => {
    const node = await startCairn([
      '--l1-block-time',
      '1',
      '--slot-duration',
      '2',
      '--epoch-duration',
      '2',
      '--log-format',
      'json',
    ]);
    try {
      const deadline = Date.now() + 30_000;
      let tips: any;
      do {
        await new Promise((r) => setTimeout(r, 500));
        tips = await result(node.publicUrl, 'svc_getChainTips');
        // Both: the proof of the first checkpoints can land before the next checkpoint does.
      } while (
        (tips.proven.checkpoint.number < 2 || tips.checkpointed.checkpoint.number < 3) &&
        Date.now() < deadline
      );
      assert.ok(tips.checkpointed.checkpoint.number >= 3, JSON.stringify(tips));
      assert.ok(tips.proven.checkpoint.number >= 2, JSON.stringify(tips));
      const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as any;
      assert.equal(status.clock, 'realtime');
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });
});

describe('an embedded L1 that lost its newest blocks', () => {
  test('the node unwinds to what L1 still has and goes on from there', async () => {
    const lossy = join(dir, 'lossy');
    const lossyArgs = [
      '--ephemeral',
      'false',
      '--data-dir',
      lossy,
      '--clock',
      'manual',
      '--log-format',
      'json',
    ];
    let node = await startCairn(lossyArgs);
    await result(node.adminUrl, 'svcDev_advanceToSlot', [1]);
    // anvil writes its state file every 5 s: wait for one that holds checkpoint 1.
    await new Promise((r) => setTimeout(r, 6000));
    await result(node.adminUrl, 'svcDev_advanceToSlot', [2]);
    await result(node.adminUrl, 'svcDev_advanceToSlot', [3]);
    assert.equal(await result(node.publicUrl, 'svc_getCheckpointNumber'), 3);
    // A crash of both: the state file misses the newest L1 blocks.
    process.kill(Number(readFileSync(join(lossy, 'l1', 'anvil.pid'), 'utf8')), 'SIGKILL');
    await node.stop('SIGKILL');

    node = await startCairn(lossyArgs);
    try {
      assert.match(node.output(), /L1 no longer has block/);
      const kept = (await result(node.publicUrl, 'svc_getCheckpointNumber')) as number;
      assert.ok(kept >= 1 && kept < 3, `kept ${kept}`);
      const status = (await result(node.publicUrl, 'svc_getWorldStateSyncStatus')) as any;
      assert.equal(status.treesAreSynched, true);
      assert.equal(status.latestBlockNumber, kept);
      await result(node.adminUrl, 'svcDev_advanceToSlot', [5]);
      assert.equal(await result(node.publicUrl, 'svc_getCheckpointNumber'), kept + 1);
      const latest = (await result(node.publicUrl, 'svc_getBlock', ['latest'])) as any;
      assert.equal(latest.header.globalVariables.slotNumber, 5);
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });
});
