// One LMDB environment per concern (docs/architecture.md, "Stores"): `node`, `world-state`,
// `archiver`, `mempool`, `p2p`. An environment holds named sub-databases; `write` runs a batch of
// writes atomically (kept through a crash of the process at once, flushed to disk off the event
// loop); `snapshot` runs reads against one consistent version.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, type Key, open, type RootDatabase, type Transaction, TransactionFlags } from 'lmdb';

export type { Database, Transaction };

export interface StoreEnvironment {
  readonly name: string;
  readonly path: string;
  /** A sub-database with string keys and structured (msgpack) values. */
  database<V>(name: string): Database<V, string>;
  /** A sub-database of raw bytes, keys ordered bytewise. */
  binaryDatabase(name: string): Database<Buffer, Buffer>;
  /**
   * Runs `fn` in one synchronous write transaction: all of its writes land, or none do if it
   * throws. Returns once committed: readers see it, and a crash of the process cannot lose it (the
   * OS holds the pages). The flush to disk, which a crash of the machine needs, starts at once on a
   * libuv thread, not on the event loop: an fsync waits behind every other write to the disk (the
   * embedded L1's saves write 100+ MB), and held every request up when it ran here.
   * (lmdb-js's asynchronous `transaction()` keeps the writes made before a throw, so it is not used
   * for atomic batches.)
   */
  write<T>(fn: () => T): T;
  /**
   * As `write`, but on disk before it returns: for rare writes whose loss in a crash of the machine
   * would do harm (a validator's record of what it signed).
   */
  writeFlushed<T>(fn: () => T): T;
  /**
   * As `write`, atomically too, but the commit — writing the changed pages out, tens to hundreds
   * of milliseconds for a large batch while the disk is busy — happens on lmdb-js's write thread:
   * `fn` runs on this thread when that thread has opened the transaction, and the promise resolves
   * once it has committed. For large batches (a block's world-state parts), which held every
   * request up when committed here.
   */
  writeInBackground<T>(fn: () => T): Promise<T>;
  /** Runs `fn` with a read transaction that sees one committed version throughout. */
  snapshot<T>(fn: (txn: Transaction) => T): T;
  /**
   * Copies the environment, compacted, as one consistent version into `dir` (created) as
   * `data.mdb`, while readers and writers go on; returns the file's path.
   */
  backup(dir: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Abortable, committed before transactionSync returns, flushed to disk later (lmdb-js's own
 * synchronous single puts commit this way with its default overlappingSync, which keeps the
 * database whole whatever the flush's progress at a crash).
 */
const COMMIT_NOW_FLUSH_LATER =
  TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT | TransactionFlags.NO_SYNC_FLUSH;

/**
 * The size of each environment's memory map, set when it opens. Left to itself, lmdb-js starts
 * with a 128 KiB map and, whenever the file outgrows it, maps the file again twice as large while
 * keeping every earlier mapping until the environment closes (for readers still using them). The
 * pages read through the earlier mappings stay in the process's resident memory beside the same
 * pages read again through the new one: a 54 MB mempool file held 145 MB resident in 9 mappings
 * with 20,000 pending txs (bench/pending-memory.bench.ts). One map this large is never outgrown in
 * practice (lmdb-js would still grow it); it reserves address space only, the file grows with its
 * data (no MDB_WRITEMAP), and only pages read are resident.
 */
const MAP_SIZE = 2 ** 36;

export function openEnvironment(dataDir: string, name: string): StoreEnvironment {
  const path = join(dataDir, name);
  mkdirSync(path, { recursive: true });
  const root: RootDatabase = open({ path, maxDbs: 64, mapSize: MAP_SIZE });
  const databases = new Map<string, Database<unknown, Key>>();
  let closed = false;
  // Whether a write was committed since the last flush began; the flush under way.
  let unflushed = false;
  let flushing: Promise<void> | undefined;

  // lmdb-js's untyped `sync(callback)`: mdb_env_sync on a libuv thread.
  const syncable = root as unknown as { sync(callback: (err?: Error) => void): void };

  /** Flushes until every committed write is on disk; one mdb_env_sync covers all before it. */
  async function flushInBackground(): Promise<void> {
    try {
      while (unflushed && !closed) {
        unflushed = false;
        await new Promise<void>((resolve, reject) => syncable.sync((err) => (err ? reject(err) : resolve())));
      }
    } catch {
      // The next write tries again; LMDB keeps the file whole meanwhile.
      unflushed = true;
    } finally {
      flushing = undefined;
    }
  }

  function sub<D>(dbName: string, binary: boolean): D {
    const key = `${binary ? 'b' : 'm'}:${dbName}`;
    let db = databases.get(key);
    if (!db) {
      db = binary
        ? (root.openDB<Buffer, Buffer>({
            name: dbName,
            keyEncoding: 'binary',
            encoding: 'binary',
          }) as Database<unknown, Key>)
        : (root.openDB<unknown, string>({ name: dbName }) as Database<unknown, Key>);
      databases.set(key, db);
    }
    return db as D;
  }

  return {
    name,
    path,
    database: <V>(dbName: string) => sub<Database<V, string>>(dbName, false),
    binaryDatabase: (dbName: string) => sub<Database<Buffer, Buffer>>(dbName, true),
    write(fn) {
      const result = root.transactionSync(fn, COMMIT_NOW_FLUSH_LATER);
      unflushed = true;
      flushing ??= flushInBackground();
      return result;
    },
    writeFlushed: (fn) => root.transactionSync(fn),
    // A child transaction, so that a throw in `fn` undoes its writes (see `write`). With lmdb-js's
    // default overlappingSync the promise resolves on commit and the flush follows on its own.
    writeInBackground: <T>(fn: () => T) => root.childTransaction(fn) as Promise<T>,
    snapshot(fn) {
      const txn = root.useReadTransaction();
      try {
        return fn(txn);
      } finally {
        txn.done();
      }
    },
    async backup(dir) {
      mkdirSync(dir, { recursive: true });
      await root.backup(dir, true);
      return join(dir, 'data.mdb');
    },
    async close() {
      if (closed) return;
      await flushing;
      closed = true;
      await root.close();
    },
  };
}
