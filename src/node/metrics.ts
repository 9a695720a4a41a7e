// Prometheus metrics (prom-client), served at GET /metrics on the admin port: the chain's tips,
// L1 head against the L1 block synced, the mempool, JSON-RPC calls per method, what the sequencer
// and prover did each pass, world-state commit times, and the process's own metrics. Most values
// are read when scraped; events (passes, commits) are counted as they happen. docs/operations.md
// lists every metric; docs/grafana-dashboard.json plots them.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { CALL_SECONDS_BUCKETS, CallStats, type MethodStats } from '../rpc/call-stats.js';
import type { PassReport } from './chain-driver.js';

/** What the metrics read when scraped. */
export interface MetricsSources {
  /** Block and checkpoint numbers of each tip. */
  tips(): Record<
    'proposed' | 'checkpointed' | 'proven' | 'finalized',
    { block: number; checkpoint?: number }
  >;
  /** The newest L1 block (asks L1; may fail when L1 is down). */
  l1Head(): Promise<bigint>;
  /** The L1 block the node has synced to. */
  l1Synced(): bigint;
  mempool(): { txs: number; bytes: number };
  /** Whether L1 answers (the node's L1 health poll). */
  l1Up?(): boolean;
  /** With P2P on: connected peers, and the gossip validation queue's counters. */
  p2p?(): { peers: number; gossip: GossipCounts };
}

/** Gossip messages by what became of them (src/p2p/validation-queue.ts). */
export interface GossipCounts {
  consensus: number;
  bulkRun: number;
  rateLimited: number;
  full: number;
  waiting: number;
}

const PREFIX = 'cairn_';

export class NodeMetrics {
  readonly registry = new Registry();
  /** JSON-RPC calls per API, filled by the dispatchers: cairn's on each port, and the reference's published API at /aztec (its `port` label is `aztec`). */
  readonly rpc = { public: new CallStats(), admin: new CallStats(), aztec: new CallStats() };
  private readonly passes: Counter<'outcome'>;
  private readonly proofs: Counter;
  private readonly commitSeconds: Histogram;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    new Gauge({
      name: `${PREFIX}l2_block_number`,
      help: 'The number of the block at each tip (proposed, checkpointed, proven, finalized)',
      labelNames: ['tip'],
      registers,
      collect() {
        for (const [tip, t] of Object.entries(sources.tips())) this.set({ tip }, t.block);
      },
    });
    new Gauge({
      name: `${PREFIX}checkpoint_number`,
      help: 'The number of the checkpoint at each tip (checkpointed, proven, finalized)',
      labelNames: ['tip'],
      registers,
      collect() {
        for (const [tip, t] of Object.entries(sources.tips()))
          if (t.checkpoint !== undefined) this.set({ tip }, t.checkpoint);
      },
    });
    new Gauge({
      name: `${PREFIX}l1_block_number`,
      help: 'L1 blocks: the newest one (head) and the one the node has synced to (synced)',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.set({ kind: 'synced' }, Number(sources.l1Synced()));
        try {
          this.set({ kind: 'head' }, Number(await sources.l1Head()));
        } catch {
          // L1 does not answer: no head value this scrape (cairn_l1_up says so).
          this.remove({ kind: 'head' });
        }
      },
    });
    if (sources.l1Up !== undefined) {
      const up = sources.l1Up;
      new Gauge({
        name: `${PREFIX}l1_up`,
        help: 'Whether L1 answers: 0 after l1MaxFailedPolls failed polls in a row, 1 again once it answers',
        registers,
        collect() {
          this.set(up() ? 1 : 0);
        },
      });
    }
    if (sources.p2p !== undefined) {
      const p2p = sources.p2p;
      new Gauge({
        name: `${PREFIX}p2p_peers`,
        help: 'Connected P2P peers',
        registers,
        collect() {
          this.set(p2p().peers);
        },
      });
      new Counter({
        name: `${PREFIX}p2p_gossip_messages_total`,
        help: 'Gossip messages received, by what became of them: consensus (checked at once), validated (txs checked), rate_limited and queue_full (txs shed)',
        labelNames: ['outcome'],
        registers,
        collect() {
          const g = p2p().gossip;
          this.reset();
          this.inc({ outcome: 'consensus' }, g.consensus);
          this.inc({ outcome: 'validated' }, g.bulkRun);
          this.inc({ outcome: 'rate_limited' }, g.rateLimited);
          this.inc({ outcome: 'queue_full' }, g.full);
        },
      });
      new Gauge({
        name: `${PREFIX}p2p_gossip_waiting`,
        help: 'Tx gossip messages waiting for their checks',
        registers,
        collect() {
          this.set(p2p().gossip.waiting);
        },
      });
    }
    new Gauge({
      name: `${PREFIX}mempool_txs`,
      help: 'Pending txs in the mempool',
      registers,
      collect() {
        this.set(sources.mempool().txs);
      },
    });
    new Gauge({
      name: `${PREFIX}mempool_bytes`,
      help: 'Size of the pending txs in the mempool, in bytes',
      registers,
      collect() {
        this.set(sources.mempool().bytes);
      },
    });
    const each = this.eachCall.bind(this);
    // Counters of the dispatchers' figures, set to them when scraped.
    const rpcCounter = (name: string, help: string, value: (s: MethodStats) => number) =>
      new Counter({
        name: `${PREFIX}${name}`,
        help,
        labelNames: ['port', 'method'],
        registers,
        collect() {
          this.reset();
          each((port, method, s) => this.inc({ port, method }, value(s)));
        },
      });
    rpcCounter('rpc_requests_total', 'JSON-RPC calls answered, per port and method', (s) => s.calls);
    rpcCounter(
      'rpc_errors_total',
      'JSON-RPC calls answered with an error, per port and method',
      (s) => s.errors,
    );
    this.passes = new Counter({
      name: `${PREFIX}sequencer_outcomes_total`,
      help: 'What the sequencer did in each chain pass (published, no-txs, not-proposer, too-late, …)',
      labelNames: ['outcome'],
      registers,
    });
    this.proofs = new Counter({
      name: `${PREFIX}prover_proofs_total`,
      help: 'Epoch proofs the prover sent to L1',
      registers,
    });
    this.commitSeconds = new Histogram({
      name: `${PREFIX}world_state_commit_seconds`,
      help: 'Time to commit a block to the world state',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
  }

  /** Calls `fn` with every method's figures, per port. */
  private eachCall(fn: (port: string, method: string, s: MethodStats) => void): void {
    for (const [port, stats] of Object.entries(this.rpc))
      for (const [method, s] of stats.entries()) fn(port, method, s);
  }

  /** Counts what a chain pass did. */
  observePass(report: PassReport): void {
    if (report.sequencer !== undefined) this.passes.inc({ outcome: report.sequencer.kind });
    if (report.proofSent !== undefined) this.proofs.inc();
  }

  /** Records a world-state commit that took `ms` milliseconds. */
  observeCommit(ms: number): void {
    this.commitSeconds.observe(ms / 1000);
  }

  /** The text Prometheus scrapes: the registry's metrics, then the JSON-RPC latency histogram. */
  async text(): Promise<string> {
    return `${await this.registry.metrics()}${this.rpcLatencyText()}`;
  }

  /**
   * The JSON-RPC latency histogram in the exposition format, from the dispatchers' buckets (kept
   * outside prom-client so that the request path only increments numbers).
   */
  private rpcLatencyText(): string {
    const name = `${PREFIX}rpc_request_duration_seconds`;
    const lines = [
      `# HELP ${name} Time to answer a JSON-RPC call, per port and method`,
      `# TYPE ${name} histogram`,
    ];
    const labels = (port: string, method: string, le?: string) =>
      `{port="${port}",method="${method.replace(/["\\\n]/g, '_')}"${le === undefined ? '' : `,le="${le}"`}}`;
    this.eachCall((port, method, s) => {
      let cumulative = 0;
      CALL_SECONDS_BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        lines.push(`${name}_bucket${labels(port, method, String(le))} ${cumulative}`);
      });
      lines.push(`${name}_bucket${labels(port, method, '+Inf')} ${s.calls}`);
      lines.push(`${name}_sum${labels(port, method)} ${s.seconds}`);
      lines.push(`${name}_count${labels(port, method)} ${s.calls}`);
    });
    return `${lines.join('\n')}\n`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
