// How the pool persists: one record per tx, pending or mined, under its hash — the tx in the
// reference's binary form, and its state in the pool — and the next arrival number, so that a
// restart reloads the same txs in the same order. Each change is one LMDB write, so a crash never
// leaves half of one. A change of state rewrites the state only, not the ~100 KB of the tx.
import { type Fr, toBytes32, toHex32 } from '../core/field.js';
import { decodeTx, encodeTx } from '../core/kernel/tx-codec.js';
import type { Tx } from '../core/tx.js';
import type { Database, StoreEnvironment } from '../store/environment.js';

/** A tx as the pool stores it. */
export interface StoredTx {
  readonly hash: Fr;
  readonly tx: Tx;
  readonly size: number;
  readonly arrival: number;
  /** The block the tx was mined in; undefined while it is pending. */
  readonly blockNumber: number | undefined;
}

/** What the store holds per tx in its state database (key: `toHex32(hash)`). */
interface StoredRecord {
  size: number;
  arrival: number;
  /** null while pending. */
  blockNumber: number | null;
}

/**
 * The data directory holds txs this version cannot read: cairn's own tx format from before it took
 * the reference's model (their hashes differ, so they cannot be converted and keep their identity).
 */
export class PoolFormatError extends Error {
  override name = 'PoolFormatError';
}

const OLD_FORMAT_MESSAGE =
  "the data directory holds txs in cairn's earlier tx format (before the reference's kernel model), " +
  'which this version cannot read; start afresh with another --data-dir (or after removing this one), ' +
  'or keep running the earlier cairn on it until its pool has drained';

const TXS_DB = 'txs';
/** The txs themselves, by the same key: the binary form (`Tx.toBuffer()`, its hash first). */
const BODIES_DB = 'tx-bodies';
const bodyKey = (hash: Fr): Buffer => Buffer.from(toBytes32(hash));
const META_DB = 'tx-pool-meta';
const NEXT_ARRIVAL_KEY = 'nextArrival';

function record(entry: Omit<StoredTx, 'tx'>): StoredRecord {
  return {
    size: entry.size,
    arrival: entry.arrival,
    blockNumber: entry.blockNumber ?? null,
  };
}

export class PoolStore {
  readonly #env: StoreEnvironment;
  readonly #txs: Database<StoredRecord, string>;
  /** Raw bytes by the hash's 32 bytes: no msgpack for ~100 KB values. */
  readonly #bodies: Database<Buffer, Buffer>;
  readonly #meta: Database<number, string>;

  constructor(env: StoreEnvironment) {
    this.#env = env;
    this.#txs = env.database<StoredRecord>(TXS_DB);
    this.#bodies = env.binaryDatabase(BODIES_DB);
    this.#meta = env.database<number>(META_DB);
  }

  /** Runs `fn` in one write transaction; the writes below made in it join it. */
  write<T>(fn: () => T): T {
    return this.#env.write(fn);
  }

  /** Every stored tx, in key order. */
  *readAll(): Iterable<StoredTx> {
    for (const { key, value } of this.#txs.getRange({})) {
      // Records of the earlier format held the tx, as a JSON string.
      if (typeof (value as { tx?: unknown }).tx === 'string') throw new PoolFormatError(OLD_FORMAT_MESSAGE);
      const hash = BigInt(key);
      const tx = this.readTx(hash);
      if (tx === undefined) throw new Error(`the mempool store has no body for tx ${key}`);
      yield {
        hash,
        tx,
        size: value.size,
        arrival: value.arrival,
        blockNumber: value.blockNumber ?? undefined,
      };
    }
  }

  /** A stored tx, proof included. */
  readTx(hash: Fr): Tx | undefined {
    const bytes = this.#bodies.get(bodyKey(hash));
    if (bytes === undefined) return undefined;
    const { txHash: _stored, ...tx } = decodeTx(bytes);
    return tx;
  }

  /** The arrival number stored for the next tx (0 if none was ever added). */
  readNextArrival(): number {
    return this.#meta.get(NEXT_ARRIVAL_KEY) ?? 0;
  }

  /** Stores a new tx, deletes `removed` and moves the next arrival number past it, in one write. */
  add(entry: StoredTx, removed: readonly Fr[]): void {
    const stored = record(entry);
    const body = encodeTx({ txHash: entry.hash, ...entry.tx });
    this.#env.write(() => {
      for (const h of removed) this.#delete(h);
      this.#txs.putSync(toHex32(entry.hash), stored);
      this.#bodies.putSync(bodyKey(entry.hash), body);
      this.#meta.putSync(NEXT_ARRIVAL_KEY, entry.arrival + 1);
    });
  }

  /** Stores the new state of txs already stored (their bodies stay), in one write. */
  put(entries: readonly Omit<StoredTx, 'tx'>[]): void {
    const stored = entries.map((e) => [toHex32(e.hash), record(e)] as const);
    this.#env.write(() => {
      for (const [key, value] of stored) this.#txs.putSync(key, value);
    });
  }

  remove(hashes: readonly Fr[]): void {
    this.#env.write(() => {
      for (const h of hashes) this.#delete(h);
    });
  }

  #delete(hash: Fr): void {
    this.#txs.removeSync(toHex32(hash));
    this.#bodies.removeSync(bodyKey(hash));
  }

  /** Replaces every stored tx with `entries` (whole txs, proofs included), in one write. */
  replaceAll(entries: readonly StoredTx[]): void {
    const stored = entries.map((e) => [e.hash, record(e), encodeTx({ txHash: e.hash, ...e.tx })] as const);
    this.#env.write(() => {
      this.#txs.clearSync();
      this.#bodies.clearSync();
      for (const [hash, value, body] of stored) {
        this.#txs.putSync(toHex32(hash), value);
        this.#bodies.putSync(bodyKey(hash), body);
      }
    });
  }
}
