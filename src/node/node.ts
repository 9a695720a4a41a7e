// The composition root: builds the node's components from the configuration, owns
// their lifecycle, and answers the questions the API asks of the node as a whole.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createTestClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Archiver } from '../archiver/archiver.js';
import { ChainStore } from '../archiver/chain-store.js';
import { genesisBlockOf } from '../archiver/genesis.js';
import { ChainQueries } from '../archiver/queries.js';
import type { Config } from '../config/settings.js';
import {
  type AllowedElement,
  DEFAULT_SETUP_ALLOW_LIST,
  PROTOCOL_CONTRACT_ADDRESSES,
  type ProtocolContractAddresses,
} from '../core/constants.js';
import { invalidParams, refused, unavailable } from '../core/errors.js';
import { type Fr, toHex32 } from '../core/field.js';
import { functionSelector, poseidon2Backend } from '../core/hash/index.js';
import { epochOfSlot, type L1RollupConstants, slotAt, slotStart } from '../core/time.js';
import { NODE_VERSION } from '../core/version.js';
import { devAccounts, devAccountsGenesisData, type ExecutionOptions } from '../execution/index.js';
import type { L1ContractAddresses } from '../l1/addresses.js';
import {
  connectEmbeddedL1,
  connectExternalL1,
  type ExternalL1Options,
  type L1Connection,
} from '../l1/connect.js';
import { DEFAULT_DEPLOYER_PRIVATE_KEY } from '../l1/deploy.js';
import { FeeOracle } from '../l1/fee-oracle.js';
import { type MessageSentEvent, messageSentIn, RollupClient } from '../l1/rollup-client.js';
import { DevProver } from '../prover/dev-prover.js';
import { Sequencer } from '../sequencer/sequencer.js';
import type { S3Settings } from '../snapshots/file-store.js';
import type { SnapshotEntry } from '../snapshots/snapshot-index.js';
import { openEnvironment, type StoreEnvironment } from '../store/environment.js';
import { ensureDevKeystore, loadKeystore, type Validator } from '../validators/keystore.js';
import { genesisBlockHashOf, TreeId, WorldState } from '../world-state/index.js';
import { NodeAdmin } from './admin.js';
import { AdminConfigStore, applySavedAdminConfig } from './admin-config.js';
import { ChainDriver } from './chain-driver.js';
import { type Consensus, startConsensus } from './consensus.js';
import { ContractQueries } from './contract-queries.js';
import { type DataDir, openDataDir } from './data-dir.js';
import { FunctionSignatureBook } from './function-signatures.js';
import { LogQueries } from './log-queries.js';
import { errorSummary } from './logger.js';
import { MessageQueries } from './message-queries.js';
import {
  isFreshDataDir,
  restoreSnapshot,
  SNAPSHOT_DATABASES,
  SnapshotUploader,
  verifyRestoredSnapshot,
} from './snapshots.js';
import { StateQueries } from './state-queries.js';
import { TxService } from './tx-service.js';
import { ValidatorQueries } from './validator-queries.js';

export interface NodeInfo {
  nodeVersion: string;
  l1ChainId: number;
  rollupVersion: number;
  enr?: string;
  l1ContractAddresses: L1ContractAddresses;
  protocolContractAddresses: ProtocolContractAddresses;
  /** Whether tx proofs are verified for real; cairn's only verifier is the dev verifier. */
  realProofs: boolean;
  txsLimits: { gas: { daGas: number; l2Gas: number } };
}

/** S3 access for snapshot locations, from the settings. */
function s3SettingsOf(config: Config): S3Settings {
  return {
    region: config.s3Region,
    ...(config.s3Endpoint === undefined ? {} : { endpoint: config.s3Endpoint }),
    ...(config.s3AccessKeyId === undefined ? {} : { accessKeyId: config.s3AccessKeyId }),
    ...(config.s3SecretAccessKey === undefined ? {} : { secretAccessKey: config.s3SecretAccessKey }),
  };
}

export type NodeState = 'starting' | 'running' | 'stopping' | 'stopped';

export class CairnNode {
  private state: NodeState = 'starting';
  private readonly startedAt = Date.now();
  readonly signatures: FunctionSignatureBook;
  readonly queries: ChainQueries;
  readonly stateQueries: StateQueries;
  readonly logQueries: LogQueries;
  readonly contractQueries: ContractQueries;
  readonly messageQueries: MessageQueries;
  readonly validatorQueries: ValidatorQueries;

  private liveConfig: Config;
  readonly admin: NodeAdmin;
  readonly snapshots: SnapshotUploader;

  private constructor(
    config: Config,
    readonly logger: Logger,
    readonly dataDir: DataDir,
    private readonly nodeStore: StoreEnvironment,
    private readonly mempoolStore: StoreEnvironment,
    readonly worldState: WorldState,
    private keys: Validator[],
    keystorePath: string,
    adminStore: AdminConfigStore,
    readonly archiver: Archiver,
    readonly l1: L1Connection,
    readonly chain: ChainStore,
    readonly constants: L1RollupConstants,
    readonly rollup: RollupClient,
    readonly sequencer: Sequencer | undefined,
    readonly driver: ChainDriver,
    readonly txs: TxService,
    private readonly clock: { mode: 'realtime' | 'manual' },
    readonly consensus: Consensus,
    private readonly p2pStore: StoreEnvironment | undefined,
  ) {
    this.liveConfig = config;
    this.signatures = new FunctionSignatureBook(nodeStore);
    this.queries = new ChainQueries(chain, constants);
    this.stateQueries = new StateQueries(worldState, this.queries, () => chain.latestBlockNumber);
    this.logQueries = new LogQueries(chain, (ref) => this.stateQueries.resolve(ref));
    this.contractQueries = new ContractQueries(chain, (ref) => this.stateQueries.resolve(ref));
    this.messageQueries = new MessageQueries(chain, this.stateQueries, rollup, constants);
    this.validatorQueries = new ValidatorQueries(consensus, rollup, constants);
    this.admin = new NodeAdmin({
      config: () => this.liveConfig,
      replaceConfig: (c) => {
        this.liveConfig = c;
      },
      allowedSetupOf: CairnNode.allowedSetupOf,
      store: adminStore,
      driver,
      archiver,
      chain,
      worldState,
      sequencer,
      txs,
      keystore: {
        path: keystorePath,
        validators: () => this.keys,
        replaceValidators: (v) => {
          this.keys = v;
        },
      },
      logger,
    });
    this.snapshots = new SnapshotUploader({
      driver,
      chain,
      worldState,
      dataDir: dataDir.path,
      meta: () => ({
        l1ChainId: l1.chainId,
        rollupVersion: this.liveConfig.rollupVersion,
        rollupAddress: l1.addresses.rollupAddress,
      }),
      s3: s3SettingsOf(config),
      logger: logger.child({ component: 'snapshot' }),
    });
  }

  /** The configuration in force: the startup settings with the admin changes applied. */
  get config(): Config {
    return this.liveConfig;
  }

  /** The keystore's validators in use. */
  get validators(): readonly Validator[] {
    return this.keys;
  }

  /** The protocol's setup allow-list plus the configured extension. */
  private static allowedSetupOf(config: Config): AllowedElement[] {
    const defaults: AllowedElement[] = DEFAULT_SETUP_ALLOW_LIST.map((e) => ({
      address: PROTOCOL_CONTRACT_ADDRESSES[e.contract],
      selector: functionSelector(e.signature),
      ...(e.onlySelf ? { onlySelf: true } : {}),
      calldataLength: e.calldataLength,
    }));
    return [...defaults, ...config.txPublicSetupAllowListExtend];
  }

  /** `root` is the process logger: the node logs as component `node`, its parts as their own. */
  static async start(startupConfig: Config, root: Logger): Promise<CairnNode> {
    const logger = root.child({ component: 'node' });
    const hashing = poseidon2Backend();
    if (hashing.kind === 'native') logger.info(`Poseidon2: native addon (${hashing.addonPath})`);
    else {
      logger.warn(
        `Poseidon2: using the pure-TypeScript hasher, about 10x slower than the native addon (${hashing.reason}); ` +
          'run `npm rebuild` with g++, make and python3 available to build it',
      );
    }
    const dataDir = openDataDir(startupConfig.dataDir, startupConfig.ephemeral);
    let nodeStore: StoreEnvironment | undefined;
    let mempoolStore: StoreEnvironment | undefined;
    let worldState: WorldState | undefined;
    let l1: L1Connection | undefined;
    let consensus: Consensus | undefined;
    let p2pStore: StoreEnvironment | undefined;
    const nodeRef: { node?: CairnNode } = {};
    let restored: SnapshotEntry | undefined;
    let verified = false;
    try {
      nodeStore = openEnvironment(dataDir.path, 'node');
      const adminStore = new AdminConfigStore(nodeStore);
      const config = applySavedAdminConfig(startupConfig, adminStore, logger);
      restored = await CairnNode.restoreSnapshotIfAsked(config, dataDir, logger);
      worldState = await WorldState.open(openEnvironment(dataDir.path, 'world-state'), {
        historyBlocks: config.worldStateHistoryBlocks,
        genesisPublicData: devAccountsGenesisData(devAccounts(config.devAccounts)),
        genesisBlockHash: genesisBlockHashOf,
      });
      const keystorePath = config.keystorePath ?? join(dataDir.path, 'keystore.json');
      const validators = CairnNode.openKeystore(config, keystorePath, logger);
      l1 = await CairnNode.connectL1(
        config,
        dataDir,
        worldState,
        validators,
        root.child({ component: 'l1' }),
      );
      const archiverLogger = root.child({ component: 'archiver' });
      const chain = new ChainStore(openEnvironment(dataDir.path, 'archiver'), {
        onSkippedContractEvent: (e) =>
          archiverLogger.warn(
            { blockNumber: e.blockNumber, txHash: toHex32(e.txHash) },
            `contract event not indexed: ${e.reason}`,
          ),
      });
      chain.initialize(genesisBlockOf(worldState));
      if (restored !== undefined) {
        verifyRestoredSnapshot(restored, chain, worldState);
        logger.info(
          `snapshot of block ${restored.l2BlockNumber} restored and checked; syncing the rest from L1`,
        );
      }
      verified = true;
      const rollup = new RollupClient(l1);
      const constants = await rollup.constants(config.l1BlockTime);
      const archiver = new Archiver({
        rollup,
        store: chain,
        worldState,
        constants,
        finalityDepth: config.l1FinalityDepth,
        batchBlocks: config.archiverBatchSize,
        logger: archiverLogger,
      });
      const fees = new FeeOracle(rollup, constants);
      mempoolStore = openEnvironment(dataDir.path, 'mempool');
      // The network's execution rules, the same for simulation and block building.
      const execution: ExecutionOptions = {
        updateDelay: config.contractUpdateDelay,
        feeJuicePortal: l1.addresses.feeJuicePortalAddress,
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
        allowedSetup: CairnNode.allowedSetupOf(config),
        maxTxCount: config.mempoolMaxTxCount,
        maxBytes: config.mempoolMaxBytes,
        execution,
        logger: root.child({ component: 'mempool' }),
      });
      // The P2P store holds the node's network key.
      p2pStore = config.p2p ? openEnvironment(dataDir.path, 'p2p') : undefined;
      const driverRef: { driver?: ChainDriver; requested: boolean } = { requested: false };
      consensus = await startConsensus({
        config,
        domain: { chainId: l1.chainId, rollup: l1.addresses.rollupAddress },
        l1,
        rollup,
        chain,
        worldState,
        constants,
        txs,
        nodeStore,
        p2pStore,
        validators: () => nodeRef.node?.validators ?? validators,
        // A proposal arrived: sync and attest soon; requests made while one waits are folded into it.
        requestPass: () => {
          if (driverRef.requested || driverRef.driver === undefined) return;
          driverRef.requested = true;
          setImmediate(() => {
            driverRef.requested = false;
            driverRef.driver?.pass().catch((err) => logger.warn(`chain pass failed: ${errorSummary(err)}`));
          });
        },
        root,
      });
      const sequencer = !config.sequencer
        ? undefined
        : new Sequencer({
            rollup,
            worldState,
            store: chain,
            validators,
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
              prover: privateKeyToAccount(proverKey),
              logger: root.child({ component: 'prover' }),
            });
      if (prover === undefined)
        logger.warn('no prover key (proverPrivateKey): this node does not prove epochs');
      const clock = { mode: config.clock };
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
        logger: root.child({ component: 'chain' }),
      });
      driverRef.driver = driver;
      // A crash between the archiver's and the world state's commits leaves them apart.
      await archiver.catchUpWorldState();
      // With the manual clock the chain moves only on request: start from a synced state. With
      // the realtime clock the first pass runs at once in the background, so a node with a long
      // history to sync from L1 answers requests (and shows its progress) meanwhile.
      if (config.clock === 'manual') await driver.pass();
      const node = new CairnNode(
        config,
        logger,
        dataDir,
        nodeStore,
        mempoolStore,
        worldState,
        validators,
        keystorePath,
        adminStore,
        archiver,
        l1,
        chain,
        constants,
        rollup,
        sequencer,
        driver,
        txs,
        clock,
        consensus,
        p2pStore,
      );
      nodeRef.node = node;
      if (config.clock === 'realtime') driver.start();
      // The protocol's own setup functions are named like any registered signature.
      node.signatures.register(DEFAULT_SETUP_ALLOW_LIST.map((e) => e.signature));
      for (const e of node.getAllowedPublicSetup()) {
        const target =
          e.address !== undefined ? `contract ${toHex32(e.address)}` : `class ${toHex32(e.classId!)}`;
        logger.info(`setup allow-list: ${node.signatures.describe(e.selector)} on ${target}`);
      }
      logger.info(
        {
          dataDir: dataDir.path,
          ephemeral: dataDir.ephemeral,
          signatures: node.signatures.size,
          worldStateBlock: worldState.latestBlockNumber,
        },
        'node started',
      );
      node.logDevAccounts();
      node.state = 'running';
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

  /** With snapshotUrl and an empty data directory: restores the newest snapshot there, if any. */
  private static async restoreSnapshotIfAsked(
    config: Config,
    dataDir: DataDir,
    logger: Logger,
  ): Promise<SnapshotEntry | undefined> {
    if (config.snapshotUrl === undefined) return undefined;
    if (config.l1RpcUrl === undefined || config.l1ContractAddresses === undefined) {
      throw new Error(
        'snapshotUrl needs l1RpcUrl and l1ContractAddresses: a snapshot belongs to a rollup deployed on an existing L1',
      );
    }
    if (!isFreshDataDir(dataDir.path)) {
      logger.info(`the data directory already holds a chain: not restoring from ${config.snapshotUrl}`);
      return undefined;
    }
    return restoreSnapshot({
      location: config.snapshotUrl,
      dataDir: dataDir.path,
      meta: {
        l1ChainId: config.l1ChainId,
        rollupVersion: config.rollupVersion,
        rollupAddress: config.l1ContractAddresses.rollupAddress,
      },
      s3: s3SettingsOf(config),
      logger: logger.child({ component: 'snapshot' }),
    });
  }

  /** The validator keystore: a dev keystore of new keys unless keystorePath names one. */
  private static openKeystore(config: Config, path: string, logger: Logger): Validator[] {
    if (config.keystorePath === undefined && ensureDevKeystore(path, config.devValidators).created) {
      logger.info(`created a dev keystore of ${config.devValidators} validators at ${path}`);
    }
    const validators = loadKeystore(path);
    logger.info(`validators: ${validators.map((v) => v.attester.address).join(', ')}`);
    return validators;
  }

  private static connectL1(
    config: Config,
    dataDir: DataDir,
    worldState: WorldState,
    validators: Validator[],
    logger: Logger,
  ): Promise<L1Connection> {
    const log = { info: (m: string) => logger.info(m), warn: (m: string) => logger.warn(m) };
    const local = new Set(validators.map((v) => v.attester.address.toLowerCase()));
    const remote = config.remoteValidators.filter((a) => !local.has(a)) as `0x${string}`[];
    const quorum = config.slashingQuorumSize;
    if (quorum !== undefined && (quorum * 2 <= config.slashingRoundSize || quorum > config.slashingRoundSize))
      throw new Error(
        `slashingQuorumSize ${quorum} must be more than half of slashingRoundSize ${config.slashingRoundSize} and at most all of it`,
      );
    if (config.l1RpcUrl !== undefined) {
      if (remote.length > 0)
        logger.warn(
          'remoteValidators only apply when the embedded L1 is deployed: the validator set is on L1',
        );
      return connectExternalL1(
        {
          rpcUrl: config.l1RpcUrl,
          chainId: config.l1ChainId,
          // The setting's schema checked each is 0x + 40 hex digits.
          addresses: config.l1ContractAddresses as ExternalL1Options['addresses'],
          rollupVersion: config.rollupVersion,
        },
        log,
      );
    }
    return connectEmbeddedL1(
      {
        dir: join(dataDir.path, 'l1'),
        chainId: config.l1ChainId,
        blockTime: config.clock === 'realtime' ? config.l1BlockTime : undefined,
        deploy: {
          slotDuration: config.slotDuration,
          epochDuration: config.epochDuration,
          proofSubmissionEpochs: config.proofSubmissionEpochs,
          targetCommitteeSize: config.targetCommitteeSize,
          manaTarget: config.manaTarget,
          rollupVersion: config.rollupVersion,
          genesisArchiveRoot: worldState.at(0).snapshot(TreeId.ARCHIVE).root,
          validators: [...validators.map((v) => v.attester.address), ...remote],
          slashingRoundSize: config.slashingRoundSize,
          slashingQuorumSize: config.slashingQuorumSize,
        },
        // Remote validators' nodes publish from their attester address unless they name a publisher.
        fund: [...new Set([...validators.map((v) => v.publisher.address), ...remote])],
      },
      log,
    );
  }

  /** Prints the prefunded dev accounts, as Anvil prints its accounts. */
  private logDevAccounts(): void {
    const accounts = devAccounts(this.config.devAccounts);
    if (accounts.length === 0) return;
    const lines = accounts.map((a) => `(${a.index}) ${toHex32(a.address)} (${a.balance} Fee Juice)`);
    this.logger.info(`dev accounts, prefunded at genesis:\n${lines.join('\n')}`);
  }

  get lifecycle(): NodeState {
    return this.state;
  }

  /** Ready to accept transactions: started and not shutting down. */
  isReady(): boolean {
    return this.state === 'running';
  }

  getNodeInfo(): NodeInfo {
    const enr = this.getEncodedEnr();
    return {
      nodeVersion: NODE_VERSION,
      l1ChainId: this.config.l1ChainId,
      rollupVersion: this.config.rollupVersion,
      ...(enr === undefined ? {} : { enr }),
      l1ContractAddresses: { ...this.l1.addresses },
      protocolContractAddresses: { ...PROTOCOL_CONTRACT_ADDRESSES },
      realProofs: false,
      txsLimits: { gas: { daGas: this.config.txMaxDaGas, l2Gas: this.config.txMaxL2Gas } },
    };
  }

  /** The node record for peer discovery; none while P2P is off. */
  getEncodedEnr(): string | undefined {
    return this.consensus.network?.enr;
  }

  getL1ContractAddresses(): L1ContractAddresses {
    return { ...this.l1.addresses };
  }

  getAllowedPublicSetup(): AllowedElement[] {
    return CairnNode.allowedSetupOf(this.liveConfig);
  }

  async registerFunctionSignatures(signatures: readonly string[]): Promise<void> {
    let added: number;
    try {
      added = this.signatures.register(signatures);
    } catch (err) {
      if (err instanceof RangeError || err instanceof TypeError) throw invalidParams(err.message);
      throw err;
    }
    this.logger.info({ given: signatures.length, added }, 'registered contract function signatures');
    if (this.logger.isLevelEnabled('debug')) {
      for (const signature of signatures)
        this.logger.debug(`known selector: ${this.signatures.describe(functionSelector(signature))}`);
    }
  }

  // ---- dev operations (svcDev_*, embedded L1 only) ----------------------------------------

  private testClient() {
    if (!this.l1.embedded)
      throw unavailable('dev methods need the embedded L1 (the node runs without --l1-rpc-url)');
    return createTestClient({ mode: 'anvil', transport: http(this.l1.rpcUrl) });
  }

  get clockMode(): 'realtime' | 'manual' {
    return this.clock.mode;
  }

  /**
   * Sends an L1-to-L2 message through the inbox from the embedded L1's dev account (mined at once
   * with the manual clock); resolves with the message as the inbox recorded it.
   */
  async sendL1ToL2Message(m: { recipient: Fr; content: Fr; secretHash: Fr }): Promise<MessageSentEvent> {
    this.testClient();
    const hash = await this.driver.between(() =>
      this.rollup.sendL2Message(privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY), {
        ...m,
        rollupVersion: this.config.rollupVersion,
      }),
    );
    return this.messageOf(hash);
  }

  /** Deposits L1 Fee Juice of the embedded L1's dev account through the portal for an L2 address. */
  async depositFeeJuice(d: { to: Fr; amount: bigint; secretHash: Fr }): Promise<MessageSentEvent> {
    this.testClient();
    const hash = await this.driver.between(() =>
      this.rollup.depositFeeJuice(privateKeyToAccount(DEFAULT_DEPLOYER_PRIVATE_KEY), d),
    );
    return this.messageOf(hash);
  }

  private async messageOf(l1TxHash: `0x${string}`): Promise<MessageSentEvent> {
    if (this.clock.mode === 'manual') await this.mine(1);
    const receipt = await this.rollup.waitFor(l1TxHash);
    if (receipt.status !== 'success') throw refused(`the L1 transaction ${l1TxHash} reverted`);
    return messageSentIn(receipt);
  }

  /** Mines `blocks` L1 blocks, running a chain pass after each (so proposals and proofs land). */
  async mine(blocks: number): Promise<{ l1Block: bigint; l2Block: number }> {
    const client = this.testClient();
    for (let i = 0; i < blocks; i++) {
      await client.mine({ blocks: 1 });
      try {
        await this.driver.pass();
      } catch (err) {
        // L1 did move; the chain pass is retried after the next block.
        this.logger.warn(`chain pass after L1 block failed: ${errorSummary(err)}`);
      }
    }
    return { l1Block: (await this.rollup.latestL1Block()).number, l2Block: this.chain.latestBlockNumber };
  }

  /** Moves L1 time to the start of `slot` (mining a block there), then mines one more block. */
  async advanceToSlot(slot: number): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    const client = this.testClient();
    const now = (await this.rollup.latestL1Block()).timestamp;
    if (slot <= slotAt(now, this.constants)) {
      throw invalidParams(
        `slot ${slot} is not in the future: the L1 is in slot ${slotAt(now, this.constants)}`,
      );
    }
    await client.setNextBlockTimestamp({ timestamp: slotStart(slot, this.constants) });
    const mined = await this.mine(2);
    return { ...mined, slot };
  }

  async advanceToNextEpoch(): Promise<{ l1Block: bigint; l2Block: number; slot: number }> {
    const now = (await this.rollup.latestL1Block()).timestamp;
    const epoch = epochOfSlot(slotAt(now, this.constants), this.constants);
    return this.advanceToSlot((epoch + 1) * this.constants.epochDuration);
  }

  /** Switches the clock: realtime mines every l1BlockTime seconds and runs passes on a timer. */
  async setClock(mode: 'realtime' | 'manual'): Promise<void> {
    const client = this.testClient();
    if (mode === this.clock.mode) return;
    if (mode === 'realtime') {
      await client.setIntervalMining({ interval: this.config.l1BlockTime });
      this.driver.start();
    } else {
      await this.driver.stop();
      await client.setIntervalMining({ interval: 0 });
    }
    this.clock.mode = mode;
    this.logger.info(`clock switched to ${mode}`);
  }

  getWorldStateSyncStatus() {
    const latest = this.worldState.latestBlockNumber;
    const block = this.chain.getBlock(latest);
    return {
      latestBlockNumber: latest,
      latestBlockHash: block ? toHex32(block.hash) : '',
      finalizedBlockNumber: this.chain.getTips().finalized.block.number,
      oldestHistoricBlockNumber: this.worldState.oldestBlockNumber,
      treesAreSynched: latest === this.chain.latestBlockNumber,
      syncState: this.admin.states().syncState,
    };
  }

  /** Health for GET /status. */
  status(): { ok: boolean } & Record<string, unknown> {
    const sync = this.archiver.syncProgress;
    return {
      ok: this.state === 'running',
      status: this.state,
      nodeVersion: NODE_VERSION,
      uptimeSeconds: Math.floor((Date.now() - this.startedAt) / 1000),
      clock: this.clock.mode,
      ...this.admin.states(),
      snapshotUpload: this.snapshots.current,
      l1Sync: { l1Block: Number(sync.l1Block), catchingUp: sync.catchingUp },
      ...(this.consensus.network === undefined
        ? {}
        : {
            p2p: {
              peerId: this.consensus.network.peerId,
              connectedPeers: this.consensus.network.getPeers(false).length,
            },
          }),
      chain: {
        latestBlock: this.chain.latestBlockNumber,
        latestCheckpoint: this.chain.latestCheckpointNumber,
      },
      worldState: {
        latestBlock: this.worldState.latestBlockNumber,
        oldestBlock: this.worldState.oldestBlockNumber,
      },
    };
  }

  /** Closes the stores and releases the data directory. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    await this.driver.stop();
    await this.consensus.stop();
    await this.p2pStore?.close();
    await this.l1.close();
    await this.worldState.close();
    await this.mempoolStore.close();
    await this.nodeStore.close();
    this.dataDir.release();
    this.state = 'stopped';
    this.logger.info('node stopped');
  }
}
