// The composition root: builds the node's components from the configuration, phase by phase
// (start-phases.ts), and owns their lifecycle: what it opened is closed in one order (teardown.ts).
// The API (src/api) sees the node's parts below only through its topics' ports (buildRegistry);
// the dev cheat codes are in dev.ts, node info and health in status.ts.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Config } from '../config/settings.js';
import type { Fr } from '../core/field.js';
import type { L1RollupConstants } from '../core/time.js';
import type { L1Connection, ResumedL1Time } from '../l1/connect.js';
import type { TxService } from '../mempool/tx-service.js';
import type { NodeAdmin } from './admin.js';
import { logHashingBackend } from './bootstrap.js';
import { type DataDir, openDataDir } from './data-dir.js';
import type { DevOperations } from './dev.js';
import type { NodeMetrics } from './metrics.js';
import type { NodeQueries } from './node-api.js';
import type { SnapshotUploader } from './snapshots.js';
import {
  buildApiParts,
  buildNodeCore,
  removeUncheckedSnapshot,
  type StartContext,
  startTimers,
} from './start-phases.js';
import type { Lifecycle, NodeState, NodeStatus } from './status.js';
import { Teardown } from './teardown.js';

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
  l1: L1Connection;
  lifecycle: Lifecycle;
  /** Closes what the start opened, in one order (teardown.ts). */
  teardown: Teardown;
  queries: NodeQueries;
  txs: TxService;
  info: NodeStatus;
  constants: L1RollupConstants;
  admin: NodeAdmin;
  snapshots: SnapshotUploader;
  dev: DevOperations | undefined;
  metrics: NodeMetrics;
}

/** The longest an instant-clock send at /aztec waits for its tx's block, and how often it looks. */
const INCLUSION_WAIT_MS = 10_000;
const INCLUSION_POLL_MS = 10;

export class CairnNode {
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
   * `signal` stops start-up between its phases (and while it waits for L1): what was opened is
   * closed and the promise rejects with the signal's reason. The phases are in start-phases.ts.
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
    const teardown = new Teardown();
    teardown.add('dataDir', () => dataDir.release());
    const ctx: StartContext = { config: startupConfig, dataDir, root, logger, signal, teardown };
    try {
      const { stores, l1, chain, consensus, production, pass } = await buildNodeCore(ctx, onFatal);
      const api = buildApiParts(ctx, stores, l1, chain, consensus, production, pass);
      const node = new CairnNode({
        logger,
        dataDir,
        l1: l1.l1,
        lifecycle: api.lifecycle,
        teardown,
        queries: api.queries,
        txs: chain.txs,
        info: api.info,
        constants: l1.constants,
        admin: api.admin,
        snapshots: api.snapshots,
        dev: api.dev,
        metrics: pass.metrics,
      });
      startTimers(ctx, stores, pass, api);
      api.lifecycle.state = 'running';
      return node;
    } catch (err) {
      teardown.add('uncheckedSnapshot', () => removeUncheckedSnapshot(ctx));
      await teardown
        .run()
        .catch((closeErr: unknown) =>
          logger.warn(`closing after a failed start: ${(closeErr as Error).message}`),
        );
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

  /**
   * With the instant clock, resolves once the tx is in a checkpointed block or has left the pool
   * (waiting at most INCLUSION_WAIT_MS): `/aztec`'s sendTx answers then, so that a wallet finds
   * its receipt on its first poll instead of a second later, as anvil's automine answers a send
   * once mined. With another clock, at once.
   */
  async untilIncluded(hash: Fr): Promise<void> {
    if (this.dev?.clockMode !== 'instant') return;
    const until = Date.now() + INCLUSION_WAIT_MS;
    while (Date.now() < until) {
      const { status } = this.txs.getTxReceipt(hash);
      if (status !== 'pending' && status !== 'proposed') return;
      await sleep(INCLUSION_POLL_MS);
    }
  }

  /** Health for GET /status. */
  status(): { ok: boolean } & Record<string, unknown> {
    return this.info.status();
  }

  /** Closes the stores and releases the data directory (teardown.ts says in which order). Safe to call twice. */
  async stop(): Promise<void> {
    const { lifecycle, teardown, logger } = this.parts;
    if (lifecycle.state === 'stopping' || lifecycle.state === 'stopped') return;
    lifecycle.state = 'stopping';
    try {
      await teardown.run();
    } finally {
      lifecycle.state = 'stopped';
    }
    logger.info('node stopped');
  }
}
