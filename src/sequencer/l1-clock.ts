// When, in wall-clock time, the latest L1 block was mined. The sequencer sees a block some time
// after it was mined — up to a whole L1 block time later, plus the pass's own delay — and a send
// deadline counted from the moment it was seen came out that much too late: under load about one
// proposal in 60 was sent after its slot's last L1 block and never landed. With the realtime clock
// an L1 block's timestamp and the wall clock differ by a constant (the embedded anvil stamps each
// block with the wall-clock second it mines it in, at a fixed phase within that second), so the
// smallest (seen − timestamp) among recent blocks estimates that constant, and with it the mining
// time of any block.

/** Observations kept: enough passes (two or more per L1 block) to have seen one block early. */
const WINDOW = 32;

export class L1BlockClock {
  private readonly recent: number[] = [];

  /** Records that the L1 block with timestamp `timestamp` (seconds) was the latest at `seenAt` (ms). */
  observe(timestamp: bigint, seenAt: number): void {
    this.recent.push(seenAt - Number(timestamp) * 1000);
    if (this.recent.length > WINDOW) this.recent.shift();
  }

  /**
   * The wall-clock millisecond at which the block with `timestamp`, seen at `seenAt`, was mined:
   * never after it was seen, and never more than a block time (`blockTimeMs`) before, whatever
   * the history says (a stalled or warped L1 clock moves the constant).
   */
  minedAt(timestamp: bigint, seenAt: number, blockTimeMs: number): number {
    this.observe(timestamp, seenAt);
    const estimate = Number(timestamp) * 1000 + Math.min(...this.recent);
    return Math.min(seenAt, Math.max(seenAt - blockTimeMs, estimate));
  }
}
