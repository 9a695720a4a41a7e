// The sequencer, archiver and dev prover together on a real L1 (manual clock): checkpoints are
// built and published slot after slot, synced back, and epochs are proven then finalized.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createTestClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Archiver } from '../../src/archiver/archiver.js';
import { ChainStore } from '../../src/archiver/chain-store.js';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import type { BlockHeader } from '../../src/core/block-header.js';
import type { Fr } from '../../src/core/field.js';
import { type L1RollupConstants, slotStart } from '../../src/core/time.js';
import type { Tx } from '../../src/core/tx.js';
import { buildTx } from '../../src/core/tx-builder.js';
import {
  DEV_ACCOUNT_BALANCE,
  devAccounts,
  devAccountsGenesisData,
} from '../../src/execution/dev-accounts.js';
import { feeJuiceBalanceSlot } from '../../src/execution/protocol-contracts.js';
import { readPublicData } from '../../src/execution/public-storage.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../../src/l1/deploy.js';
import { FeeOracle } from '../../src/l1/fee-oracle.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { DevProver } from '../../src/prover/dev-prover.js';
import { Sequencer, type TxSource } from '../../src/sequencer/sequencer.js';
import { openEnvironment } from '../../src/store/environment.js';
import { ensureDevKeystore, loadKeystore, type Validator } from '../../src/validators/keystore.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { localConsensus } from '../helpers/consensus.js';
import { startTestL1 } from '../helpers/l1.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-sequencer-'));
const silent = pino({ level: 'silent' });

const [payer] = devAccounts(1);
const feeRecipientOf = (v: Validator) => v.feeRecipient ?? 0n;

/** Txs standing in for the mempool: pending until their effect is in the chain. */
class QueueSource implements TxSource {
  readonly queue: { hash: Fr; tx: Tx }[] = [];
  readonly rejected: { hash: Fr; reason: string }[] = [];
  constructor(private readonly store: () => ChainStore) {}
  pending() {
    return this.queue.filter((t) => this.store().getTxEffect(t.hash) === undefined);
  }
  reject(hash: Fr, reason: string) {
    this.rejected.push({ hash, reason });
    this.queue.splice(
      this.queue.findIndex((t) => t.hash === hash),
      1,
    );
  }
  reverted() {}
}

const makeTx = (seed: bigint, anchorBlockHeader: BlockHeader, noteHash = 0x5000n + seed) =>
  buildTx({
    feePayer: payer!.address,
    anchorBlockHeader,
    chainId: 31337,
    version: 1,
    expirationTimestamp: 2n ** 40n,
    maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 10n ** 12n },
    protocolNullifier: 0x6000n + seed,
    noteHashes: [noteHash],
    l2ToL1Msgs: [{ recipient: `0x${'11'.repeat(20)}`, content: 0x7000n + seed, sender: 0x42n }],
  });

describe('sequencer, archiver and prover on L1', () => {
  let l1: L1Connection;
  let rollup: RollupClient;
  let constants: L1RollupConstants;
  let worldState: WorldState;
  let store: ChainStore;
  let archiver: Archiver;
  let sequencer: Sequencer;
  let prover: DevProver;
  const txs = new QueueSource(() => store);
  let validators: Validator[];
  let anvil: ReturnType<typeof createTestClient>;
  /** The slashing votes the sequencer asked for; the one in slot 2 fails. */
  const votes: { slot: number; proposer: string }[] = [];
  const slashing = {
    vote: async (slot: number, proposer: Validator) => {
      votes.push({ slot, proposer: proposer.attester.address.toLowerCase() });
      if (slot === 2) throw new Error('L1 refused the vote');
      return undefined;
    },
  };

  before(async () => {
    const keystore = join(dir, 'keystore.json');
    ensureDevKeystore(keystore, 4);
    validators = loadKeystore(keystore);
    worldState = await WorldState.open(openEnvironment(dir, 'world-state'), {
      historyBlocks: 0,
      genesisPublicData: devAccountsGenesisData([payer!]),
      genesisBlockHash: genesisBlockHashOf,
    });
    l1 = await startTestL1(
      dir,
      validators.map((v) => v.attester.address),
      validators.map((v) => v.publisher.address),
      { genesisArchiveRoot: worldState.at(0).snapshot(TreeId.ARCHIVE).root },
    );
    rollup = new RollupClient(l1);
    constants = await rollup.constants(2);
    anvil = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    store = new ChainStore(openEnvironment(dir, 'archiver'));
    store.initialize(genesisBlockOf(worldState));
    archiver = new Archiver({ rollup, store, worldState, constants, finalityDepth: 2, logger: silent });
    sequencer = new Sequencer({
      rollup,
      worldState,
      chain: store,
      proposedBlocks: archiver,
      validators,
      constants,
      chainId: 31337,
      rollupVersion: 1,
      maxBlocksPerCheckpoint: 2,
      settings: { minTxsPerBlock: 0, maxTxsPerBlock: 2 },
      txs,
      fees: new FeeOracle(rollup, constants),
      slashing,
      ...(() => {
        const { committee, client } = localConsensus({
          rollup,
          chainId: l1.chainId,
          rollupAddress: l1.addresses.rollupAddress,
          chain: store,
          proposedBlocks: archiver,
          worldState,
          constants,
          env: openEnvironment(dir, 'node'),
          validators: () => validators,
        });
        return { committee, consensus: client, attestationTimeoutMs: 0 };
      })(),
      logger: silent,
    });
    prover = new DevProver({
      rollup,
      store,
      constants,
      prover: privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY),
      logger: silent,
    });
  });
  after(async () => {
    await worldState.close();
    await l1.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Moves L1 into `slot` and lets every component act once. */
  async function step(slot: number) {
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    const latest = await rollup.latestL1Block();
    const outcome = await sequencer.work(latest.timestamp, latest.timestamp + 1n);
    if (outcome.kind === 'published') {
      await anvil.mine({ blocks: 1 });
      assert.equal((await rollup.waitFor(outcome.txHash)).status, 'success');
      await archiver.sync();
    }
    const proof = await prover.work((await rollup.latestL1Block()).timestamp);
    if (proof) {
      await anvil.mine({ blocks: 1 });
      assert.equal((await rollup.waitFor(proof.txHash)).status, 'success');
      await archiver.sync();
    }
    return { outcome, proof };
  }

  test('slot after slot: checkpoints published and synced; epochs proven, then final', async () => {
    const genesis = store.getBlock(0)!.header;
    const built = [makeTx(1n, genesis), makeTx(2n, genesis), makeTx(3n, genesis)];
    // A double spend of tx 1's nullifier is executed after it and dropped.
    const doubleSpend = makeTx(1n, genesis, 0x5999n);
    txs.queue.push(...built, doubleSpend);
    const first = await step(1);
    assert.equal(first.outcome.kind, 'published');
    // Two blocks: the two-tx limit per block leaves one tx for a second block.
    assert.deepEqual(first.outcome.kind === 'published' && first.outcome.blocks, [1, 2]);
    assert.equal(store.latestCheckpointNumber, 1);
    assert.equal(store.getTxEffect(built[2]!.hash)!.l2BlockNumber, 2);
    assert.deepEqual(txs.rejected, [{ hash: doubleSpend.hash, reason: 'Existing nullifier' }]);
    // Each tx paid its fee from the payer's Fee Juice to the block's fee recipient.
    const block1 = store.getBlock(1)!;
    const fees = block1.body.txEffects.map((e) => e.transactionFee);
    assert.ok(fees.every((f) => f > 0n));
    assert.ok(block1.header.globalVariables.gasFees.feePerL2Gas > 0n);
    const state = worldState.at(worldState.latestBlockNumber);
    const recipient = block1.header.globalVariables.feeRecipient;
    assert.ok(validators.some((v) => feeRecipientOf(v) === recipient));
    const paid = [1, 2].flatMap((n) => store.getBlock(n)!.body.txEffects.map((e) => e.transactionFee));
    assert.equal(
      readPublicData(state, feeJuiceBalanceSlot(payer!.address)),
      DEV_ACCOUNT_BALANCE - paid.reduce((a, b) => a + b, 0n),
    );

    const second = await step(2);
    assert.deepEqual(second.outcome.kind === 'published' && second.outcome.blocks, [3]); // one empty block
    await step(3);
    assert.equal(store.latestCheckpointNumber, 3);
    assert.equal(store.getTips().proven.checkpoint.number, 0);

    // Slot 4 starts epoch 1: epoch 0 (checkpoints 1..3) gets proven.
    const fourth = await step(4);
    assert.equal(fourth.proof?.epoch, 0);
    assert.equal(fourth.proof?.toCheckpoint, 3);
    const tips = store.getTips();
    assert.equal(tips.checkpointed.checkpoint.number, 4);
    assert.equal(tips.proven.checkpoint.number, 3);
    assert.equal(tips.proven.block.number, 4);
    assert.ok(tips.finalized.checkpoint.number <= 3);
    await anvil.mine({ blocks: 2 });
    await archiver.sync();
    assert.equal(store.getTips().finalized.checkpoint.number, 3);
    // Tips stay ordered, and the world state follows the chain.
    assert.equal(worldState.latestBlockNumber, store.latestBlockNumber);
    assert.equal(
      worldState.at(worldState.latestBlockNumber).snapshot(TreeId.ARCHIVE).root,
      store.getBlock(store.latestBlockNumber)!.archive.root,
    );
  });

  test('a paused sequencer builds nothing; a slot already taken is skipped', async () => {
    sequencer.pause();
    const paused = await step(6);
    assert.equal(paused.outcome.kind, 'paused');
    sequencer.resume();
    const latest = await rollup.latestL1Block();
    const again = await sequencer.work(latest.timestamp, latest.timestamp + 1n);
    assert.equal(again.kind === 'published', true);
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    const later = (await rollup.latestL1Block()).timestamp;
    assert.equal((await sequencer.work(later, later + 1n)).kind, 'slot-taken');
  });

  test("the slot's proposer casts one slashing vote per slot it acts in; a failed vote does not stop the chain", async () => {
    // Slots 1..4 and 6 were proposed (slot 2's vote failed, its checkpoint was still published);
    // slot 6 was worked three times (paused, published, taken) and voted once.
    assert.deepEqual(
      votes.map((v) => v.slot),
      [1, 2, 3, 4, 6],
    );
    for (const v of votes)
      assert.equal(
        v.proposer,
        (await rollup.proposerAtSlot(v.slot)).toLowerCase(),
        `proposer of slot ${v.slot}`,
      );
    assert.equal((await rollup.checkpoint(2)).slot, 2, 'checkpoint 2 is in slot 2');
  });
});
