// A hold on work that can wait. While any hold is taken, `whenReleased` waits; holds nest, and
// releasing the same hold twice counts once. The node holds the checking of txs (from peers and
// from clients) while it builds or checks a proposal, which has a deadline in its slot.
export class Hold {
  #taken = 0;
  #waiting: (() => void)[] = [];

  /** Takes a hold; call the returned function to release it. */
  take(): () => void {
    this.#taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#taken > 0) return;
      const waiting = this.#waiting;
      this.#waiting = [];
      for (const wake of waiting) wake();
    };
  }

  /** Whether a hold is taken. */
  get held(): boolean {
    return this.#taken > 0;
  }

  /** Resolves once no hold is taken (at once if none is). */
  async whenReleased(): Promise<void> {
    while (this.#taken > 0) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
}
