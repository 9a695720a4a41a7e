// The sequencer under a pool larger than a checkpoint: building stops once the checkpoint is full
// (it never executes the whole pool), stops when the slot's building time is up, and a checkpoint
// that can no longer land in its slot is not sent; and a node behind L1 still prunes. A real L1
// (manual mining) whose mana limit takes only a few txs per checkpoint; a wall clock the test moves.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createTestClient, http } from 'viem';
import { Archiver } from '../../src/archiver/archiver.js';
import { ChainStore } from '../../src/archiver/chain-store.js';
import type { Fr } from '../../src/core/field.js';
import { type L1RollupConstants, slotStart } from '../../src/core/time.js';
import type { Tx } from '../../src/core/tx.js';
import { buildTx } from '../../src/core/tx-builder.js';
import { devAccounts, devAccountsGenesisData } from '../../src/execution/dev-accounts.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { FeeOracle } from '../../src/l1/fee-oracle.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { MAX_MISSES_IN_A_ROW, Sequencer, type TxSource } from '../../src/sequencer/sequencer.js';
import { openEnvironment } from '../../src/store/environment.js';
import { ensureDevKeystore, loadKeystore, type Validator } from '../../src/validators/keystore.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TreeId } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { localConsensus } from '../helpers/consensus.js';
import { startTestL1 } from '../helpers/l1.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-sequencer-limits-'));
const silent = pino({ level: 'silent' });
const [payer] = devAccounts(1);
/** A mana limit of twice this: room for 4 of the test's txs (about 490k mana each) per checkpoint. */
const MANA_TARGET = 1_000_000;
const POOL = 200;

/** A pool of pending txs that counts how many the sequencer took out of it. */
class CountingSource implements TxSource {
  pulled = 0;
  /** Runs after each tx handed out (the test moves its clock here). */
  onPull: () => void = () => {};
  readonly rejected: Fr[] = [];
  constructor(
    readonly txs: { hash: Fr; tx: Tx }[],
    private readonly store: () => ChainStore,
  ) {}
  *pending() {
    for (const t of this.txs) {
      if (this.store().getTxEffect(t.hash) !== undefined || this.rejected.includes(t.hash)) continue;
      this.pulled++;
      yield t;
      this.onPull();
    }
  }
  reject(hash: Fr) {
    this.rejected.push(hash);
  }
  reverted() {}
}

describe('sequencer limits: a full checkpoint, building time, the send deadline', () => {
  let l1: L1Connection;
  let rollup: RollupClient;
  let constants: L1RollupConstants;
  let worldState: WorldState;
  let store: ChainStore;
  let archiver: Archiver;
  let validators: Validator[];
  let anvil: ReturnType<typeof createTestClient>;
  let source: CountingSource;
  /** The test's wall clock (ms); the sequencer reads it for its deadlines. */
  let wall = 1_000_000;
  let realtime = false;
  /** Runs when the committee has been asked for attestations (after building). */
  let afterAttestations: () => void = () => {};
  /** Holds on bulk gossip taken and not released; what they were while attestations were gathered. */
  let holds = 0;
  const holdsWhileAttesting: number[] = [];
  let sequencer: Sequencer;

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
      { genesisArchiveRoot: worldState.at(0).snapshot(TreeId.ARCHIVE).root, manaTarget: MANA_TARGET },
    );
    rollup = new RollupClient(l1);
    constants = await rollup.constants(2);
    anvil = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    store = new ChainStore(openEnvironment(dir, 'archiver'));
    archiver = new Archiver({ rollup, store, worldState, constants, finalityDepth: 2, logger: silent });
    const genesis = store.getBlock(0)!.header;
    source = new CountingSource(
      Array.from({ length: POOL }, (_, i) =>
        buildTx({
          feePayer: payer!.address,
          anchorBlockHeader: genesis,
          chainId: 31337,
          version: 1,
          expirationTimestamp: 2n ** 40n,
          // A small mana target makes mana dear: room for the fees it sets.
          maxFeesPerGas: { feePerDaGas: 10n ** 15n, feePerL2Gas: 10n ** 15n },
          protocolNullifier: 0x9000n + BigInt(i),
          noteHashes: [0xa000n + BigInt(i)],
        }),
      ),
      () => store,
    );
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
    sequencer = new Sequencer({
      rollup,
      worldState,
      chain: store,
      proposedBlocks: archiver,
      validators,
      constants,
      chainId: 31337,
      rollupVersion: 1,
      maxBlocksPerCheckpoint: 4,
      settings: { minTxsPerBlock: 1, maxTxsPerBlock: 1000 },
      txs: source,
      fees: new FeeOracle(rollup, constants),
      committee,
      consensus: {
        announceBlock: (block, slot, proposer) => client.announceBlock(block, slot, proposer),
        gatherAttestations: async (c) => {
          holdsWhileAttesting.push(holds);
          const signatures = await client.gatherAttestations(c);
          afterAttestations();
          return signatures;
        },
        holdBulkWork: () => {
          holds++;
          let released = false;
          return () => {
            if (!released) holds--;
            released = true;
          };
        },
      },
      attestationTimeoutMs: 0,
      realtime: () => realtime,
      wallClock: () => wall,
      logger: silent,
    });
  });
  after(async () => {
    await worldState.close();
    await l1.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Moves L1 to the start of `slot` and lets the sequencer act once. */
  async function work(slot: number) {
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    source.pulled = 0;
    const latest = await rollup.latestL1Block();
    return sequencer.work(latest.timestamp, latest.timestamp + BigInt(constants.ethereumSlotDuration));
  }

  test('a full checkpoint stops building: a few executions past what fits, never the whole pool', async () => {
    const outcome = await work(1);
    assert.equal(outcome.kind, 'published');
    const mined = store.getBlock(1)!.body.txEffects.length;
    assert.ok(mined >= 2 && mined <= 4, `the mana limit takes 2 to 4 txs, the block has ${mined}`);
    // One block only: a checkpoint with no room left takes no second block.
    assert.deepEqual(outcome.kind === 'published' && outcome.blocks, [1]);
    assert.ok(
      source.pulled <= mined + MAX_MISSES_IN_A_ROW,
      `${source.pulled} txs executed for a block of ${mined} (a pool of ${POOL})`,
    );
    assert.deepEqual(source.rejected, [], 'txs that did not fit stay pending');
    // Bulk gossip was held while the proposal was built and attested, and released after.
    assert.deepEqual(holdsWhileAttesting, [1]);
    assert.equal(holds, 0);
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    assert.equal(store.latestCheckpointNumber, 1);
  });

  test('with the realtime clock, building stops when its share of the slot is over', async () => {
    realtime = true;
    // Each tx handed out takes a second of wall time: the slot's building time (about half of
    // the six seconds until its proposal must be sent) is over after the third.
    source.onPull = () => {
      wall += 1000;
    };
    const outcome = await work(2);
    source.onPull = () => {};
    assert.equal(outcome.kind, 'published');
    const built = outcome.kind === 'published' ? outcome.blocks : [];
    const txs = built.reduce((n, b) => n + store.getBlock(b)!.body.txEffects.length, 0);
    assert.ok(txs >= 1 && txs <= 3, `${txs} txs built after the building time was up`);
    assert.ok(source.pulled <= 4, `${source.pulled} txs taken from the pool after the building time was up`);
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    assert.equal(store.latestCheckpointNumber, 2);
  });

  test('a checkpoint ready after its send deadline is not sent, and the next slot builds afresh', async () => {
    realtime = true;
    afterAttestations = () => {
      wall += 60_000;
    };
    const late = await work(3);
    afterAttestations = () => {};
    assert.equal(late.kind, 'too-late');
    assert.equal(holds, 0, 'the hold is released however the proposal ends');
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    assert.equal(await rollup.pendingCheckpointNumber(), 2, 'nothing was proposed on L1');
    assert.equal(store.latestCheckpointNumber, 2);
    // The late checkpoint's blocks were only proposed locally: the next slot drops and rebuilds them.
    const next = await work(4);
    assert.equal(next.kind, 'published');
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    assert.equal(store.latestCheckpointNumber, 3);
    assert.equal(store.getTips().proposed.number, store.getTips().checkpointed.block.number);
  });

  test('a node behind L1 still prunes checkpoints past their proof window', async () => {
    realtime = false;
    // Checkpoint 4 lands on L1, but this node does not sync it (as when it cannot read its event).
    const published = await work(5);
    assert.equal(published.kind, 'published');
    await anvil.mine({ blocks: 1 });
    assert.equal(await rollup.pendingCheckpointNumber(), 4);
    assert.equal(store.latestCheckpointNumber, 3);
    // Epoch 0 was never proven: by slot 12 its proof window is over and L1 can prune.
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(12, constants) });
    await anvil.mine({ blocks: 1 });
    const latest = await rollup.latestL1Block();
    const outcome = await sequencer.work(latest.timestamp, latest.timestamp + 1n);
    assert.equal(outcome.kind, 'pruning');
    await anvil.mine({ blocks: 1 });
    await archiver.sync();
    assert.equal(await rollup.pendingCheckpointNumber(), 0);
    assert.equal(store.latestCheckpointNumber, 0);
  });
});
