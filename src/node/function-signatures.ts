// Function signatures registered by developers (node_registerContractFunctionSignatures),
// kept in the node store and used to name function selectors in logs.
import { functionSelector } from '../core/hash/selector.js';
import type { StoreEnvironment } from '../store/environment.js';

export const selectorHex = (selector: number) => `0x${selector.toString(16).padStart(8, '0')}`;

export class FunctionSignatureBook {
  private readonly db;
  private readonly cache = new Map<number, string>();

  constructor(private readonly store: StoreEnvironment) {
    this.db = store.database<string>('function-signatures');
    for (const { key, value } of this.db.getRange()) this.cache.set(Number.parseInt(key, 16), value);
  }

  /** Stores the signatures; returns how many were new. */
  register(signatures: readonly string[]): number {
    const added = new Map<number, string>();
    for (const signature of signatures) {
      const selector = functionSelector(signature);
      if (this.cache.get(selector) !== signature) added.set(selector, signature);
    }
    if (added.size === 0) return 0;
    this.store.write(() => {
      for (const [selector, signature] of added) this.db.put(selectorHex(selector), signature);
    });
    for (const [selector, signature] of added) this.cache.set(selector, signature);
    return added.size;
  }

  signatureOf(selector: number): string | undefined {
    return this.cache.get(selector);
  }

  /** `transfer(Field) [0x1234abcd]` when known, else the bare selector. */
  describe(selector: number): string {
    const signature = this.cache.get(selector);
    return signature ? `${signature} [${selectorHex(selector)}]` : selectorHex(selector);
  }

  get size(): number {
    return this.cache.size;
  }
}
