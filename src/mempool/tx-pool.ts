// The mempool's pool (docs/transactions.md): pending txs, ordered for block building, and txs mined in a
// block that may still be pruned. It does not validate txs (the caller does before adding); it
// enforces the caps on count and bytes, resolves nullifier conflicts between pending txs by
// priority fee, and persists every change in one LMDB write so a crash never leaves half of one.
import { z } from 'zod';
import { type Fr, toHex32 } from '../core/field.js';
import { allNullifiers, type GasFees, type Tx, txPriorityFee } from '../core/tx.js';
import { encodeWireTx, toTx, tx as txCodec } from '../core/tx-codecs.js';
import type { Database, StoreEnvironment } from '../store/environment.js';

export interface TxPoolOptions {
  /** The most pending txs the pool holds. */
  maxTxCount: number;
  /** The most bytes (sum of the sizes given to `add`) the pending txs may take. */
  maxBytes: number;
}

/** A tx in the pool. Entries are immutable: a change of state makes a new entry. */
export interface PoolEntry {
  readonly hash: Fr;
  readonly tx: Tx;
  /** Size in bytes, as given to `add`. */
  readonly size: number;
  /** `txPriorityFee(tx.data)`: what orders pending txs. */
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

/** What the store holds per tx (key: `toHex32(hash)`). */
interface StoredEntry {
  /** The tx's wire JSON (msgpack cannot hold bigints above 64 bits). */
  tx: string;
  size: number;
  arrival: number;
  /** null while pending. */
  blockNumber: number | null;
}

const TXS_DB = 'txs';
const META_DB = 'tx-pool-meta';
const NEXT_ARRIVAL_KEY = 'nextArrival';

/** Pending order: priority fee descending, then arrival ascending, then hash ascending. */
function compareEntries(a: PoolEntry, b: PoolEntry): number {
  if (a.priorityFee !== b.priorityFee) return a.priorityFee > b.priorityFee ? -1 : 1;
  if (a.arrival !== b.arrival) return a.arrival - b.arrival;
  return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;
}

/** The first index in `sorted` whose entry does not come before `entry`. */
function lowerBound(sorted: readonly PoolEntry[], entry: PoolEntry): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(sorted[mid]!, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkCap(name: string, value: number): void {
  if (Number.isNaN(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
}

export class TxPool {
  readonly #env: StoreEnvironment;
  readonly #txs: Database<StoredEntry, string>;
  readonly #meta: Database<number, string>;
  #maxTxCount: number;
  readonly #maxBytes: number;

  /** Every entry, pending or mined, by hash. */
  readonly #entries = new Map<Fr, PoolEntry>();
  /** Pending entries in pool order (kept sorted on every change). */
  readonly #pending: PoolEntry[] = [];
  /**
   * Nullifier → the hash of the pending tx that emits it, or a set of hashes while several do (a
   * set of one per nullifier took ~190 bytes of heap: ~370 a pending tx).
   */
  readonly #byNullifier = new Map<Fr, Fr | Set<Fr>>();
  #pendingBytes = 0;
  #nextArrival = 0;

  private constructor(env: StoreEnvironment, options: TxPoolOptions) {
    checkCap('maxTxCount', options.maxTxCount);
    checkCap('maxBytes', options.maxBytes);
    this.#env = env;
    this.#txs = env.database<StoredEntry>(TXS_DB);
    this.#meta = env.database<number>(META_DB);
    this.#maxTxCount = options.maxTxCount;
    this.#maxBytes = options.maxBytes;
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
      return this.#env.write(fn);
    } catch (err) {
      this.#reload();
      throw err;
    }
  }

  /** Forgets the pool in memory and reads it again from the store (after a failed commit). */
  #reload(): void {
    this.#entries.clear();
    this.#pending.length = 0;
    this.#byNullifier.clear();
    this.#pendingBytes = 0;
    this.#load();
  }

  #load(): void {
    let next = this.#meta.get(NEXT_ARRIVAL_KEY) ?? 0;
    for (const { key, value } of this.#txs.getRange({})) {
      const hash = BigInt(key);
      const { tx } = toTx(z.decode(txCodec, JSON.parse(value.tx)));
      const entry = TxPool.#entry(hash, tx, value.size, value.arrival, value.blockNumber ?? undefined);
      this.#entries.set(hash, entry);
      if (entry.blockNumber === undefined) this.#indexPending(entry);
      next = Math.max(next, entry.arrival + 1);
    }
    this.#nextArrival = next;
  }

  static #entry(hash: Fr, tx: Tx, size: number, arrival: number, blockNumber: number | undefined): PoolEntry {
    return {
      hash,
      tx,
      size,
      priorityFee: txPriorityFee(tx.data),
      nullifiers: allNullifiers(tx.data),
      arrival,
      blockNumber,
    };
  }

  static #stored(entry: PoolEntry): StoredEntry {
    return {
      tx: JSON.stringify(encodeWireTx(entry.tx, entry.hash)),
      size: entry.size,
      arrival: entry.arrival,
      blockNumber: entry.blockNumber ?? null,
    };
  }

  get pendingCount(): number {
    return this.#pending.length;
  }

  /** The sum of the sizes of the pending txs. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  status(hash: Fr): TxStatus | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    return entry.blockNumber === undefined ? 'pending' : 'mined';
  }

  /** The tx, pending or mined. */
  get(hash: Fr): Tx | undefined {
    return this.#entries.get(hash)?.tx;
  }

  getEntry(hash: Fr): PoolEntry | undefined {
    return this.#entries.get(hash);
  }

  /** The pending txs in pool order: highest priority fee first, then earliest arrival. */
  pendingInOrder(): PoolEntry[] {
    return this.#pending.slice();
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
      start = lowerBound(this.#pending, entry) + 1;
    }
    return this.#pending.slice(start, start + Math.max(0, limit));
  }

  /** The pending txs in arrival order. */
  pendingEntries(): PoolEntry[] {
    return this.#pending.slice().sort((a, b) => a.arrival - b.arrival);
  }

  /** The mined txs, by block number then arrival. */
  minedEntries(): PoolEntry[] {
    const mined = [...this.#entries.values()].filter((e) => e.blockNumber !== undefined);
    return mined.sort((a, b) => a.blockNumber! - b.blockNumber! || a.arrival - b.arrival);
  }

  /** The hashes of the pending txs that emit any of `nullifiers`, in pool order. */
  conflictsOf(nullifiers: readonly Fr[]): Fr[] {
    const found = new Set<Fr>();
    for (const nullifier of nullifiers) {
      const hashes = this.#byNullifier.get(nullifier);
      if (typeof hashes === 'bigint') found.add(hashes);
      else if (hashes !== undefined) for (const hash of hashes) found.add(hash);
    }
    return [...found]
      .map((hash) => this.#entries.get(hash)!)
      .sort(compareEntries)
      .map((e) => e.hash);
  }

  /** The max priority fees per gas of the first pending tx; zero when none is pending. */
  maxPriorityFees(): GasFees {
    const first = this.#pending[0];
    if (!first) return { feePerDaGas: 0n, feePerL2Gas: 0n };
    const fees = first.tx.data.constants.gasSettings.maxPriorityFeesPerGas;
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

    const entry = TxPool.#entry(hash, tx, size, this.#nextArrival, undefined);
    const replaced = this.conflictsOf(entry.nullifiers);
    if (replaced.some((h) => this.#entries.get(h)!.priorityFee >= entry.priorityFee)) {
      return { kind: 'conflict', with: replaced };
    }

    // Walk up from the lowest pending tx (skipping the replaced ones) until within the caps.
    const replacedSet = new Set(replaced);
    let count = this.#pending.length - replaced.length + 1;
    let bytes = this.#pendingBytes + size;
    for (const h of replaced) bytes -= this.#entries.get(h)!.size;
    const evicted: Fr[] = [];
    let i = this.#pending.length - 1;
    while (count > this.#maxTxCount || bytes > this.#maxBytes) {
      while (i >= 0 && replacedSet.has(this.#pending[i]!.hash)) i--;
      const lowest = this.#pending[i];
      if (!lowest || compareEntries(entry, lowest) > 0) return { kind: 'full' };
      evicted.push(lowest.hash);
      count--;
      bytes -= lowest.size;
      i--;
    }

    const stored = TxPool.#stored(entry);
    const arrival = this.#nextArrival;
    this.#env.write(() => {
      for (const h of [...replaced, ...evicted]) this.#txs.removeSync(toHex32(h));
      this.#txs.putSync(toHex32(hash), stored);
      this.#meta.putSync(NEXT_ARRIVAL_KEY, arrival + 1);
    });

    this.#nextArrival = arrival + 1;
    for (const h of [...replaced, ...evicted]) this.#delete(h);
    this.#entries.set(hash, entry);
    this.#indexPending(entry);
    return { kind: 'added', replaced, evicted };
  }

  /**
   * Changes the most pending txs the pool holds; while over it, the lowest in pool order leave.
   * Returns the hashes evicted.
   */
  setMaxTxCount(maxTxCount: number): Fr[] {
    checkCap('maxTxCount', maxTxCount);
    this.#maxTxCount = maxTxCount;
    const evicted = this.#pending.slice(maxTxCount).map((e) => e.hash);
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
    this.#env.write(() => {
      for (const e of gone) this.#txs.removeSync(toHex32(e.hash));
    });
    for (const e of gone) this.#delete(e.hash);
  }

  /** Every entry, pending or mined (entries are immutable: a dev snapshot keeps these). */
  entries(): PoolEntry[] {
    return [...this.#entries.values()];
  }

  /** Replaces everything in the pool with `entries`, in one write (a dev revert). */
  replaceAll(entries: readonly PoolEntry[]): void {
    const stored = entries.map((e) => [toHex32(e.hash), TxPool.#stored(e)] as const);
    this.#env.write(() => {
      this.#txs.clearSync();
      for (const [key, value] of stored) this.#txs.putSync(key, value);
    });
    this.#entries.clear();
    this.#pending.length = 0;
    this.#byNullifier.clear();
    this.#pendingBytes = 0;
    for (const e of entries) {
      this.#entries.set(e.hash, e);
      if (e.blockNumber === undefined) this.#indexPending(e);
    }
  }

  #uniqueEntries(hashes: readonly Fr[]): PoolEntry[] {
    return [...new Set(hashes)].flatMap((h) => this.#entries.get(h) ?? []);
  }

  /** Stores then applies entries whose state changed. */
  #commit(updated: PoolEntry[]): void {
    if (updated.length === 0) return;
    const stored = updated.map((e) => [toHex32(e.hash), TxPool.#stored(e)] as const);
    this.#env.write(() => {
      for (const [key, value] of stored) this.#txs.putSync(key, value);
    });
    for (const e of updated) {
      this.#delete(e.hash);
      this.#entries.set(e.hash, e);
      if (e.blockNumber === undefined) this.#indexPending(e);
    }
  }

  #indexPending(entry: PoolEntry): void {
    this.#pending.splice(lowerBound(this.#pending, entry), 0, entry);
    this.#pendingBytes += entry.size;
    for (const nullifier of entry.nullifiers) {
      const hashes = this.#byNullifier.get(nullifier);
      if (hashes === undefined) this.#byNullifier.set(nullifier, entry.hash);
      else if (typeof hashes !== 'bigint') hashes.add(entry.hash);
      else if (hashes !== entry.hash) this.#byNullifier.set(nullifier, new Set([hashes, entry.hash]));
    }
  }

  /** Drops an entry from memory (and from the pending indexes if it is pending). */
  #delete(hash: Fr): void {
    const entry = this.#entries.get(hash);
    if (!entry) return;
    this.#entries.delete(hash);
    if (entry.blockNumber !== undefined) return;
    const at = lowerBound(this.#pending, entry);
    if (this.#pending[at]?.hash === hash) this.#pending.splice(at, 1);
    this.#pendingBytes -= entry.size;
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
}
