// The composition root: builds the node's components from the configuration, in dependency
// order, and owns their lifecycle. What the API may use of the node is NodeApi (node-api.ts);
// the dev cheat codes are in dev.ts, node info and health in status.ts.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Archiver } from '../archiver/archiver.js';
import { ChainStore } from '../archiver/chain-store.js';
import type { Config } from '../config/settings.js';
import { DEFAULT_SETUP_ALLOW_LIST } from '../core/constants.js';
import { toHex32 } from '../core/field.js';
import { type L1RollupConstants, slotAt } from '../core/time.js';
import { withAvmProtocolContracts } from '../execution/avm-protocol-contracts.js';
import { devAccounts, devAccountsGenesisData } from '../execution/dev-accounts.js';
import type { ExecutionOptions } from '../execution/executor.js';
import type { L1Connection, ResumedL1Time } from '../l1/connect.js';
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
  logHashingBackend,
  openKeystore,
  publicContractsOf,
  restoreSnapshotIfAsked,
  s3SettingsOf,
} from './bootstrap.js';
import { ChainDriver, PassRequests } from './chain-driver.js';
import { type Consensus, startConsensus } from './consensus.js';
import { type DataDir, openDataDir } from './data-dir.js';
import { DevOperations } from './dev.js';
import { FunctionSignatureBook } from './function-signatures.js';
import { L1Health } from './l1-health.js';
import { NodeMetrics } from './metrics.js';
import type { NodeApi, NodeQueries } from './node-api.js';
import { loadAvmProtocolContracts } from './protocol-artifacts.js';
import { SNAPSHOT_DATABASES, SnapshotUploader, verifyRestoredSnapshot } from './snapshots.js';
import { type Clock, Lifecycle, type NodeState, NodeStatus } from './status.js';

/** What the process running the node gives it besides its configuration. */
export interface StartOptions {
  /** Stops start-up between its steps (and while it waits for L1). */
  signal?: AbortSignal | undefined;
  /**
   * Called when the node can no longer run (its embedded L1 exited): the process should stop it.
   * Without it the node only logs the error.
   */
  onFatal?: ((reason: string) => void) | undefined;
}

/** Everything the node owns once built: what it serves, and what it closes on stop. */
interface NodeParts {
  logger: Logger;
  dataDir: DataDir;
  /** Closed on stop, after the driver and consensus, in this order. */
  stores: {
    p2p: StoreEnvironment | undefined;
    worldState: WorldState;
    mempool: StoreEnvironment;
    node: StoreEnvironment;
  };
  l1: L1Connection;
  l1Health: L1Health;
  lifecycle: Lifecycle;
  driver: ChainDriver;
  consensus: Consensus;
  queries: NodeQueries;
  txs: TxService;
  info: NodeStatus;
  constants: L1RollupConstants;
  admin: NodeAdmin;
  snapshots: SnapshotUploader;
  dev: DevOperations | undefined;
  metrics: NodeMetrics;
}

export class CairnNode implements NodeApi {
  readonly queries: NodeQueries;
  readonly txs: TxService;
  readonly info: NodeStatus;
  readonly constants: L1RollupConstants;
  readonly admin: NodeAdmin;
  readonly snapshots: SnapshotUploader;
  readonly dev: DevOperations | undefined;
  readonly metrics: NodeMetrics;

  private constructor(private readonly parts: NodeParts) {
    this.metrics = parts.metrics;
    this.queries = parts.queries;
    this.txs = parts.txs;
    this.info = parts.info;
    this.constants = parts.constants;
    this.admin = parts.admin;
    this.snapshots = parts.snapshots;
    this.dev = parts.dev;
  }

  /**
   * `root` is the process logger: the node logs as component `node`, its parts as their own.
   * `signal` stops start-up between its steps (and while it waits for L1): what was opened is
   * closed and the promise rejects with the signal's reason.
   */
  static async start(startupConfig: Config, root: Logger, options: StartOptions = {}): Promise<CairnNode> {
    const { signal, onFatal } = options;
    const logger = root.child({ component: 'node' });
    logHashingBackend(logger);
    const dataDir = openDataDir(startupConfig.dataDir, startupConfig.ephemeral);
    if (dataDir.uncleanShutdownOf !== undefined) {
      logger.warn(
        `the last node on ${dataDir.path} (pid ${dataDir.uncleanShutdownOf}) did not shut down cleanly: ` +
          'recovering its stores and L1 state',
      );
    }
    let nodeStore: StoreEnvironment | undefined;
    let mempoolStore: StoreEnvironment | undefined;
    let worldState: WorldState | undefined;
    let l1: L1Connection | undefined;
    let consensus: Consensus | undefined;
    let p2pStore: StoreEnvironment | undefined;
    let restored: SnapshotEntry | undefined;
    let verified = false;
    try {
      nodeStore = openEnvironment(dataDir.path, 'node');
      const adminStore = new AdminConfigStore(nodeStore);
      const config = applySavedAdminConfig(startupConfig, adminStore, logger);
      restored = await restoreSnapshotIfAsked(config, dataDir, logger);
      signal?.throwIfAborted();
      // The AuthRegistry's bytecode, before anything touches L1: without it this node would
      // execute txs differently from the rest of the network.
      const avmProtocolContracts = await loadAvmProtocolContracts(logger);
      signal?.throwIfAborted();
      worldState = await WorldState.open(openEnvironment(dataDir.path, 'world-state'), {
        historyBlocks: config.worldStateHistoryBlocks,
        genesisPublicData: devAccountsGenesisData(devAccounts(config.devAccounts)),
        genesisBlockHash: genesisBlockHashOf,
      });
      const keystorePath = config.keystorePath ?? join(dataDir.path, 'keystore.json');
      const keys = new ValidatorKeys(keystorePath, openKeystore(config, keystorePath, logger));
      l1 = await connectL1(
        config,
        dataDir,
        worldState,
        [...keys.current],
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
      signal?.throwIfAborted();
      const rollup = new RollupClient(l1);
      const constants = await rollup.constants(config.l1BlockTime);

      // The chain: the archiver is the only writer of its store; everything else reads it.
      const archiverLogger = root.child({ component: 'archiver' });
      const chain = new ChainStore(openEnvironment(dataDir.path, 'archiver'), {
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
        ensureL1Durable: l1.ensureDurable,
        onL1Durable: () => passRequests.request(),
        // A dev method's pass reports what its L1 blocks decide, finality included.
        durabilityWait: config.clock === 'manual' ? 'answer' : undefined,
        batchBlocks: config.archiverBatchSize,
        logger: archiverLogger,
      });
      if (restored !== undefined) {
        verifyRestoredSnapshot(restored, chain, worldState);
        logger.info(
          `snapshot of block ${restored.l2BlockNumber} restored and checked; syncing the rest from L1`,
        );
      }
      verified = true;

      // Transactions: the mempool's service, with the network's execution rules, the same for
      // simulation and block building.
      const fees = new FeeOracle(rollup, constants);
      mempoolStore = openEnvironment(dataDir.path, 'mempool');
      const execution: ExecutionOptions = {
        updateDelay: config.contractUpdateDelay,
        feeJuicePortal: l1.addresses.feeJuicePortalAddress,
        contracts: withAvmProtocolContracts(publicContractsOf(chain), avmProtocolContracts),
      };
      const txs = new TxService({
        env: mempoolStore,
        worldState,
        chain,
        fees,
        constants,
        chainId: l1.chainId,
        rollupVersion: config.rollupVersion,
        txsLimits: { daGas: config.txMaxDaGas, l2Gas: config.txMaxL2Gas },
        allowedSetup: allowedPublicSetup(config),
        maxTxCount: config.mempoolMaxTxCount,
        maxBytes: config.mempoolMaxBytes,
        execution,
        logger: root.child({ component: 'mempool' }),
      });

      // Consensus: validators, attestations, stats, slashing and, with P2P on, the network
      // (whose key is in the p2p store).
      p2pStore = config.p2p ? openEnvironment(dataDir.path, 'p2p') : undefined;
      consensus = await startConsensus({
        config,
        domain: { chainId: l1.chainId, rollup: l1.addresses.rollupAddress },
        l1,
        rollup,
        chain,
        proposedBlocks: archiver,
        worldState,
        constants,
        txs,
        nodeStore,
        p2pStore,
        validators: () => keys.current,
        // A proposal arrived: sync and attest soon.
        requestPass: () => passRequests.request(),
        root,
      });

      // Block production and proving. With the realtime clock, building and sending have deadlines.
      const clock: Clock = { mode: config.clock };
      const sequencer = !config.sequencer
        ? undefined
        : new Sequencer({
            rollup,
            worldState,
            chain,
            proposedBlocks: archiver,
            validators: keys.current,
            constants,
            chainId: l1.chainId,
            rollupVersion: config.rollupVersion,
            maxBlocksPerCheckpoint: config.maxBlocksPerCheckpoint,
            settings: {
              minTxsPerBlock: config.minTxsPerBlock,
              maxTxsPerBlock: config.maxTxsPerBlock,
              coinbase: config.coinbase,
              feeRecipient: config.feeRecipient,
            },
            execution,
            txs,
            fees,
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
        (l1.embedded ? DEFAULT_DEPLOYER_PRIVATE_KEY : undefined);
      const prover =
        proverKey === undefined
          ? undefined
          : new DevProver({
              rollup,
              store: chain,
              constants,
              prover: accountFromKey(proverKey),
              logger: root.child({ component: 'prover' }),
            });
      if (prover === undefined)
        logger.warn('no prover key (proverPrivateKey): this node does not prove epochs');

      // A plain request: viem's getBlockNumber shares one in-flight answer among its callers, which
      // could hand the archiver a head read before the block it just mined.
      const l1HeadNow = async () => BigInt(await l1!.client.request({ method: 'eth_blockNumber' }));
      const l1Health = new L1Health({
        rpcUrl: l1.rpcUrl,
        latestBlock: l1HeadNow,
        syncedBlock: () => archiver.syncProgress.l1Block,
        maxFailedPolls: config.l1MaxFailedPolls,
        logger: root.child({ component: 'l1' }),
      });
      const network = consensus.network;

      // The chain pass that runs them all.
      const metrics = new NodeMetrics({
        tips: () => {
          const t = chain.getTips();
          return {
            proposed: { block: t.proposed.number },
            checkpointed: {
              block: t.checkpointed.block.number,
              checkpoint: t.checkpointed.checkpoint.number,
            },
            proven: { block: t.proven.block.number, checkpoint: t.proven.checkpoint.number },
            finalized: { block: t.finalized.block.number, checkpoint: t.finalized.checkpoint.number },
          };
        },
        l1Head: l1HeadNow,
        l1Synced: () => archiver.syncProgress.l1Block,
        mempool: () => ({ txs: txs.pendingCount, bytes: txs.pool.pendingBytes }),
        l1Up: () => l1Health.reachable,
        ...(network === undefined
          ? {}
          : { p2p: () => ({ peers: network.getPeers(false).length, gossip: network.validationCounts }) }),
      });
      worldState.onCommitted = (ms) => metrics.observeCommit(ms);
      const driver = new ChainDriver({
        rollup,
        archiver,
        sequencer,
        prover,
        // Realtime: the next L1 block comes l1BlockTime seconds later; manual: when mined, a second later.
        nextBlockIn: () => (clock.mode === 'realtime' ? config.l1BlockTime : 1),
        pollingIntervalMs: config.archiverPollingIntervalMS,
        afterSync: () => txs.afterPass(),
        attester: consensus.client,
        monitor: consensus.monitor,
        requests: passRequests,
        onPass: (report) => metrics.observePass(report),
        away: { followedUntil: () => chain.l1SyncPoint?.timestamp, slotAt: (t) => slotAt(t, constants) },
        logger: root.child({ component: 'chain' }),
      });
      // A crash between the archiver's and the world state's commits leaves them apart.
      signal?.throwIfAborted();
      await archiver.catchUpWorldState();
      signal?.throwIfAborted();
      // With the manual clock the chain moves only on request: start from a synced state. With
      // the realtime clock the first pass runs at once in the background, so a node with a long
      // history to sync from L1 answers requests (and shows its progress) meanwhile.
      if (config.clock !== 'realtime') await driver.pass();

      // Operations, queries and what the node says about itself.
      const admin = new NodeAdmin({
        config,
        store: adminStore,
        driver,
        archiver,
        chain,
        worldState,
        sequencer,
        txs,
        keystore: keys,
        logger,
      });
      const snapshots = new SnapshotUploader({
        driver,
        chain,
        worldState,
        dataDir: dataDir.path,
        meta: () => ({
          l1ChainId: l1!.chainId,
          rollupVersion: admin.config.rollupVersion,
          rollupAddress: l1!.addresses.rollupAddress,
        }),
        s3: s3SettingsOf(config),
        logger: logger.child({ component: 'snapshot' }),
      });
      const chainQueries = new ChainQueries(chain, constants);
      const stateQueries = new StateQueries(worldState, chainQueries, () => chain.latestBlockNumber);
      const resolve = stateQueries.resolve.bind(stateQueries);
      const queries: NodeQueries = {
        chain: chainQueries,
        state: stateQueries,
        logs: new LogQueries(chain, resolve),
        contracts: new ContractQueries(chain, resolve),
        messages: new MessageQueries(chain, stateQueries, rollup, constants),
        validators: new ValidatorQueries(consensus, rollup, constants),
      };
      const lifecycle = new Lifecycle();
      const signatures = new FunctionSignatureBook(nodeStore);
      const info = new NodeStatus({
        lifecycle,
        clock,
        admin,
        l1Addresses: l1.addresses,
        chain,
        worldState,
        archiver,
        l1Health,
        snapshots,
        signatures,
        network: consensus.network,
        logger,
      });
      const dev = !l1.embedded
        ? undefined
        : new DevOperations({
            l1RpcUrl: l1.rpcUrl,
            rollup,
            driver,
            chain,
            constants,
            clock,
            l1BlockTime: config.l1BlockTime,
            rollupVersion: config.rollupVersion,
            archiver,
            txs,
            sequencer,
            prover,
            consensus,
            l1,
            worldState,
            devAccounts: config.devAccounts,
            logger,
          });
      // The instant clock's builder is the dev methods' (svcDev_setClock switches to it).
      if (config.clock === 'instant' && dev === undefined)
        throw new Error('--clock instant needs the embedded L1: it moves L1 time itself (no --l1-rpc-url)');
      const node = new CairnNode({
        logger,
        dataDir,
        stores: { p2p: p2pStore, worldState, mempool: mempoolStore, node: nodeStore },
        l1,
        l1Health,
        lifecycle,
        driver,
        consensus,
        queries,
        txs,
        info,
        constants,
        admin,
        snapshots,
        dev,
        metrics,
      });
      if (config.clock === 'realtime') driver.start();
      l1Health.start();
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
          worldStateBlock: worldState.latestBlockNumber,
        },
        'node started',
      );
      lifecycle.state = 'running';
      return node;
    } catch (err) {
      await consensus?.stop();
      await p2pStore?.close();
      await l1?.close();
      await worldState?.close();
      await mempoolStore?.close();
      await nodeStore?.close();
      // A restored snapshot that did not check out must not be mistaken for this node's data.
      if (restored !== undefined && !verified) {
        for (const name of SNAPSHOT_DATABASES)
          rmSync(join(dataDir.path, name), { recursive: true, force: true });
      }
      dataDir.release();
      throw err;
    }
  }

  /** Where the node keeps its data, and whether it is removed on exit. */
  get dataDir(): { path: string; ephemeral: boolean } {
    return { path: this.parts.dataDir.path, ephemeral: this.parts.dataDir.ephemeral };
  }

  /** The L1 the node reads and writes: its URL, chain id, and whether it is the embedded anvil. */
  get l1(): {
    rpcUrl: string;
    chainId: number;
    embedded: boolean;
    rollup: string;
    resumed: ResumedL1Time | undefined;
  } {
    const { rpcUrl, chainId, embedded, addresses, resumed } = this.parts.l1;
    return { rpcUrl, chainId, embedded, rollup: addresses.rollupAddress, resumed };
  }

  get lifecycle(): NodeState {
    return this.parts.lifecycle.state;
  }

  /** Health for GET /status. */
  status(): { ok: boolean } & Record<string, unknown> {
    return this.info.status();
  }

  /** Closes the stores and releases the data directory. Safe to call twice. */
  async stop(): Promise<void> {
    const { lifecycle, driver, consensus, stores, l1, l1Health, dataDir, logger } = this.parts;
    if (lifecycle.state === 'stopping' || lifecycle.state === 'stopped') return;
    lifecycle.state = 'stopping';
    await l1Health.stop();
    await driver.stop();
    await consensus.stop();
    await stores.p2p?.close();
    await l1.close();
    await stores.worldState.close();
    await stores.mempool.close();
    await stores.node.close();
    dataDir.release();
    lifecycle.state = 'stopped';
    logger.info('node stopped');
  }
}
