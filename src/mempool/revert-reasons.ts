// Why an included tx's app logic or teardown reverted, kept in the mempool store for its receipt:
// the tx effect only says that it reverted.
import { type Fr, toHex32 } from '../core/field.js';
import type { Database, StoreEnvironment } from '../store/environment.js';

export class RevertReasons {
  readonly #reasons: Database<string, string>;

  constructor(private readonly env: StoreEnvironment) {
    this.#reasons = env.database<string>('revert-reasons');
  }

  put(hash: Fr, reason: string): void {
    this.env.write(() => this.#reasons.putSync(toHex32(hash), reason));
  }

  get(hash: Fr): string | undefined {
    return this.#reasons.get(toHex32(hash));
  }
}
