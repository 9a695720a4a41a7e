// The instant clock (`--clock instant`): a dev mode in which a tx sent to the node is in a block
// at once, as with anvil's automine. On each accepted tx the embedded L1 moves to the next slot —
// its proposer (this node) builds a block of what is pending and proposes it — and txs that come
// while a slot is being built are taken by the next one. L1 time runs ahead of the wall clock, a
// slot per block. The node may switch to and from it at run time (svcDev_setClock): the builder
// exists on every node with the embedded L1, and does nothing while the clock is another.
import type { Logger } from 'pino';
import { errorSummary } from './logger.js';
import type { Clock } from './status.js';

export class InstantBlocks {
  private running = false;
  /** Txs came while a slot was being built: build another. */
  private again = false;

  constructor(
    private readonly o: {
      /** Moves the embedded L1 to the next slot, with a pass (DevOperations, which builds this). */
      dev: { advanceToNextSlot(): Promise<unknown> };
      clock: Clock;
      /** Pending txs in the pool. */
      pending: () => number;
      logger: Logger;
    },
  ) {}

  /** A tx was accepted: build a block for it now, or right after the one being built. */
  txArrived(): void {
    if (this.o.clock.mode !== 'instant') return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    setImmediate(() => void this.buildWhileWanted());
  }

  private async buildWhileWanted(): Promise<void> {
    try {
      for (;;) {
        this.again = false;
        const pending = this.o.pending();
        await this.o.dev.advanceToNextSlot();
        const left = this.o.pending();
        // Another slot while new txs came, or while a full block left txs behind (and took some).
        if (this.o.clock.mode !== 'instant' || !(this.again || (left > 0 && left < pending))) break;
      }
    } catch (err) {
      this.o.logger.warn(`instant clock: building a block failed: ${errorSummary(err)}`);
    } finally {
      this.running = false;
    }
  }
}
