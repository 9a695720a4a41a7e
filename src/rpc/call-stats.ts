// Per-method counts, errors and latency buckets of the JSON-RPC calls a dispatcher answered, kept
// as plain numbers on the request path (a map lookup and two increments per call) and read out
// only when metrics are scraped: the cheap methods' rate must not pay for being measured.

/** Upper bounds of the latency buckets, in seconds (Prometheus' `le`). */
export const CALL_SECONDS_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
] as const;

export interface MethodStats {
  calls: number;
  errors: number;
  seconds: number;
  /** Calls per bucket (not cumulative); the last entry counts those above every bound. */
  buckets: number[];
}

export class CallStats {
  private readonly byMethod = new Map<string, MethodStats>();

  /** Records one call of `method` that took `ms` milliseconds; `failed` when it answered an error. */
  record(method: string, ms: number, failed: boolean): void {
    let s = this.byMethod.get(method);
    if (s === undefined) {
      s = { calls: 0, errors: 0, seconds: 0, buckets: new Array(CALL_SECONDS_BUCKETS.length + 1).fill(0) };
      this.byMethod.set(method, s);
    }
    const seconds = ms / 1000;
    s.calls++;
    if (failed) s.errors++;
    s.seconds += seconds;
    let i = 0;
    while (i < CALL_SECONDS_BUCKETS.length && seconds > CALL_SECONDS_BUCKETS[i]!) i++;
    s.buckets[i]!++;
  }

  /** Every method called so far with its figures. */
  entries(): IterableIterator<[string, MethodStats]> {
    return this.byMethod.entries();
  }
}
