// The mempool's pool (docs/transactions.md): pending txs, ordered for block building, and txs mined in a
// block that may still be pruned. It does not validate txs (the caller does before adding); it
// enforces the caps on count and bytes (pool-caps.ts), resolves nullifier conflicts between pending
// txs by priority fee, keeps the pending txs indexed (pending-index.ts, in pool-order.ts's order),
// and persists every change in one LMDB write (pool-store.ts) so a crash never leaves half of one.
import type { Fr } from '../core/field.js';
import type { GasFees, Tx } from '../core/tx.js';
import { allNullifiers, txPriorityFee, withoutProof } from '../core/tx-view.js';
import type { StoreEnvironment } from '../store/environment.js';
import { PendingIndex } from './pending-index.js';
import { checkCap, evictionsToFit, type PoolCaps } from './pool-caps.js';
import { compareRanked } from './pool-order.js';
import { PoolStore } from './pool-store.js';

export type TxPoolOptions = PoolCaps;

/** A tx in the pool. Entries are immutable: a change of state makes a new entry. */
export interface PoolEntry {
  readonly hash: Fr;
  /**
   * The tx without its proof (an all-zero one): the ~60 KB a proof takes would make a large pool
   * cost gigabytes, and only a query that asks for it reads it (from the store: `getWithProof`).
   */
  readonly tx: Tx;
  /** Size in bytes, as given to `add`. */
  readonly size: number;
  /** `txPriorityFee(tx)`: what orders pending txs. */
  readonly priorityFee: bigint;
  /** All of the tx's nullifiers (non-revertible, then revertible). */
  readonly nullifiers: readonly Fr[];
  /** Arrival sequence number: unique, increasing in the order txs were added. */
  readonly arrival: number;
  /** The block the tx was mined in; undefined while it is pending. */
  readonly blockNumber: number | undefined;
}

export type AddResult =
  /** Added; `replaced` are pending txs it displaced by nullifier, `evicted` those dropped for the caps. */
  | { kind: 'added'; replaced: Fr[]; evicted: Fr[] }
  /** The hash is already in the pool (pending or mined). */
  | { kind: 'known' }
  /** It shares nullifiers with these pending txs and does not pay strictly more than each of them. */
  | { kind: 'conflict'; with: Fr[] }
  /** The pool is full and the tx would be the lowest-priority pending tx. */
  | { kind: 'full' };

export type TxStatus = 'pending' | 'mined';

function poolEntry(
  hash: Fr,
  tx: Tx,
  size: number,
  arrival: number,
  blockNumber: number | undefined,
): PoolEntry {
  return {
    hash,
    tx: withoutProof(tx),
    size,
    priorityFee: txPriorityFee(tx),
    nullifiers: allNullifiers(tx),
    arrival,
    blockNumber,
  };
}

export class TxPool {
  readonly #store: PoolStore;
  readonly #caps: PoolCaps;

  /** Every entry, pending or mined, by hash. */
  readonly #entries = new Map<Fr, PoolEntry>();
  readonly #pending = new PendingIndex<PoolEntry>();
  #nextArrival = 0;

  private constructor(env: StoreEnvironment, options: TxPoolOptions) {
    checkCap('maxTxCount', options.maxTxCount);
    checkCap('maxBytes', options.maxBytes);
    this.#store = new PoolStore(env);
    this.#caps = { maxTxCount: options.maxTxCount, maxBytes: options.maxBytes };
  }

  /**
   * Opens the pool stored in `env`, reloading every pending and mined tx. The caps apply to
   * later adds; what was stored is kept even if it is over them.
   */
  static open(env: StoreEnvironment, options: TxPoolOptions): TxPool {
    const pool = new TxPool(env, options);
    pool.#load();
    return pool;
  }

  /**
   * Runs `fn` — any number of pool changes — as one durable commit (one fsync instead of one per
   * change). If the commit fails, nothing of it is stored and the pool reloads what is.
   */
  batch<T>(fn: () => T): T {
    try {
      return this.#store.write(fn);
    } catch (err) {
      this.#reload();
      throw err;
    }
  }

  /** Forgets the pool in memory and reads it again from the store (after a failed commit). */
  #reload(): void {
    this.#entries.clear();
    this.#pending.clear();
    this.#load();
  }

  #load(): void {
    let next = this.#store.readNextArrival();
    for (const s of this.#store.readAll()) {
      const entry = poolEntry(s.hash, s.tx, s.size, s.arrival, s.blockNumber);
      this.#entries.set(s.hash, entry);
      if (entry.blockNumber === undefined) this.#pending.insert(entry);
      next = Math.max(next, entry.arrival + 1);
    }
    this.#nextArrival = next;
  }

  get pendingCount(): number {
    return this.#pending.count;
  }

  /** The sum of the sizes of the pending txs. */
  get pendingBytes(): number {
    return this.#pending.bytes;
  }

  status(hash: Fr): TxStatus | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    return entry.blockNumber === undefined ? 'pending' : 'mined';
  }

  /** The tx, pending or mined, without its proof. */
  get(hash: Fr): Tx | undefined {
    return this.#entries.get(hash)?.tx;
  }

  /** The tx, pending or mined, with its proof (read from the store). */
  getWithProof(hash: Fr): Tx | undefined {
    return this.#entries.has(hash) ? this.#store.readTx(hash) : undefined;
  }

  getEntry(hash: Fr): PoolEntry | undefined {
    return this.#entries.get(hash);
  }

  /** The pending txs in pool order: highest priority fee first, then earliest arrival. */
  pendingInOrder(): PoolEntry[] {
    return this.#pending.ordered.slice();
  }

  /**
   * Up to `limit` pending txs in pool order, starting after the pending tx `after` (from the
   * first when it is not given). If `after` is given but is not pending, returns [].
   */
  getPending(limit: number, after?: Fr): PoolEntry[] {
    let start = 0;
    if (after !== undefined) {
      const entry = this.#entries.get(after);
      if (!entry || entry.blockNumber !== undefined) return [];
      start = this.#pending.indexAfter(entry);
    }
    return this.#pending.ordered.slice(start, start + Math.max(0, limit));
  }

  /** The pending txs in arrival order. */
  pendingEntries(): PoolEntry[] {
    return this.#pending.ordered.slice().sort((a, b) => a.arrival - b.arrival);
  }

  /** The mined txs, by block number then arrival. */
  minedEntries(): PoolEntry[] {
    const mined = [...this.#entries.values()].filter((e) => e.blockNumber !== undefined);
    return mined.sort((a, b) => a.blockNumber! - b.blockNumber! || a.arrival - b.arrival);
  }

  /** The hashes of the pending txs that emit any of `nullifiers`, in pool order. */
  conflictsOf(nullifiers: readonly Fr[]): Fr[] {
    return [...this.#pending.spending(nullifiers)]
      .map((hash) => this.#entries.get(hash)!)
      .sort(compareRanked)
      .map((e) => e.hash);
  }

  /** The max priority fees per gas of the first pending tx; zero when none is pending. */
  maxPriorityFees(): GasFees {
    const first = this.#pending.ordered[0];
    if (!first) return { feePerDaGas: 0n, feePerL2Gas: 0n };
    const fees = first.tx.data.constants.txContext.gasSettings.maxPriorityFeesPerGas;
    return { feePerDaGas: fees.feePerDaGas, feePerL2Gas: fees.feePerL2Gas };
  }

  /**
   * Adds a (validated) tx of `size` bytes as pending. It replaces the pending txs it shares a
   * nullifier with only if its priority fee is strictly above each of theirs; then, while the
   * pending txs are over a cap, the lowest in pool order is evicted — unless that would be the
   * new tx, in which case it is rejected as 'full'. On any result but 'added' nothing changes.
   */
  add(tx: Tx, hash: Fr, size: number): AddResult {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer');
    if (this.#entries.has(hash)) return { kind: 'known' };

    const entry = poolEntry(hash, tx, size, this.#nextArrival, undefined);
    const replaced = this.conflictsOf(entry.nullifiers);
    const replacedEntries = replaced.map((h) => this.#entries.get(h)!);
    if (replacedEntries.some((e) => e.priorityFee >= entry.priorityFee)) {
      return { kind: 'conflict', with: replaced };
    }
    const evicted = evictionsToFit(entry, this.#pending, replacedEntries, this.#caps);
    if (evicted === 'full') return { kind: 'full' };

    this.#store.add({ ...entry, tx }, [...replaced, ...evicted]);
    this.#nextArrival = entry.arrival + 1;
    for (const h of [...replaced, ...evicted]) this.#delete(h);
    this.#entries.set(hash, entry);
    this.#pending.insert(entry);
    return { kind: 'added', replaced, evicted };
  }

  /**
   * Changes the most pending txs the pool holds; while over it, the lowest in pool order leave.
   * Returns the hashes evicted.
   */
  setMaxTxCount(maxTxCount: number): Fr[] {
    checkCap('maxTxCount', maxTxCount);
    this.#caps.maxTxCount = maxTxCount;
    const evicted = this.#pending.ordered.slice(maxTxCount).map((e) => e.hash);
    this.remove(evicted);
    return evicted;
  }

  /**
   * Marks pending txs as mined in `blockNumber` (a mined one gets the new block number).
   * Hashes not in the pool are ignored.
   */
  markMined(hashes: readonly Fr[], blockNumber: number): void {
    const updated = this.#uniqueEntries(hashes).map((e) => ({ ...e, blockNumber }));
    this.#commit(updated);
  }

  /**
   * Returns mined txs to pending (their block was pruned), keeping their arrival order. The caps
   * are not enforced here. Hashes not mined are ignored.
   */
  markPending(hashes: readonly Fr[]): void {
    const updated = this.#uniqueEntries(hashes)
      .filter((e) => e.blockNumber !== undefined)
      .map((e) => ({ ...e, blockNumber: undefined }));
    this.#commit(updated);
  }

  /** Deletes txs, pending or mined. Hashes not in the pool are ignored. */
  remove(hashes: readonly Fr[]): void {
    const gone = this.#uniqueEntries(hashes);
    if (gone.length === 0) return;
    this.#store.remove(gone.map((e) => e.hash));
    for (const e of gone) this.#delete(e.hash);
  }

  /** Every entry, pending or mined, without proofs. */
  entries(): PoolEntry[] {
    return [...this.#entries.values()];
  }

  /** Every entry with its whole tx, proof included (what a dev snapshot keeps). */
  entriesWithProofs(): PoolEntry[] {
    return this.entries().map((e) => ({ ...e, tx: this.#store.readTx(e.hash) ?? e.tx }));
  }

  /** Replaces everything in the pool with `entries` (whole txs), in one write (a dev revert). */
  replaceAll(entries: readonly PoolEntry[]): void {
    this.#store.replaceAll(entries);
    this.#entries.clear();
    this.#pending.clear();
    for (const full of entries) {
      const e = { ...full, tx: withoutProof(full.tx) };
      this.#entries.set(e.hash, e);
      if (e.blockNumber === undefined) this.#pending.insert(e);
    }
  }

  #uniqueEntries(hashes: readonly Fr[]): PoolEntry[] {
    return [...new Set(hashes)].flatMap((h) => this.#entries.get(h) ?? []);
  }

  /** Stores then applies entries whose state changed. */
  #commit(updated: PoolEntry[]): void {
    if (updated.length === 0) return;
    this.#store.put(updated);
    for (const e of updated) {
      this.#delete(e.hash);
      this.#entries.set(e.hash, e);
      if (e.blockNumber === undefined) this.#pending.insert(e);
    }
  }

  /** Drops an entry from memory (and from the pending indexes if it is pending). */
  #delete(hash: Fr): void {
    const entry = this.#entries.get(hash);
    if (!entry) return;
    this.#entries.delete(hash);
    if (entry.blockNumber === undefined) this.#pending.delete(entry);
  }
}
