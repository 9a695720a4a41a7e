// The pending txs' in-memory indexes: pool order, kept sorted on every change, their total size,
// and which pending txs emit each nullifier. Not persisted: the pool rebuilds them when it loads.
import type { Fr } from '../core/field.js';
import { lowerBound, type Ranked } from './pool-order.js';

/** What the indexes read of a pending entry. */
export interface IndexedEntry extends Ranked {
  /** Size in bytes, as given to the pool. */
  readonly size: number;
  readonly nullifiers: readonly Fr[];
}

export class PendingIndex<E extends IndexedEntry> {
  /** Pending entries in pool order. */
  readonly #ordered: E[] = [];
  /**
   * Nullifier → the hash of the pending tx that emits it, or a set of hashes while several do (a
   * set of one per nullifier took ~190 bytes of heap: ~370 a pending tx).
   */
  readonly #byNullifier = new Map<Fr, Fr | Set<Fr>>();
  #bytes = 0;

  get count(): number {
    return this.#ordered.length;
  }

  /** The sum of the sizes of the pending entries. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The pending entries in pool order (the index's own array: read, never change it). */
  get ordered(): readonly E[] {
    return this.#ordered;
  }

  /** Where the entries after `entry` start in pool order. */
  indexAfter(entry: E): number {
    return lowerBound(this.#ordered, entry) + 1;
  }

  /** The hashes of the pending entries that emit any of `nullifiers`, in no particular order. */
  spending(nullifiers: readonly Fr[]): Set<Fr> {
    const found = new Set<Fr>();
    for (const nullifier of nullifiers) {
      const hashes = this.#byNullifier.get(nullifier);
      if (typeof hashes === 'bigint') found.add(hashes);
      else if (hashes !== undefined) for (const hash of hashes) found.add(hash);
    }
    return found;
  }

  insert(entry: E): void {
    this.#ordered.splice(lowerBound(this.#ordered, entry), 0, entry);
    this.#bytes += entry.size;
    for (const nullifier of entry.nullifiers) {
      const hashes = this.#byNullifier.get(nullifier);
      if (hashes === undefined) this.#byNullifier.set(nullifier, entry.hash);
      else if (typeof hashes !== 'bigint') hashes.add(entry.hash);
      else if (hashes !== entry.hash) this.#byNullifier.set(nullifier, new Set([hashes, entry.hash]));
    }
  }

  /** Takes out an entry that `insert` put in. */
  delete(entry: E): void {
    const hash = entry.hash;
    const at = lowerBound(this.#ordered, entry);
    if (this.#ordered[at]?.hash === hash) this.#ordered.splice(at, 1);
    this.#bytes -= entry.size;
    for (const nullifier of entry.nullifiers) {
      const hashes = this.#byNullifier.get(nullifier);
      if (hashes === hash) this.#byNullifier.delete(nullifier);
      else if (typeof hashes === 'object') {
        hashes.delete(hash);
        if (hashes.size === 1) this.#byNullifier.set(nullifier, hashes.values().next().value!);
        else if (hashes.size === 0) this.#byNullifier.delete(nullifier);
      }
    }
  }

  clear(): void {
    this.#ordered.length = 0;
    this.#byNullifier.clear();
    this.#bytes = 0;
  }
}
