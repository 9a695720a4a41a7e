// What the node closes when it stops, in one order, written once: a node's stop() and a start-up
// that fails half way run the same steps, each only if its part was built. The order: nothing
// new comes in (the L1 health poll, the chain pass, consensus and its network), then the L1 (its
// final save), then the stores, then the data directory's lock.

export const TEARDOWN_ORDER = [
  'l1Health',
  'driver',
  'consensus',
  'p2pStore',
  'l1',
  'worldState',
  'mempoolStore',
  'chainStore',
  'nodeStore',
  // A failed start only: a restored snapshot that did not check out is removed.
  'uncheckedSnapshot',
  'dataDir',
] as const;

export type TeardownStep = (typeof TEARDOWN_ORDER)[number];

export class Teardown {
  private readonly steps = new Map<TeardownStep, () => Promise<void> | void>();

  /** Registers how to close a part once it is built. */
  add(step: TeardownStep, close: () => Promise<void> | void): void {
    this.steps.set(step, close);
  }

  /** Runs the registered steps in TEARDOWN_ORDER, each once; a step that fails does not stop the rest. */
  async run(): Promise<void> {
    let failure: unknown;
    for (const step of TEARDOWN_ORDER) {
      const close = this.steps.get(step);
      if (close === undefined) continue;
      this.steps.delete(step);
      try {
        await close();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
