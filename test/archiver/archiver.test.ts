// The archiver against a real L1: checkpoints published with their bodies are rebuilt by a node
// that did not build them; proofs move the proven and finalized tips.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createTestClient, type Hex, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Archiver } from '../../src/archiver/archiver.js';
import { ChainStore } from '../../src/archiver/chain-store.js';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import { type L2Block, RevertCode, type TxEffect } from '../../src/core/block.js';
import { checkpointHeaderHash, emptyCheckpointHeader } from '../../src/core/block-header.js';
import { encodeCheckpointBody } from '../../src/core/checkpoint-body.js';
import { accumulateCheckpointOutHashes, computeCheckpointOutHash } from '../../src/core/out-hash.js';
import { type L1RollupConstants, slotStart } from '../../src/core/time.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../../src/l1/deploy.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { buildBlock } from '../../src/sequencer/block-builder.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf, TreeId, WorldState } from '../../src/world-state/index.js';
import { startTestL1 } from '../helpers/l1.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-archiver-'));
const validators = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()));
const _quiet = { info: () => {}, warn: () => {} };
const silent = pino({ level: 'silent' });
const COINBASE = `0x${'c0'.repeat(20)}`;

const tx = (seed: bigint, messages: bigint[] = []): TxEffect => ({
  revertCode: RevertCode.OK,
  txHash: 0xabc000n + seed,
  transactionFee: seed,
  noteHashes: [0x1000n + seed],
  nullifiers: [0x2000n + seed],
  l2ToL1Msgs: messages,
  publicDataWrites: [{ leafSlot: 0x3000n + seed, value: seed }],
  privateLogs: [],
  publicLogs: [],
  contractClassLogs: [],
});

describe('archiver', () => {
  let l1: L1Connection;
  let rollup: RollupClient;
  let constants: L1RollupConstants;
  let builder: WorldState;
  let builderBlocks: L2Block[] = [];
  const outHashes: bigint[] = [];
  let test_: ReturnType<typeof createTestClient>;

  const openArchiver = async () => {
    const worldState = await WorldState.open(openEnvironment(join(dir, 'node'), 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const store = new ChainStore(openEnvironment(join(dir, 'node'), 'archiver'));
    store.initialize(genesisBlockOf(worldState));
    return {
      worldState,
      store,
      archiver: new Archiver({ rollup, store, worldState, constants, finalityDepth: 2, logger: silent }),
    };
  };

  /** Builds and publishes checkpoint n in `slot`, as a sequencer would. */
  async function publish(n: number, slot: number, blocksTxs: TxEffect[][]): Promise<void> {
    await test_.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await test_.mine({ blocks: 1 });
    const blocks: L2Block[] = [];
    const messages = await rollup.l1ToL2Messages(n);
    for (const [i, txs] of blocksTxs.entries()) {
      const fork = builder.fork();
      blocks.push(
        buildBlock(fork, {
          globalVariables: {
            chainId: 31337n,
            version: 1n,
            blockNumber: builder.latestBlockNumber + 1,
            slotNumber: slot,
            timestamp: slotStart(slot, constants),
            coinbase: COINBASE,
            feeRecipient: 0n,
            gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
          },
          txEffects: txs,
          checkpointNumber: n,
          indexWithinCheckpoint: i,
          ...(i === 0
            ? { l1ToL2Messages: messages }
            : { previousSponge: blocks[i - 1]!.header.spongeBlobHash }),
          totalManaUsed: 10n,
        }),
      );
      await builder.commit(fork);
    }
    builderBlocks = [...builderBlocks, ...blocks];
    outHashes.push(computeCheckpointOutHash(blocks.map((b) => b.body.txEffects.map((t) => t.l2ToL1Msgs))));
    const header = {
      ...emptyCheckpointHeader(),
      lastArchiveRoot: blocks[0]!.header.lastArchive.root,
      inHash: await rollup.inboxRoot(n),
      epochOutHash: accumulateCheckpointOutHashes(outHashes),
      slotNumber: slot,
      timestamp: slotStart(slot, constants),
      coinbase: COINBASE,
      totalManaUsed: 10n * BigInt(blocks.length),
    };
    const headerHash = checkpointHeaderHash(header);
    const archive = blocks[blocks.length - 1]!.archive.root;
    const digest = await rollup.attestationDigest(n, slot, archive, headerHash);
    const committee = await rollup.epochCommittee(Math.floor(slot / constants.epochDuration));
    const attestations: Hex[] = await Promise.all(
      committee.map((m) =>
        validators.find((v) => v.address === m)!.signMessage({ message: { raw: digest } }),
      ),
    );
    const proposer = await rollup.proposerAtSlot(slot);
    const hash = await rollup.propose(validators.find((v) => v.address === proposer)!, {
      checkpointNumber: n,
      slot,
      archive,
      headerHash,
      totalManaUsed: header.totalManaUsed,
      outHash: header.epochOutHash,
      inHash: header.inHash,
      attestations,
      body: encodeCheckpointBody({ header, blocks }),
    });
    await test_.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(hash)).status, 'success');
  }

  before(async () => {
    l1 = await startTestL1(
      dir,
      validators.map((v) => v.address),
      validators.map((v) => v.address),
    );
    rollup = new RollupClient(l1);
    constants = await rollup.constants(2);
    test_ = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
    builder = await WorldState.open(openEnvironment(join(dir, 'builder'), 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
  });
  after(async () => {
    await builder.close();
    await l1.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('rebuilds published checkpoints it did not build, block for block', async () => {
    await publish(1, 1, [[tx(1n), tx(2n, [0x77n])], [tx(3n)]]);
    await publish(2, 2, [[tx(4n)]]);
    const { worldState, store, archiver } = await openArchiver();
    try {
      const report = await archiver.sync();
      assert.equal(report.checkpoints, 2);
      assert.equal(store.latestCheckpointNumber, 2);
      for (const built of builderBlocks) assert.equal(store.getBlock(built.number)?.hash, built.hash);
      for (const tree of [
        TreeId.NULLIFIER,
        TreeId.NOTE_HASH,
        TreeId.PUBLIC_DATA,
        TreeId.L1_TO_L2_MESSAGE,
        TreeId.ARCHIVE,
      ]) {
        assert.deepEqual(worldState.at(3).snapshot(tree), builder.at(3).snapshot(tree));
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
    await test_.setNextBlockTimestamp({ timestamp: slotStart(4, constants) });
    await test_.mine({ blocks: 1 });
    const prover = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);
    const hash = await rollup.submitEpochProof(
      prover,
      0,
      1,
      2,
      accumulateCheckpointOutHashes(outHashes),
      '0x01',
    );
    await test_.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(hash)).status, 'success');
    const { worldState, store, archiver } = await openArchiver();
    try {
      assert.equal((await archiver.sync()).proven, 1);
      assert.equal(store.getTips().proven.block.number, 3);
      assert.equal(store.getTips().finalized.checkpoint.number, 0);
      await test_.mine({ blocks: 2 });
      await archiver.sync();
      assert.equal(store.getTips().finalized.checkpoint.number, 2);
    } finally {
      await worldState.close();
    }
  });
});
