// Where gossip waits for its handler. Consensus messages (proposals, attestations) run at once and
// are never dropped. Bulk messages (txs) are limited: each peer may hand us `ratePerPeer` a second
// (in bursts of up to `burstPerPeer`), at most `maxPending` wait, and `concurrency` run at a time,
// the event loop getting a turn every few milliseconds so pings, requests and the chain keep moving. What does
// not fit is dropped at once: the sender keeps its tx, and a flood costs the receiver a counter,
// not a backlog that stalls it (as 5,000 queued txs once did, until its connections were aborted).
// While the node builds or checks a proposal, bulk jobs are held (`hold`): under a flood, running
// them beside that work made it miss its slot's deadline.

import { Hold } from '../core/hold.js';

export type Priority = 'consensus' | 'bulk';

export interface ValidationJob {
  priority: Priority;
  /** The peer that handed us the message. */
  peer: string;
  /** Called once when the queue takes the job (not for a dropped one), before it waits; never throws. */
  prepare?(): void;
  /** Runs the handler and reports its verdict; never rejects. */
  run(): Promise<void>;
}

export interface QueueLimits {
  /** Bulk messages waiting, at most (default 2000). */
  maxPending: number;
  /** Bulk messages a second one peer may hand us (default 2000). */
  ratePerPeer: number;
  /** Bulk messages one peer may hand us at once (default 4000). */
  burstPerPeer: number;
  /** Bulk handlers running at once (default 32: their pool commits then share one LMDB commit). */
  concurrency: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = {
  maxPending: 2000,
  ratePerPeer: 2000,
  burstPerPeer: 4000,
  concurrency: 32,
};

export type Admission = 'run' | 'queued' | 'rate-limited' | 'full';

export interface QueueCounts {
  consensus: number;
  bulkRun: number;
  rateLimited: number;
  full: number;
  /** The most bulk messages that waited at once. */
  highWater: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const IDLE_BUCKET_MS = 60_000;
/** How long a worker runs handlers back to back before the event loop gets a turn. */
const SLICE_MS = 4;

export class ValidationQueue {
  readonly limits: QueueLimits;
  private readonly pending: ValidationJob[] = [];
  private head = 0;
  private running = 0;
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep: number;
  /** While held, no bulk job starts. */
  private readonly bulkHold = new Hold();
  /** Jobs taken while held, whose prepare waits until they run. */
  private readonly unprepared = new WeakSet<ValidationJob>();
  readonly counts: QueueCounts = { consensus: 0, bulkRun: 0, rateLimited: 0, full: 0, highWater: 0 };

  constructor(
    limits: Partial<QueueLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_QUEUE_LIMITS, ...limits };
    this.lastSweep = now();
  }

  /** Bulk messages waiting. */
  get size(): number {
    return this.pending.length - this.head;
  }

  /**
   * Takes a job: a consensus one runs at once; a bulk one runs, waits, or is refused (the caller
   * then tells gossipsub to ignore the message).
   */
  offer(job: ValidationJob): Admission {
    if (job.priority === 'consensus') {
      this.counts.consensus++;
      job.prepare?.();
      void job.run();
      return 'run';
    }
    if (!this.take(job.peer)) {
      this.counts.rateLimited++;
      return 'rate-limited';
    }
    if (this.size >= this.limits.maxPending) {
      this.counts.full++;
      return 'full';
    }
    // While held, even preparing (decoding, starting the hash) waits: the event loop is the
    // proposal's.
    if (this.bulkHold.held) this.unprepared.add(job);
    else job.prepare?.();
    this.pending.push(job);
    this.counts.highWater = Math.max(this.counts.highWater, this.size);
    if (this.running < this.limits.concurrency) {
      // Workers starting on an idle queue begin a slice of their own: the last one ended with the
      // last job, however long ago, and must not send the first job of a new run to the next turn.
      if (this.running === 0 && this.turn === undefined) this.sliceStart = performance.now();
      this.running++;
      void this.work();
      return this.size === 0 ? 'run' : 'queued';
    }
    return 'queued';
  }

  /**
   * Holds bulk jobs until the returned release is called: they keep arriving (up to `maxPending`,
   * shed beyond) but none starts, so that consensus work — a proposal being built or checked, with
   * a deadline in its slot — has the event loop. Holds nest; releasing twice is harmless.
   */
  hold(): () => void {
    return this.bulkHold.take();
  }

  /** Whether bulk jobs are held. */
  get held(): boolean {
    return this.bulkHold.held;
  }

  /** When the workers' shared slice of the current event-loop turn began. */
  private sliceStart = performance.now();
  /** The next turn of the event loop, which the workers wait for together once the slice is spent. */
  private turn: Promise<void> | undefined;

  /**
   * Resolves in the next turn of the event loop, which opens a new slice: one promise for all the
   * workers, so that the slice is the queue's, not each worker's. With a slice each, 32 workers
   * held every turn for ~130 ms under a burst, and a chain pass waiting on nine L1 answers in a row
   * took seconds.
   */
  private nextTurn(): Promise<void> {
    this.turn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turn = undefined;
        this.sliceStart = performance.now();
        resolve();
      }),
    );
    return this.turn;
  }

  /** One of `concurrency` workers: runs waiting jobs until none is left. */
  private async work(): Promise<void> {
    try {
      for (;;) {
        if (this.bulkHold.held) await this.bulkHold.whenReleased();
        // Let I/O in between: a long run of handlers must not starve pings, requests and the
        // chain. (A turn after every job would let I/O bring in messages faster than they are
        // handled.)
        if (performance.now() - this.sliceStart >= SLICE_MS) {
          await this.nextTurn();
          continue;
        }
        const job = this.next();
        if (job === undefined) return;
        if (this.unprepared.delete(job)) job.prepare?.();
        this.counts.bulkRun++;
        await job.run();
      }
    } finally {
      this.running--;
    }
  }

  private next(): ValidationJob | undefined {
    if (this.head >= this.pending.length) return undefined;
    const job = this.pending[this.head]!;
    this.pending[this.head++] = undefined as unknown as ValidationJob;
    // Drop the consumed front now and then, so the array does not grow without end.
    if (this.head > 1024 && this.head * 2 > this.pending.length) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
    return job;
  }

  /** Takes one token from the peer's bucket; false when it has none left. */
  private take(peer: string): boolean {
    const now = this.now();
    const { ratePerPeer, burstPerPeer } = this.limits;
    let bucket = this.buckets.get(peer);
    if (bucket === undefined) {
      bucket = { tokens: burstPerPeer, at: now };
      this.buckets.set(peer, bucket);
    } else {
      bucket.tokens = Math.min(burstPerPeer, bucket.tokens + ((now - bucket.at) / 1000) * ratePerPeer);
      bucket.at = now;
    }
    if (now - this.lastSweep > IDLE_BUCKET_MS) this.sweep(now);
    if (bucket.tokens < 1) return false;
    bucket.tokens--;
    return true;
  }

  /** Forgets the buckets of peers quiet for a minute (they would be full again anyway). */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [peer, bucket] of this.buckets)
      if (now - bucket.at > IDLE_BUCKET_MS) this.buckets.delete(peer);
  }
}
