// A real L1 (embedded anvil, manual mining) with the rollup deployed, a builder world state that
// builds checkpoints and publishes them as a sequencer would, and a node (world state, chain store,
// archiver) that syncs them: the shared setup of the archiver tests.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createTestClient, type Hex, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Archiver, type ArchiverOptions } from '../../src/archiver/archiver.js';
import { ChainStore } from '../../src/archiver/chain-store.js';
import { genesisBlockOf } from '../../src/archiver/genesis.js';
import { type L2Block, RevertCode, type TxEffect } from '../../src/core/block.js';
import { checkpointHeaderHash, emptyCheckpointHeader } from '../../src/core/block-header.js';
import { encodeCheckpointBody } from '../../src/core/checkpoint-body.js';
import { accumulateCheckpointOutHashes, computeCheckpointOutHash } from '../../src/core/out-hash.js';
import { epochOfSlot, type L1RollupConstants, slotStart } from '../../src/core/time.js';
import { buildBlock } from '../../src/execution/block-builder.js';
import type { L1Connection } from '../../src/l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../../src/l1/deploy.js';
import { RollupClient } from '../../src/l1/rollup-client.js';
import { openEnvironment } from '../../src/store/environment.js';
import { genesisBlockHashOf } from '../../src/world-state/genesis.js';
import { TREE_IDS, type TreeSnapshot } from '../../src/world-state/types.js';
import { WorldState } from '../../src/world-state/world-state.js';
import { startTestL1 } from './l1.js';

const COINBASE = `0x${'c0'.repeat(20)}`;
const silent = pino({ level: 'silent' });

/** The deployer account of the test L1 (funded; sends L1-to-L2 messages and epoch proofs). */
export const deployer = privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY);

/** A tx effect derived from `seed`, with these L2-to-L1 messages. */
export const txEffect = (seed: bigint, l2ToL1Msgs: bigint[] = []): TxEffect => ({
  revertCode: RevertCode.OK,
  txHash: 0xabc000n + seed,
  transactionFee: seed,
  noteHashes: [0x1000n + seed],
  nullifiers: [0x2000n + seed],
  l2ToL1Msgs,
  publicDataWrites: [{ leafSlot: 0x3000n + seed, value: seed }],
  privateLogs: [],
  publicLogs: [],
  contractClassLogs: [],
});

/** A node that syncs from the L1: its world state, chain store and archiver. */
export interface ArchiverNode {
  worldState: WorldState;
  store: ChainStore;
  archiver: Archiver;
}

export class L1ChainFixture {
  /** The builder's blocks, index = block number (0 unused). */
  readonly built: L2Block[] = [];
  /** The builder's tree snapshots after each block, index = block number (0 = genesis). */
  readonly trees: TreeSnapshot[][] = [];
  private readonly outHashes = new Map<number, bigint[]>();

  private constructor(
    readonly dir: string,
    readonly validators: ReturnType<typeof privateKeyToAccount>[],
    readonly l1: L1Connection,
    readonly rollup: RollupClient,
    readonly constants: L1RollupConstants,
    /** Anvil's test actions (mine, set the next block's timestamp). */
    readonly anvil: ReturnType<typeof createTestClient>,
    readonly builder: WorldState,
  ) {
    this.trees[0] = TREE_IDS.map((tree) => builder.at(0).snapshot(tree));
  }

  /** Starts anvil in a fresh temp dir named after `prefix`, deploys the rollup with 4 validators, opens the builder. */
  static async start(prefix: string): Promise<L1ChainFixture> {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    const validators = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()));
    let l1: L1Connection | undefined;
    try {
      l1 = await startTestL1(
        dir,
        validators.map((v) => v.address),
        validators.map((v) => v.address),
      );
      const rollup = new RollupClient(l1);
      const constants = await rollup.constants(2);
      const anvil = createTestClient({ mode: 'anvil', transport: http(l1.rpcUrl) });
      const builder = await WorldState.open(openEnvironment(join(dir, 'builder'), 'world-state'), {
        historyBlocks: 0,
        genesisBlockHash: genesisBlockHashOf,
      });
      return new L1ChainFixture(dir, validators, l1, rollup, constants, anvil, builder);
    } catch (err) {
      await l1?.close();
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The out hashes of the checkpoints published so far in `epoch`, in order. */
  epochOutHashes(epoch: number): bigint[] {
    return this.outHashes.get(epoch) ?? [];
  }

  /** Builds and publishes checkpoint n in `slot`, as a sequencer would. */
  async publish(n: number, slot: number, blocksTxs: TxEffect[][]): Promise<void> {
    const { anvil, rollup, constants, builder, validators } = this;
    await anvil.setNextBlockTimestamp({ timestamp: slotStart(slot, constants) });
    await anvil.mine({ blocks: 1 });
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
      this.built[builder.latestBlockNumber] = blocks[i]!;
      this.trees[builder.latestBlockNumber] = TREE_IDS.map((tree) =>
        builder.at(builder.latestBlockNumber).snapshot(tree),
      );
    }
    const epoch = epochOfSlot(slot, constants);
    const epochOutHashes = this.epochOutHashes(epoch);
    epochOutHashes.push(
      computeCheckpointOutHash(blocks.map((b) => b.body.txEffects.map((t) => t.l2ToL1Msgs))),
    );
    this.outHashes.set(epoch, epochOutHashes);
    const header = {
      ...emptyCheckpointHeader(),
      lastArchiveRoot: blocks[0]!.header.lastArchive.root,
      inHash: await rollup.inboxRoot(n),
      epochOutHash: accumulateCheckpointOutHashes(epochOutHashes),
      slotNumber: slot,
      timestamp: slotStart(slot, constants),
      coinbase: COINBASE,
      totalManaUsed: 10n * BigInt(blocks.length),
    };
    const headerHash = checkpointHeaderHash(header);
    const archive = blocks[blocks.length - 1]!.archive.root;
    const digest = await rollup.attestationDigest(n, slot, archive, headerHash);
    const committee = await rollup.epochCommittee(epoch);
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
    await anvil.mine({ blocks: 1 });
    assert.equal((await rollup.waitFor(hash)).status, 'success');
  }

  /**
   * Opens (or reopens) the node under `dir/<folder>`: a world state, a chain store at genesis and
   * an archiver (with `options` over the defaults).
   */
  async openNode(options: Partial<ArchiverOptions> = {}, folder = 'node'): Promise<ArchiverNode> {
    const { dir, rollup, constants } = this;
    const worldState = await WorldState.open(openEnvironment(join(dir, folder), 'world-state'), {
      historyBlocks: 0,
      genesisBlockHash: genesisBlockHashOf,
    });
    const store = new ChainStore(openEnvironment(join(dir, folder), 'archiver'));
    store.initialize(genesisBlockOf(worldState));
    return {
      worldState,
      store,
      archiver: new Archiver({
        rollup,
        store,
        worldState,
        constants,
        finalityDepth: 2,
        logger: silent,
        ...options,
      }),
    };
  }

  /** Closes the builder and the L1 and removes the temp dir. */
  async close(): Promise<void> {
    await this.builder.close();
    await this.l1.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
