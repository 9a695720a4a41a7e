// The archiver against a real L1: checkpoints published with their bodies are rebuilt by a node
// that did not build them; proofs move the proven and finalized tips; a rollup that disagrees
// with its own events is reported.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { accumulateCheckpointOutHashes } from '../../src/core/out-hash.js';
import { slotStart } from '../../src/core/time.js';
import type { ArchiverL1 } from '../../src/l1/roles.js';
import { TreeId } from '../../src/world-state/types.js';
import { deployer, L1ChainFixture, txEffect as tx } from '../helpers/l1-chain-fixture.js';
import { until } from '../helpers/until.js';

/** A pino logger that keeps what it logs, as { level, msg }. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines, errors: () => lines.filter((l) => l.level >= 50).map((l) => l.msg) };
}

describe('archiver', () => {
  let chain: L1ChainFixture;

  before(async () => {
    chain = await L1ChainFixture.start('cairn-archiver-');
  });
  after(async () => {
    await chain.close();
  });

  test('rebuilds published checkpoints it did not build, block for block', async () => {
    await chain.publish(1, 1, [[tx(1n), tx(2n, [0x77n])], [tx(3n)]]);
    await chain.publish(2, 2, [[tx(4n)]]);
    const { worldState, store, archiver } = await chain.openNode();
    try {
      const report = await archiver.sync();
      assert.equal(report.checkpoints, 2);
      assert.equal(store.latestCheckpointNumber, 2);
      for (const built of chain.built.slice(1)) assert.equal(store.getBlock(built.number)?.hash, built.hash);
      for (const tree of [
        TreeId.NULLIFIER,
        TreeId.NOTE_HASH,
        TreeId.PUBLIC_DATA,
        TreeId.L1_TO_L2_MESSAGE,
        TreeId.ARCHIVE,
      ]) {
        assert.deepEqual(worldState.at(3).snapshot(tree), chain.builder.at(3).snapshot(tree));
      }
      const tips = store.getTips();
      assert.equal(tips.checkpointed.block.number, 3);
      assert.equal(tips.proven.checkpoint.number, 0);
      const published = store.getCheckpoint(1)!;
      assert.equal(published.checkpoint.blockCount, 2);
      assert.equal(published.attestations.length, 4);
      assert.ok(published.attestations.every((a) => a.signature.length === 132));
      assert.equal(store.getTxEffect(0xabc002n)!.l2BlockNumber, 1);
      assert.equal((await archiver.sync()).checkpoints, 0);
    } finally {
      await worldState.close();
    }
  });

  test('an epoch proof moves the proven tip; it is final after the finality depth', async () => {
    await chain.anvil.setNextBlockTimestamp({ timestamp: slotStart(4, chain.constants) });
    await chain.anvil.mine({ blocks: 1 });
    const hash = await chain.rollup.submitEpochProof(
      deployer,
      0,
      1,
      2,
      accumulateCheckpointOutHashes(chain.epochOutHashes(0)),
      '0x01',
    );
    await chain.anvil.mine({ blocks: 1 });
    assert.equal((await chain.rollup.waitFor(hash)).status, 'success');
    const { worldState, store, archiver } = await chain.openNode();
    try {
      assert.equal((await archiver.sync()).proven, 1);
      assert.equal(store.getTips().proven.block.number, 3);
      assert.equal(store.getTips().finalized.checkpoint.number, 0);
      await chain.anvil.mine({ blocks: 2 });
      await archiver.sync();
      assert.equal(store.getTips().finalized.checkpoint.number, 2);
    } finally {
      await worldState.close();
    }
  });

  test('a proof deep enough is final only once L1 keeps its block for good, and a slow save holds no pass', async () => {
    let durable = false;
    // A save in progress until the test lets it finish.
    let saving: Promise<void> = Promise.resolve();
    const asked: bigint[] = [];
    let toldLate = 0;
    const { logger } = capturingLogger();
    const { worldState, store, archiver } = await chain.openNode(
      {
        logger,
        ensureL1Durable: async (l1Block) => {
          asked.push(l1Block);
          await saving;
          return durable;
        },
        onL1Durable: () => toldLate++,
      },
      'durability',
    );
    try {
      await archiver.sync();
      const provenAt = store.provenAtL1Block!;
      assert.equal(store.getTips().proven.checkpoint.number, 2);
      assert.ok((await chain.rollup.latestL1Block()).number - provenAt >= 2n, 'the proof is deep enough');
      assert.equal(store.getTips().finalized.checkpoint.number, 0);
      assert.deepEqual(asked, [provenAt]);
      // A failed save is asked for again; a slow one is not waited for by the pass that asks.
      durable = true;
      let finishSave = () => {};
      saving = new Promise((r) => {
        finishSave = r;
      });
      await archiver.sync(); // returns while the save is still under way
      assert.equal(store.getTips().finalized.checkpoint.number, 0);
      assert.deepEqual(asked, [provenAt, provenAt]);
      assert.equal(toldLate, 0, 'a failed answer asks for no pass');
      finishSave();
      // The answer came after its pass: a pass is asked for (with the manual or instant clock
      // none would come otherwise), once.
      await until('the late answer to be told', () => toldLate === 1, 5_000, 10);
      await archiver.sync();
      assert.equal(store.getTips().finalized.checkpoint.number, 2);
      // Final once: not asked again.
      await archiver.sync();
      assert.equal(asked.length, 2);
    } finally {
      await worldState.close();
    }
  });

  test("with durabilityWait 'answer' (the manual clock) a pass waits for a slow save and makes the proof final", async () => {
    let saves = 0;
    const { worldState, store, archiver } = await chain.openNode(
      {
        durabilityWait: 'answer',
        ensureL1Durable: async () => {
          saves++;
          await new Promise((r) => setTimeout(r, 600)); // longer than the default 250 ms wait
          return true;
        },
        onL1Durable: () => assert.fail('a pass that waited for the answer asks for no other'),
      },
      'durability-answer',
    );
    try {
      await archiver.sync();
      assert.equal(saves, 1);
      assert.equal(store.getTips().finalized.checkpoint.number, 2);
    } finally {
      await worldState.close();
    }
  });

  test('a proof whose block L1 had not saved is final once a later save holds it, with no other L1 block (the clock mines none after a dev time jump)', async () => {
    const asked: bigint[] = [];
    let saved = () => {};
    const waitedFor: bigint[] = [];
    let toldLate = 0;
    const { worldState, store, archiver } = await chain.openNode(
      {
        durabilityWait: 'answer',
        // The save budget refuses a save now; the timer's next save will hold the block.
        ensureL1Durable: async (l1Block) => {
          asked.push(l1Block);
          return false;
        },
        whenL1Durable: (l1Block) => {
          waitedFor.push(l1Block);
          return new Promise<void>((resolve) => {
            saved = resolve;
          });
        },
        onL1Durable: () => toldLate++,
      },
      'durability-later',
    );
    try {
      const latest = (await chain.rollup.latestL1Block()).number;
      await archiver.sync();
      const provenAt = store.provenAtL1Block!;
      assert.ok(latest - provenAt >= 2n, 'the proof is deep enough');
      assert.equal(
        store.getTips().finalized.checkpoint.number,
        0,
        'not final while L1 has not saved its block',
      );
      assert.deepEqual(asked, [provenAt]);
      assert.deepEqual(waitedFor, [provenAt]);
      assert.equal(toldLate, 0);
      saved();
      await until('the save to be told', () => toldLate === 1, 5_000, 10);
      // The pass it asks for (no new L1 block) makes the proof final without asking L1 again.
      await archiver.sync();
      assert.equal((await chain.rollup.latestL1Block()).number, latest, 'no L1 block was mined');
      assert.equal(store.getTips().finalized.checkpoint.number, 2);
      assert.deepEqual(asked, [provenAt]);
    } finally {
      await worldState.close();
    }
  });

  test('a rollup that counts a checkpoint no event proposes, two passes in a row, is reported at error level, once, and L1 is read again', async () => {
    let lying = true;
    // The real L1, except that its rollup counts one checkpoint more than it emitted events for
    // (as an L1 that lost the block of a proposal but kept its storage).
    const rollup: ArchiverL1 = Object.create(chain.rollup);
    rollup.pendingCheckpointNumber = async (atL1Block) =>
      (await chain.rollup.pendingCheckpointNumber(atL1Block)) + (lying ? 1 : 0);
    const { logger, lines, errors } = capturingLogger();
    const { worldState, store, archiver } = await chain.openNode({ rollup, logger }, 'disagreement');
    try {
      await archiver.sync();
      assert.equal(store.latestCheckpointNumber, 2);
      assert.deepEqual(errors(), [], 'one pass that disagrees may be a race: checked again first');
      await chain.anvil.mine({ blocks: 1 });
      await archiver.sync();
      const head = (await chain.rollup.latestL1Block()).number;
      assert.deepEqual(errors(), [
        `L1 is inconsistent: at L1 block ${head} the rollup reports checkpoint 3 (proven 2), but the events in its ` +
          'blocks give checkpoint 2 (proven 2). L1 holds the effects of transactions that none of its blocks carry ' +
          '(it lost blocks but kept their storage); this node cannot propose or prove on top of checkpoints it never saw',
      ]);
      // Read again from the L1 block of checkpoint 2.
      assert.equal(store.l1SyncPoint!.blockNumber, store.getCheckpoint(2)!.l1.blockNumber);
      assert.ok(lines.some((l) => /reading L1 again from block \d+, after checkpoint 2/.test(l.msg)));
      await chain.anvil.mine({ blocks: 1 });
      await archiver.sync();
      assert.equal(store.latestCheckpointNumber, 2);
      assert.equal(errors().length, 1, 'the same disagreement is reported once');
      lying = false;
      await chain.anvil.mine({ blocks: 1 });
      await archiver.sync();
      assert.ok(lines.some((l) => /agrees with its events again: checkpoint 2, proven 2/.test(l.msg)));
      assert.equal(errors().length, 1);
    } finally {
      await worldState.close();
    }
  });
});
