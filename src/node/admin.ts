// Operator actions on a running node (the admin methods): live configuration, pausing sync and
// block production, rolling the chain back, and reloading the validator keystore.
import type { Logger } from 'pino';
import type { Archiver } from '../archiver/archiver.js';
import type { ChainReader } from '../archiver/chain-reader.js';
import type { Config } from '../config/settings.js';
import { invalidParams, refused, unavailable } from '../core/errors.js';
import type { TxService } from '../mempool/tx-service.js';
import type { Sequencer } from '../sequencer/sequencer.js';
import { KeystoreError, loadKeystore, type Validator, type ValidatorKeys } from '../validators/keystore.js';
import type { ReadableWorldState } from '../world-state/world-state.js';
import {
  type AdminConfig,
  AdminConfigError,
  type AdminConfigStore,
  type AdminConfigUpdate,
  type AdminSettings,
  type AdminStates,
  adminMemberJson,
  adminSettingsOf,
  allowedPublicSetup,
  resolveUpdate,
  withAdminSettings,
} from './admin-config.js';
import type { ChainDriver } from './chain-driver.js';

export interface NodeAdminOptions {
  /** The configuration at start (with the saved admin changes); the admin owns the live one. */
  config: Config;
  store: AdminConfigStore;
  driver: ChainDriver;
  archiver: Archiver;
  chain: ChainReader;
  worldState: ReadableWorldState;
  sequencer: Sequencer | undefined;
  txs: TxService;
  /** The validators in use; replaced by a reload. */
  keystore: ValidatorKeys;
  logger: Logger;
}

export class NodeAdmin {
  /** The L1 publisher accounts set up at start: a reload cannot add any. */
  private readonly startupPublishers: Set<string>;
  /** One rollback at a time. */
  private rollingBack = false;

  private liveConfig: Config;

  constructor(private readonly o: NodeAdminOptions) {
    this.liveConfig = o.config;
    this.startupPublishers = new Set(o.keystore.current.map((v) => v.publisher.address.toLowerCase()));
  }

  /** The configuration in force: the startup settings with the admin changes applied. */
  get config(): Config {
    return this.liveConfig;
  }

  states(): AdminStates {
    const { sequencer, driver } = this.o;
    return {
      syncState: driver.isSyncPaused ? 'paused' : 'running',
      sequencerState: sequencer === undefined ? 'none' : sequencer.isPaused ? 'paused' : 'running',
    };
  }

  getConfig(): AdminConfig {
    return { ...adminSettingsOf(this.liveConfig), realProofs: false, ...this.states() };
  }

  /** Validates, saves, then applies: the changed settings take effect at once. */
  setConfig(update: AdminConfigUpdate): void {
    const before = adminSettingsOf(this.liveConfig);
    let changes: Partial<AdminSettings>;
    try {
      changes = resolveUpdate(update, before, this.states());
    } catch (err) {
      if (err instanceof AdminConfigError) throw invalidParams(err.message);
      throw err;
    }
    if (Object.keys(changes).length === 0) return;
    this.o.store.save(changes);
    const config = withAdminSettings(this.liveConfig, changes);
    this.liveConfig = config;
    this.apply(changes, config);
    for (const [m, value] of Object.entries(changes)) {
      const was = before[m as keyof AdminSettings];
      this.o.logger.info(
        `admin config: ${m} ${JSON.stringify(adminMemberJson(m as keyof AdminSettings, was))} → ${JSON.stringify(adminMemberJson(m as keyof AdminSettings, value))}`,
      );
    }
  }

  /** Hands changed settings to the components that use them. */
  private apply(changes: Partial<AdminSettings>, config: Config): void {
    const { driver, archiver, sequencer, txs } = this.o;
    if (changes.archiverPollingIntervalMS !== undefined)
      driver.setPollingInterval(changes.archiverPollingIntervalMS);
    if (changes.archiverBatchSize !== undefined) archiver.setBatchBlocks(changes.archiverBatchSize);
    sequencer?.configure({
      minTxsPerBlock: config.minTxsPerBlock,
      maxTxsPerBlock: config.maxTxsPerBlock,
      coinbase: config.coinbase,
      feeRecipient: config.feeRecipient,
    });
    txs.configure({
      ...(changes.txPublicSetupAllowListExtend === undefined
        ? {}
        : { allowedSetup: allowedPublicSetup(config) }),
      ...(changes.maxPendingTxCount === undefined ? {} : { maxTxCount: changes.maxPendingTxCount }),
    });
  }

  // ---- sync and block production -----------------------------------------------------------

  async pauseSync(): Promise<void> {
    const was = this.o.driver.isSyncPaused;
    await this.o.driver.pauseSync();
    if (!was) this.o.logger.info('sync paused: the archiver and world state stop following L1');
  }

  resumeSync(): void {
    if (!this.o.driver.isSyncPaused) return;
    this.o.driver.resumeSync();
    this.o.logger.info('sync resumed');
  }

  pauseSequencer(): void {
    const sequencer = this.requireSequencer('pause');
    if (!sequencer.isPaused) this.o.logger.info('sequencer paused: no new blocks; pending txs stay');
    sequencer.pause();
  }

  resumeSequencer(): void {
    const sequencer = this.requireSequencer('resume');
    if (sequencer.isPaused) this.o.logger.info('sequencer resumed');
    sequencer.resume();
  }

  private requireSequencer(action: string): Sequencer {
    if (this.o.sequencer === undefined)
      throw unavailable(`Cannot ${action} sequencer: no sequencer is running on this node`);
    return this.o.sequencer;
  }

  // ---- rollback ------------------------------------------------------------------------------

  /**
   * Pauses sync and unwinds the archiver and world state to block `target`; behind the
   * finalized block only with `force`, which clears the world state and rebuilds it from the
   * stored blocks. Sync resumes afterwards if `resumeSync`, and reads the rest from L1 again.
   */
  async rollbackTo(target: number, force: boolean, resumeSync: boolean): Promise<void> {
    const { chain, driver, archiver, worldState, logger } = this.o;
    const tips = chain.getTips();
    if (target > tips.proposed.number) {
      throw refused(`Cannot roll back to block ${target}: the latest block is ${tips.proposed.number}`);
    }
    const finalized = tips.finalized.block.number;
    if (target < finalized && !force) {
      throw refused(
        `Cannot roll back to block ${target}: it is before the finalized block ${finalized} (force clears and rebuilds the world state)`,
      );
    }
    if (this.rollingBack) throw refused('Cannot start a rollback: a rollback is in progress');
    this.rollingBack = true;
    try {
      await driver.pauseSync();
      logger.info(`rolling back to block ${target}${force ? ' (forced)' : ''}`);
      await driver.between(() => {
        // Behind the finalized block, or behind the world state's history: only a rebuild gets there.
        const rebuild = force && (target < finalized || target < worldState.oldestBlockNumber);
        return archiver.rollbackTo(target, { rebuildWorldState: rebuild });
      });
    } finally {
      this.rollingBack = false;
      if (resumeSync) this.resumeSync();
    }
  }

  // ---- keystore ------------------------------------------------------------------------------

  /**
   * Re-reads the keystore file. Attester keys, coinbases and fee recipients change; L1
   * publishers do not: a validator naming a publisher not set up at start rejects the reload,
   * and nothing changes.
   */
  reloadKeystore(): void {
    const { keystore, sequencer, logger } = this.o;
    if (sequencer === undefined) throw unavailable('Cannot reload the keystore: no sequencer is running');
    let validators: Validator[];
    try {
      validators = loadKeystore(keystore.path);
    } catch (err) {
      if (err instanceof KeystoreError) throw refused(`keystore reload rejected: ${err.message}`);
      throw err;
    }
    const byAttester = new Map(keystore.current.map((v) => [v.attester.address.toLowerCase(), v]));
    for (const v of validators) {
      const publisher = v.publisher.address.toLowerCase();
      if (this.startupPublishers.has(publisher)) continue;
      const attester = v.attester.address.toLowerCase();
      const named = v.publisher !== v.attester;
      const known = byAttester.get(attester);
      if (named || (known !== undefined && known.publisher.address.toLowerCase() !== publisher)) {
        throw refused(
          `keystore reload rejected: validator ${attester} uses publisher ${publisher}, which was not configured at startup; publishers cannot be hot-reloaded (restart the node to add one)`,
        );
      }
      logger.warn(
        `validator ${attester} names no publisher: it sends its L1 transactions from its attester address, which was not a publisher at startup; make sure it holds ETH`,
      );
    }
    const before = new Set(byAttester.keys());
    const after = new Set(validators.map((v) => v.attester.address.toLowerCase()));
    keystore.replace(validators);
    sequencer.setValidators(validators);
    const added = [...after].filter((a) => !before.has(a));
    const removed = [...before].filter((a) => !after.has(a));
    logger.info(
      `keystore reloaded from ${keystore.path}: ${validators.length} validators` +
        (added.length ? `; added ${added.join(', ')}` : '') +
        (removed.length ? `; removed ${removed.join(', ')}` : ''),
    );
  }
}
