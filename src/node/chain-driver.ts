// Runs the chain in passes. One pass: the archiver syncs from L1, the attester checks peers'
// checkpoint proposals, the mempool settles (`afterSync`), the sequencer acts for the slot
// of the latest L1 block (and the mempool settles again after a proposal), the prover proves an
// ended epoch, and the monitor records the slots that ended. With sync paused
// (svcAdmin_pauseSync) a pass does nothing. Passes never overlap: they queue, and `between` runs
// other work (a dev method's L1 transaction, pausing sync) in the gap between two.
//
// With the realtime clock passes run on a timer, `pollingIntervalMs` after the previous one ended.
// With the manual and the instant clock they run only when asked: the dev methods run one after
// each L1 block they mine (the instant clock mines through them, instant-blocks.ts), which makes
// such a chain deterministic. `passSoon` runs one soon for parts built before the driver, through
// `PassRequests` (a peer's checkpoint proposal, a late answer that L1 keeps a block for good),
// folding the requests that come while it waits into it.
//
// The first pass says once how long L1 ran on while this node did not follow it (`away`: slots
// a..b), instead of a warning per missed slot, offense and revert. A failed pass is logged in one
// line (`logFailedPass`): an L1 revert that a node meets in the normal course of things (its slot
// passed, a proof window closed) at info, anything else as a warning, the whole error at debug. On
// the timer the same failure is not logged again pass after pass, and the log says when passes
// work again.
import type { Logger } from 'pino';
import type { Archiver } from '../archiver/archiver.js';
import { l1RevertOf } from '../l1/revert-reasons.js';
import type { L1Head } from '../l1/roles.js';
import type { DevProver } from '../prover/dev-prover.js';
import type { Sequencer, SequencerOutcome } from '../sequencer/sequencer.js';
import { errorSummary, formatDuration } from './logger.js';

export interface PassReport {
  /** True when sync is paused: the pass did nothing. */
  syncPaused?: boolean;
  l1Block: bigint;
  checkpointsSynced: number;
  sequencer?: SequencerOutcome;
  proofSent?: number;
}

/**
 * Requests for a pass soon from parts built before the driver (the validator client, when a
 * proposal arrives); the driver listens once it exists.
 */
export class PassRequests {
  private listener: (() => void) | undefined;

  request(): void {
    this.listener?.();
  }

  listen(listener: () => void): void {
    this.listener = listener;
  }
}

/** A pass at least this long is logged with the time of each step. */
const SLOW_PASS_MS = 1000;

export class ChainDriver {
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastError: string | undefined;
  private syncPaused = false;
  private pollingIntervalMs: number;
  private loop: (() => Promise<void>) | undefined;
  /** A pass asked for with passSoon has not started yet. */
  private passWanted = false;

  constructor(
    private readonly o: {
      rollup: L1Head;
      archiver: Archiver;
      sequencer?: Sequencer | undefined;
      prover?: DevProver | undefined;
      /** Seconds to the next L1 block, to tell whether a proposal still lands in the slot. */
      nextBlockIn: () => number;
      pollingIntervalMs: number;
      /** Runs after the archiver's sync and again after the sequencer (the mempool settles with the chain). */
      afterSync?: () => Promise<void>;
      /** Attests peers' checkpoint proposals once the chain has caught up with them. */
      attester?: { attestPending(now: bigint): Promise<void> } | undefined;
      /** Records what happened in the slots that ended (validator stats, offenses). */
      monitor?: { afterPass(now: bigint): Promise<void> } | undefined;
      /** Requests for a pass soon, e.g. when a checkpoint proposal arrives. */
      requests?: PassRequests | undefined;
      /** Told what each pass did (the metrics count it). */
      onPass?: ((report: PassReport) => void) | undefined;
      /**
       * The timestamp of the last L1 block the node had read, and the slot of a timestamp: the
       * first pass says once how long L1 ran on without this node (an external L1, or an anvil
       * left running), instead of a warning per missed slot, offense and revert.
       */
      away?: { followedUntil: () => bigint | undefined; slotAt: (timestamp: bigint) => number } | undefined;
      logger: Logger;
    },
  ) {
    this.pollingIntervalMs = o.pollingIntervalMs;
    o.requests?.listen(() => this.passSoon());
  }

  /** Runs a pass soon; requests made while one waits to start are folded into it. */
  passSoon(): void {
    if (this.passWanted) return;
    this.passWanted = true;
    setImmediate(() => {
      this.passWanted = false;
      this.pass().catch((err) => this.logFailedPass(err));
    });
  }

  /** Whether passes are paused (svcAdmin_pauseSync). */
  get isSyncPaused(): boolean {
    return this.syncPaused;
  }

  /**
   * Stops following L1: later passes do nothing (no archiver sync, so the sequencer does not
   * build on a state that may be behind, and no proofs). Resolves once a running pass has ended.
   */
  async pauseSync(): Promise<void> {
    this.syncPaused = true;
    await this.between(async () => undefined);
  }

  resumeSync(): void {
    this.syncPaused = false;
  }

  /** Milliseconds between passes with the realtime clock; takes effect from the next wait. */
  setPollingInterval(ms: number): void {
    this.pollingIntervalMs = ms;
    // A wait already under way is cut to the new interval (a pass under way schedules its own).
    if (this.timer !== undefined && this.loop !== undefined) {
      clearTimeout(this.timer);
      this.timer = setTimeout(this.loop, ms);
    }
  }

  /** Runs one pass after any pass already running. */
  pass(): Promise<PassReport> {
    const next = this.queue.then(async () => {
      const report = await this.runPass();
      this.o.onPass?.(report);
      return report;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs `fn` between passes (e.g. an L1 transaction from a key the prover also uses). */
  between<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runPass(): Promise<PassReport> {
    const { rollup, archiver, sequencer, prover } = this.o;
    if (this.syncPaused)
      return { syncPaused: true, l1Block: (await rollup.latestL1Block()).number, checkpointsSynced: 0 };
    if (!this.awayReported) {
      this.awayReported = true;
      await this.reportAway();
    }
    // Each step's time, for the log when the pass is slow: a late pass is a late proposal.
    const steps: [string, number][] = [];
    let stepStart = performance.now();
    const step = (name: string) => {
      const now = performance.now();
      steps.push([name, Math.round(now - stepStart)]);
      stepStart = now;
    };
    const synced = await archiver.sync();
    step('sync');
    const report: PassReport = { l1Block: synced.l1Block, checkpointsSynced: synced.checkpoints };
    const latest = await rollup.latestL1Block();
    // Attesting goes before settling the mempool: a proposer waits for it until its deadline, and
    // checking a proposal needs only the synced chain, while settling a large pool took up to 2 s
    // of a loaded node's pass. The sequencer, which takes txs from the pool, comes after both.
    await this.o.attester?.attestPending(latest.timestamp);
    step('attest');
    await this.o.afterSync?.();
    step('settle');
    if (sequencer) {
      report.sequencer = await sequencer.work(
        latest.timestamp,
        latest.timestamp + BigInt(this.o.nextBlockIn()),
      );
      if (report.sequencer.kind === 'published') await this.o.afterSync?.();
      step(`sequencer (${report.sequencer.kind})`);
    }
    if (prover) {
      const proof = await prover.work(latest.timestamp);
      if (proof) report.proofSent = proof.epoch;
      step('prover');
    }
    await this.o.monitor?.afterPass(latest.timestamp);
    step('monitor');
    const total = steps.reduce((sum, [, ms]) => sum + ms, 0);
    if (total >= SLOW_PASS_MS)
      this.o.logger.info(
        `chain pass took ${total} ms: ${steps.map(([name, ms]) => `${name} ${ms}`).join(', ')}`,
      );
    return report;
  }

  /**
   * A failed pass in one line that says why; the whole error (viem's spans the call's arguments
   * and calldata) at debug level. An L1 revert a node meets in the normal course of things (its
   * slot passed, a proof window closed) is not a warning: the next pass acts on what L1 has now.
   */
  private logFailedPass(err: unknown): void {
    const { logger } = this.o;
    logger.debug({ err }, 'chain pass failed');
    if (l1RevertOf(err)?.expected) logger.info(`chain pass: ${errorSummary(err)}`);
    else logger.warn(`chain pass failed: ${errorSummary(err)}`);
  }

  private awayReported = false;

  /** Says once, at the first pass, for how long L1 ran on while the node did not follow it. */
  private async reportAway(): Promise<void> {
    const { away, rollup, logger } = this.o;
    const followed = away?.followedUntil();
    if (away === undefined || followed === undefined) return;
    const latest = await rollup.latestL1Block();
    const from = away.slotAt(followed) + 1;
    const to = away.slotAt(latest.timestamp);
    if (to - from < 1) return;
    logger.warn(
      `L1 ran on for ${formatDuration(Number(latest.timestamp - followed))} (slots ${from}..${to}) while this node did not follow it: ` +
        "this node's validators missed those slots, and checkpoints left unproven past their proof window are pruned; syncing what happened meanwhile",
    );
  }

  /** Starts passes on a timer (realtime clock). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async () => {
      this.timer = undefined;
      if (!this.running) return;
      try {
        await this.pass();
        if (this.lastError) this.o.logger.info('chain passes work again');
        this.lastError = undefined;
      } catch (err) {
        const message = (err as Error).message;
        if (message !== this.lastError) this.logFailedPass(err);
        this.lastError = message;
      }
      if (this.running) this.timer = setTimeout(loop, this.pollingIntervalMs);
    };
    this.loop = loop;
    void loop();
  }

  /** Stops the timer and waits for a running pass to end. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.queue;
  }
}
