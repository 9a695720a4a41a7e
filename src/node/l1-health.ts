// Whether the node can reach its L1, for GET /status, svc_isReady and the log. A poll asks L1 for
// its latest block once a second; after `maxFailedPolls` failures in a row L1 counts as unreachable
// (readiness probes then see 503) until a poll succeeds again. The log says when L1 stops
// answering, when it counts as unreachable, and when it answers again.
import type { Logger } from 'pino';
import { l1ErrorReason } from '../l1/connect.js';

export interface L1HealthOptions {
  rpcUrl: string;
  /** The latest L1 block number; rejects when L1 does not answer. */
  latestBlock: () => Promise<bigint>;
  /** The L1 block the archiver has read up to. */
  syncedBlock: () => bigint;
  maxFailedPolls: number;
  /** Milliseconds between polls (default 1000). */
  intervalMs?: number;
  logger: Logger;
}

export interface L1HealthReport {
  rpcUrl: string;
  reachable: boolean;
  /** The latest L1 block seen; null before the first successful poll. */
  head: number | null;
  syncedBlock: number;
  /** When L1 last answered (ISO 8601); null before the first successful poll. */
  lastOkAt: string | null;
  /** Failed polls in a row (0 while L1 answers). */
  failedPolls: number;
}

export class L1Health {
  private head: bigint | undefined;
  private lastOkAt: number | undefined;
  private failedPolls = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(private readonly o: L1HealthOptions) {}

  get reachable(): boolean {
    return this.failedPolls < this.o.maxFailedPolls;
  }

  /** Polls at once, then every interval, until stop(). */
  start(): void {
    if (this.timer !== undefined) return;
    const tick = () => {
      this.polling = this.poll().finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, this.o.intervalMs ?? 1000);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** One poll: records the answer, or the failure. */
  async poll(): Promise<void> {
    const { logger, rpcUrl, maxFailedPolls } = this.o;
    try {
      this.head = await this.o.latestBlock();
      this.lastOkAt = Date.now();
      if (this.failedPolls >= maxFailedPolls)
        logger.info(
          `L1 at ${rpcUrl} answers again (block ${this.head}) after ${this.failedPolls} failed polls`,
        );
      else if (this.failedPolls > 0) logger.info(`L1 at ${rpcUrl} answers again (block ${this.head})`);
      this.failedPolls = 0;
    } catch (err) {
      this.failedPolls++;
      const reason = l1ErrorReason(err);
      if (this.failedPolls === 1) logger.warn(`L1 at ${rpcUrl} does not answer: ${reason}`);
      if (this.failedPolls === maxFailedPolls)
        logger.error(
          `L1 at ${rpcUrl} unreachable: ${maxFailedPolls} polls failed in a row (${reason}); ` +
            'GET /status answers 503 until it answers again',
        );
    }
  }

  report(): L1HealthReport {
    return {
      rpcUrl: this.o.rpcUrl,
      reachable: this.reachable,
      head: this.head === undefined ? null : Number(this.head),
      syncedBlock: Number(this.o.syncedBlock()),
      lastOkAt: this.lastOkAt === undefined ? null : new Date(this.lastOkAt).toISOString(),
      failedPolls: this.failedPolls,
    };
  }
}
