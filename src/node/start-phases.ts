// The phases of a node's start, in dependency order: stores, L1, chain, network, production,
// the chain pass, the API's parts, timers. Each builds its parts from what the phases before
// built and registers how to close what it opened with the Teardown (teardown.ts), so a start
// that fails half way closes exactly what it had opened, in the same order as a stop.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Archiver } from '../archiver/archiver.js';
import { ChainStore } from '../archiver/chain-store.js';
import type { Config } from '../config/settings.js';
import { DEFAULT_SETUP_ALLOW_LIST } from '../core/constants.js';
import { toHex32 } from '../core/field.js';
import { type L1RollupConstants, slotAt } from '../core/time.js';
import { devAccounts, devAccountsGenesisData } from '../execution/dev-accounts.js';
import type { ExecutionOptions } from '../execution/executor.js';
import { GenesisContracts } from '../execution/genesis-contracts.js';
import { testAccountsGenesisData } from '../execution/test-accounts.js';
import type { L1Connection } from '../l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../l1/deploy.js';
import { FeeOracle } from '../l1/fee-oracle.js';
import { RollupClient } from '../l1/rollup-client.js';
import { accountFromKey } from '../l1/signer.js';
import { TxService } from '../mempool/tx-service.js';
import { DevProver } from '../prover/dev-prover.js';
import { ChainQueries } from '../queries/chain.js';
import { ContractQueries } from '../queries/contracts.js';
import { LogQueries } from '../queries/logs.js';
import { MessageQueries } from '../queries/messages.js';
import { StateQueries } from '../queries/state.js';
import { ValidatorQueries } from '../queries/validators.js';
import { Sequencer } from '../sequencer/sequencer.js';
import type { SnapshotEntry } from '../snapshots/snapshot-index.js';
import { openEnvironment, type StoreEnvironment } from '../store/environment.js';
import { ValidatorKeys } from '../validators/keystore.js';
import { genesisBlockHashOf } from '../world-state/genesis.js';
import { WorldState } from '../world-state/world-state.js';
import { NodeAdmin } from './admin.js';
import { AdminConfigStore, allowedPublicSetup, applySavedAdminConfig } from './admin-config.js';
import {
  connectL1,
  openKeystore,
  publicContractsOf,
  restoreSnapshotIfAsked,
  s3SettingsOf,
} from './bootstrap.js';
import { ChainDriver, PassRequests } from './chain-driver.js';
import { type Consensus, type GossipNetwork, startConsensus } from './consensus.js';
import type { DataDir } from './data-dir.js';
import { DevOperations } from './dev.js';
import { FunctionSignatureBook } from './function-signatures.js';
import { loadGenesisContracts } from './genesis-artifacts.js';
import { L1Health } from './l1-health.js';
import { NodeMetrics } from './metrics.js';
import type { NodeQueries } from './node-api.js';
import { SNAPSHOT_DATABASES, SnapshotUploader, verifyRestoredSnapshot } from './snapshots.js';
import { type Clock, Lifecycle, NodeStatus } from './status.js';
import type { Teardown } from './teardown.js';

/** What every phase is given: the configuration, where the data is, logging, and the teardown. */
export interface StartContext {
  /** The configuration with the admin's saved settings applied (set by openStores). */
  config: Config;
  dataDir: DataDir;
  root: Logger;
  /** The node's own logger (component `node`). */
  logger: Logger;
  signal: AbortSignal | undefined;
  teardown: Teardown;
  /** A snapshot this start restored (openStores), until its check passes (buildChain). */
  restored?: SnapshotEntry | undefined;
  /**
   * Carries the gossip in place of libp2p (startNetwork): an in-process test's own network
   * between its nodes. The node's start never sets it.
   */
  gossip?: GossipNetwork | undefined;
}

export interface Stores {
  nodeStore: StoreEnvironment;
  adminStore: AdminConfigStore;
  worldState: WorldState;
  keys: ValidatorKeys;
  /** The protocol contracts and the SponsoredFPC, known from genesis. */
  genesisContracts: GenesisContracts;
}

/**
 * Opens the node's store and applies its saved admin settings (to `ctx.config`), restores a
 * snapshot if asked, loads the AuthRegistry's bytecode and opens the world state and the keystore.
 */
export async function openStores(ctx: StartContext): Promise<Stores> {
  const { dataDir, logger, signal, teardown } = ctx;
  const nodeStore = openEnvironment(dataDir.path, 'node');
  teardown.add('nodeStore', () => nodeStore.close());
  const adminStore = new AdminConfigStore(nodeStore);
  ctx.config = applySavedAdminConfig(ctx.config, adminStore, logger);
  const { config } = ctx;
  ctx.restored = await restoreSnapshotIfAsked(config, dataDir, logger);
  signal?.throwIfAborted();
  // The genesis contracts' bytecode, before anything touches L1: without it this node would
  // execute txs differently from the rest of the network.
  const genesisContracts = new GenesisContracts(await loadGenesisContracts(logger));
  signal?.throwIfAborted();
  const worldState = await WorldState.open(openEnvironment(dataDir.path, 'world-state'), {
    historyBlocks: config.worldStateHistoryBlocks,
    genesisPublicData: [
      ...devAccountsGenesisData(devAccounts(config.devAccounts)),
      ...(config.testAccounts ? testAccountsGenesisData() : []),
    ],
    genesisBlockHash: genesisBlockHashOf,
  });
  teardown.add('worldState', () => worldState.close());
  const keystorePath = config.keystorePath ?? join(dataDir.path, 'keystore.json');
  const keys = new ValidatorKeys(keystorePath, openKeystore(config, keystorePath, logger));
  return { nodeStore, adminStore, worldState, keys, genesisContracts };
}

/** A restored snapshot that did not check out must not be mistaken for this node's data. */
export function removeUncheckedSnapshot(ctx: StartContext): void {
  if (ctx.restored === undefined) return;
  for (const name of SNAPSHOT_DATABASES)
    rmSync(join(ctx.dataDir.path, name), { recursive: true, force: true });
}

export interface L1Parts {
  l1: L1Connection;
  rollup: RollupClient;
  constants: L1RollupConstants;
}

/** Connects to L1 (starting the embedded anvil, deploying on a first start) and reads the rollup's constants. */
export async function connectToL1(
  ctx: StartContext,
  stores: Stores,
  onFatal: ((reason: string) => void) | undefined,
): Promise<L1Parts> {
  const { config, dataDir, root, logger, signal, teardown } = ctx;
  const l1 = await connectL1(
    config,
    dataDir,
    stores.worldState,
    [...stores.keys.current],
    root.child({ component: 'l1' }),
    signal,
    (how) => {
      // A restarted anvil would hold only the L1 state saved last, behind what the node has
      // read; a new start recovers from exactly that, as after a crash.
      const reason = `the embedded L1 (anvil) ${how}`;
      logger.error(`${reason}: stopping the node; start it again to resume from the L1 state saved last`);
      onFatal?.(reason);
    },
  );
  teardown.add('l1', () => l1.close());
  signal?.throwIfAborted();
  const rollup = new RollupClient(l1);
  const constants = await rollup.constants(config.l1BlockTime);
  return { l1, rollup, constants };
}

export interface ChainParts {
  chain: ChainStore;
  archiver: Archiver;
  passRequests: PassRequests;
  fees: FeeOracle;
  execution: ExecutionOptions;
  txs: TxService;
}

/**
 * The chain as synced from L1 (the archiver is the only writer of its store; everything else
 * reads it), a restored snapshot's check, and the mempool's service with the network's execution
 * rules, the same for simulation and block building.
 */
export function buildChain(ctx: StartContext, stores: Stores, l1: L1Parts): ChainParts {
  const { config, dataDir, root, logger, teardown } = ctx;
  const { worldState } = stores;
  const { rollup, constants } = l1;
  const archiverLogger = root.child({ component: 'archiver' });
  const chainEnv = openEnvironment(dataDir.path, 'archiver');
  teardown.add('chainStore', () => chainEnv.close());
  const chain = new ChainStore(chainEnv, {
    onSkippedContractEvent: (e) =>
      archiverLogger.warn(
        { blockNumber: e.blockNumber, txHash: toHex32(e.txHash) },
        `contract event not indexed: ${e.reason}`,
      ),
  });
  // Requests for a pass soon, from parts built before the chain driver.
  const passRequests = new PassRequests();
  const archiver = new Archiver({
    rollup,
    store: chain,
    worldState,
    constants,
    finalityDepth: config.l1FinalityDepth,
    ensureL1Durable: l1.l1.ensureDurable,
    whenL1Durable: l1.l1.whenDurable,
    onL1Durable: () => passRequests.request(),
    // A dev method's pass reports what its L1 blocks decide, finality included.
    durabilityWait: config.clock === 'manual' ? 'answer' : undefined,
    batchBlocks: config.archiverBatchSize,
    logger: archiverLogger,
  });
  if (ctx.restored !== undefined) {
    verifyRestoredSnapshot(ctx.restored, chain, worldState);
    logger.info(
      `snapshot of block ${ctx.restored.l2BlockNumber} restored and checked; syncing the rest from L1`,
    );
    ctx.restored = undefined;
  }
  const fees = new FeeOracle(rollup, constants);
  const mempoolStore = openEnvironment(dataDir.path, 'mempool');
  teardown.add('mempoolStore', () => mempoolStore.close());
  const execution: ExecutionOptions = {
    feeJuicePortal: l1.l1.addresses.feeJuicePortalAddress,
    contracts: stores.genesisContracts.forPublicExecution(publicContractsOf(chain)),
  };
  const txs = new TxService({
    env: mempoolStore,
    worldState,
    chain,
    fees,
    constants,
    chainId: l1.l1.chainId,
    rollupVersion: config.rollupVersion,
    txsLimits: { daGas: config.txMaxDaGas, l2Gas: config.txMaxL2Gas },
    allowedSetup: allowedPublicSetup(config),
    maxTxCount: config.mempoolMaxTxCount,
    maxBytes: config.mempoolMaxBytes,
    execution,
    logger: root.child({ component: 'mempool' }),
  });
  return { chain, archiver, passRequests, fees, execution, txs };
}

/** Consensus: validators, attestations, stats, slashing and, with P2P on, the network (its key is in the p2p store). */
export async function startNetwork(
  ctx: StartContext,
  stores: Stores,
  l1: L1Parts,
  chain: ChainParts,
): Promise<Consensus> {
  const { config, dataDir, root, teardown } = ctx;
  const p2pStore = config.p2p ? openEnvironment(dataDir.path, 'p2p') : undefined;
  if (p2pStore !== undefined) teardown.add('p2pStore', () => p2pStore.close());
  const consensus = await startConsensus({
    config,
    domain: { chainId: l1.l1.chainId, rollup: l1.l1.addresses.rollupAddress },
    l1: l1.l1,
    rollup: l1.rollup,
    chain: chain.chain,
    proposedBlocks: chain.archiver,
    worldState: stores.worldState,
    constants: l1.constants,
    txs: chain.txs,
    nodeStore: stores.nodeStore,
    p2pStore,
    gossip: ctx.gossip,
    validators: () => stores.keys.current,
    // A proposal arrived: sync and attest soon.
    requestPass: () => chain.passRequests.request(),
    root,
  });
  teardown.add('consensus', () => consensus.stop());
  return consensus;
}

export interface Production {
  clock: Clock;
  sequencer: Sequencer | undefined;
  prover: DevProver | undefined;
}

/** Block production and proving. With the realtime clock, building and sending have deadlines. */
export function buildProduction(
  ctx: StartContext,
  stores: Stores,
  l1: L1Parts,
  chain: ChainParts,
  consensus: Consensus,
): Production {
  const { config, root, logger } = ctx;
  const clock: Clock = { mode: config.clock };
  const sequencer = !config.sequencer
    ? undefined
    : new Sequencer({
        rollup: l1.rollup,
        worldState: stores.worldState,
        chain: chain.chain,
        proposedBlocks: chain.archiver,
        validators: stores.keys.current,
        constants: l1.constants,
        chainId: l1.l1.chainId,
        rollupVersion: config.rollupVersion,
        maxBlocksPerCheckpoint: config.maxBlocksPerCheckpoint,
        settings: {
          minTxsPerBlock: config.minTxsPerBlock,
          maxTxsPerBlock: config.maxTxsPerBlock,
          coinbase: config.coinbase,
          feeRecipient: config.feeRecipient,
        },
        execution: chain.execution,
        txs: chain.txs,
        fees: chain.fees,
        committee: consensus.committee,
        consensus: consensus.client,
        slashing: consensus.slashVoter,
        attestationTimeoutMs: config.attestationTimeoutMs,
        realtime: () => clock.mode === 'realtime',
        logger: root.child({ component: 'sequencer' }),
      });
  // The dev prover proves with the configured key, or on the embedded L1 with its deployer's.
  const proverKey =
    (config.proverPrivateKey as `0x${string}` | undefined) ??
    (l1.l1.embedded ? DEFAULT_DEPLOYER_PRIVATE_KEY : undefined);
  const prover =
    proverKey === undefined
      ? undefined
      : new DevProver({
          rollup: l1.rollup,
          store: chain.chain,
          constants: l1.constants,
          prover: accountFromKey(proverKey),
          logger: root.child({ component: 'prover' }),
        });
  if (prover === undefined) logger.warn('no prover key (proverPrivateKey): this node does not prove epochs');
  return { clock, sequencer, prover };
}

export interface Pass {
  l1Health: L1Health;
  metrics: NodeMetrics;
  driver: ChainDriver;
}

/**
 * The chain pass that runs them all, with the L1 health poll and the metrics that watch it; the
 * world state is brought level with the archiver (a crash between their commits leaves them apart).
 */
export async function buildPass(
  ctx: StartContext,
  stores: Stores,
  l1: L1Parts,
  chain: ChainParts,
  consensus: Consensus,
  production: Production,
): Promise<Pass> {
  const { config, root, signal, teardown } = ctx;
  const { archiver, txs } = chain;
  const { clock } = production;
  const l1Health = newL1Health(config, l1.l1, archiver, root);
  const metrics = newMetrics(chain, l1Health, consensus, l1.l1);
  stores.worldState.onCommitted = (ms) => metrics.observeCommit(ms);
  const driver = new ChainDriver({
    rollup: l1.rollup,
    archiver,
    sequencer: production.sequencer,
    prover: production.prover,
    // Realtime: the next L1 block comes l1BlockTime seconds later; manual: when mined, a second later.
    nextBlockIn: () => (clock.mode === 'realtime' ? config.l1BlockTime : 1),
    pollingIntervalMs: config.archiverPollingIntervalMS,
    afterSync: () => txs.afterPass(),
    attester: consensus.client,
    monitor: consensus.monitor,
    requests: chain.passRequests,
    onPass: (report) => metrics.observePass(report),
    away: { followedUntil: () => chain.chain.l1SyncPoint?.timestamp, slotAt: (t) => slotAt(t, l1.constants) },
    logger: root.child({ component: 'chain' }),
  });
  teardown.add('driver', () => driver.stop());
  signal?.throwIfAborted();
  await archiver.catchUpWorldState();
  signal?.throwIfAborted();
  // With the manual clock the chain moves only on request: start from a synced state. With
  // the realtime clock the first pass runs at once in the background, so a node with a long
  // history to sync from L1 answers requests (and shows its progress) meanwhile.
  if (config.clock !== 'realtime') await driver.pass();
  return { l1Health, metrics, driver };
}

/** L1 health: polled with a plain eth_blockNumber (see l1HeadOf). */
function newL1Health(config: Config, l1: L1Connection, archiver: Archiver, root: Logger): L1Health {
  return new L1Health({
    rpcUrl: l1.rpcUrl,
    latestBlock: l1HeadOf(l1),
    syncedBlock: () => archiver.syncProgress.l1Block,
    maxFailedPolls: config.l1MaxFailedPolls,
    logger: root.child({ component: 'l1' }),
  });
}

/**
 * The L1 head by a plain request: viem's getBlockNumber shares one in-flight answer among its
 * callers, which could hand the archiver a head read before the block it just mined.
 */
function l1HeadOf(l1: L1Connection): () => Promise<bigint> {
  return async () => BigInt(await l1.client.request({ method: 'eth_blockNumber' }));
}

function newMetrics(
  chain: ChainParts,
  l1Health: L1Health,
  consensus: Consensus,
  l1: L1Connection,
): NodeMetrics {
  const { archiver, txs } = chain;
  const network = consensus.network;
  return new NodeMetrics({
    tips: () => {
      const t = chain.chain.getTips();
      return {
        proposed: { block: t.proposed.number },
        checkpointed: { block: t.checkpointed.block.number, checkpoint: t.checkpointed.checkpoint.number },
        proven: { block: t.proven.block.number, checkpoint: t.proven.checkpoint.number },
        finalized: { block: t.finalized.block.number, checkpoint: t.finalized.checkpoint.number },
      };
    },
    l1Head: l1HeadOf(l1),
    l1Synced: () => archiver.syncProgress.l1Block,
    mempool: () => ({ txs: txs.pendingCount, bytes: txs.pool.pendingBytes }),
    l1Up: () => l1Health.reachable,
    ...(network === undefined
      ? {}
      : { p2p: () => ({ peers: network.getPeers(false).length, gossip: network.validationCounts }) }),
  });
}

/** A node that follows L1, proposes, attests and proves: what the phases before the API's build. */
export interface NodeCore {
  stores: Stores;
  l1: L1Parts;
  chain: ChainParts;
  consensus: Consensus;
  production: Production;
  pass: Pass;
}

/**
 * Runs the phases from the stores to the chain pass, in dependency order: CairnNode.start adds
 * the API's parts and the timers. An in-process test builds its nodes here too, with its own
 * gossip network (`ctx.gossip`), and runs their chain passes itself (the manual clock).
 */
export async function buildNodeCore(
  ctx: StartContext,
  onFatal?: ((reason: string) => void) | undefined,
): Promise<NodeCore> {
  const stores = await openStores(ctx);
  const l1 = await connectToL1(ctx, stores, onFatal);
  const chain = buildChain(ctx, stores, l1);
  const consensus = await startNetwork(ctx, stores, l1, chain);
  const production = buildProduction(ctx, stores, l1, chain, consensus);
  const pass = await buildPass(ctx, stores, l1, chain, consensus, production);
  return { stores, l1, chain, consensus, production, pass };
}

export interface ApiParts {
  admin: NodeAdmin;
  snapshots: SnapshotUploader;
  queries: NodeQueries;
  lifecycle: Lifecycle;
  signatures: FunctionSignatureBook;
  info: NodeStatus;
  dev: DevOperations | undefined;
}

/** Operations, queries and what the node says about itself: the parts the API serves. */
export function buildApiParts(
  ctx: StartContext,
  stores: Stores,
  l1: L1Parts,
  chain: ChainParts,
  consensus: Consensus,
  production: Production,
  pass: Pass,
): ApiParts {
  const { config, dataDir, logger } = ctx;
  const { worldState } = stores;
  const { rollup, constants } = l1;
  const { driver } = pass;
  const admin = new NodeAdmin({
    config,
    store: stores.adminStore,
    driver,
    archiver: chain.archiver,
    chain: chain.chain,
    worldState,
    sequencer: production.sequencer,
    txs: chain.txs,
    keystore: stores.keys,
    logger,
  });
  const snapshots = new SnapshotUploader({
    driver,
    chain: chain.chain,
    worldState,
    dataDir: dataDir.path,
    meta: () => ({
      l1ChainId: l1.l1.chainId,
      rollupVersion: admin.config.rollupVersion,
      rollupAddress: l1.l1.addresses.rollupAddress,
    }),
    s3: s3SettingsOf(config),
    logger: logger.child({ component: 'snapshot' }),
  });
  const queries = newQueries(chain.chain, worldState, rollup, constants, consensus, stores.genesisContracts);
  const lifecycle = new Lifecycle();
  const signatures = new FunctionSignatureBook(stores.nodeStore);
  const info = new NodeStatus({
    lifecycle,
    clock: production.clock,
    admin,
    l1Addresses: l1.l1.addresses,
    chain: chain.chain,
    worldState,
    archiver: chain.archiver,
    l1Health: pass.l1Health,
    snapshots,
    signatures,
    network: consensus.network,
    logger,
  });
  const dev = newDevOperations(ctx, stores, l1, chain, consensus, production, pass);
  return { admin, snapshots, queries, lifecycle, signatures, info, dev };
}

function newQueries(
  chain: ChainStore,
  worldState: WorldState,
  rollup: RollupClient,
  constants: L1RollupConstants,
  consensus: Consensus,
  genesisContracts: GenesisContracts,
): NodeQueries {
  const chainQueries = new ChainQueries(chain, constants);
  const stateQueries = new StateQueries(worldState, chainQueries, () => chain.latestBlockNumber);
  const resolve = stateQueries.resolve.bind(stateQueries);
  return {
    chain: chainQueries,
    state: stateQueries,
    logs: new LogQueries(chain, resolve),
    contracts: new ContractQueries(chain, resolve, genesisContracts),
    messages: new MessageQueries(chain, stateQueries, rollup, constants),
    validators: new ValidatorQueries(consensus, rollup, constants),
  };
}

/** The dev cheat codes, on the embedded L1 only; the instant clock's builder is theirs. */
function newDevOperations(
  ctx: StartContext,
  stores: Stores,
  l1: L1Parts,
  chain: ChainParts,
  consensus: Consensus,
  production: Production,
  pass: Pass,
): DevOperations | undefined {
  const { config, logger } = ctx;
  const dev = !l1.l1.embedded
    ? undefined
    : new DevOperations({
        l1RpcUrl: l1.l1.rpcUrl,
        rollup: l1.rollup,
        driver: pass.driver,
        chain: chain.chain,
        constants: l1.constants,
        clock: production.clock,
        l1BlockTime: config.l1BlockTime,
        rollupVersion: config.rollupVersion,
        archiver: chain.archiver,
        txs: chain.txs,
        sequencer: production.sequencer,
        prover: production.prover,
        consensus,
        l1: l1.l1,
        worldState: stores.worldState,
        devAccounts: config.devAccounts,
        logger,
      });
  // The instant clock's builder is the dev methods' (svcDev_setClock switches to it).
  if (config.clock === 'instant' && dev === undefined)
    throw new Error('--clock instant needs the embedded L1: it moves L1 time itself (no --l1-rpc-url)');
  return dev;
}

/** Starts the timers (the realtime chain pass, the L1 health poll) and says what started. */
export function startTimers(ctx: StartContext, stores: Stores, pass: Pass, api: ApiParts): void {
  const { config, dataDir, logger, teardown } = ctx;
  const { driver, l1Health } = pass;
  const { signatures, info } = api;
  if (config.clock === 'realtime') driver.start();
  l1Health.start();
  teardown.add('l1Health', () => l1Health.stop());
  // The protocol's own setup functions are named like any registered signature.
  signatures.register(DEFAULT_SETUP_ALLOW_LIST.map((e) => e.signature));
  for (const e of info.getAllowedPublicSetup()) {
    const target =
      e.address !== undefined ? `contract ${toHex32(e.address)}` : `class ${toHex32(e.classId!)}`;
    logger.debug(`setup allow-list: ${signatures.describe(e.selector)} on ${target}`);
  }
  logger.debug(
    {
      dataDir: dataDir.path,
      ephemeral: dataDir.ephemeral,
      signatures: signatures.size,
      worldStateBlock: stores.worldState.latestBlockNumber,
    },
    'node started',
  );
}
