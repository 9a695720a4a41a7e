// One LMDB environment per concern (docs/architecture.md, "Stores"): `node`, `world-state`,
// `archiver`, `mempool`, `p2p`. An environment holds named sub-databases; `write` runs a batch of
// writes atomically and durably; `snapshot` runs reads against one consistent version.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, type Key, open, type RootDatabase, type Transaction } from 'lmdb';

export type { Database, Transaction };

export interface StoreEnvironment {
  readonly name: string;
  readonly path: string;
  /** A sub-database with string keys and structured (msgpack) values. */
  database<V>(name: string): Database<V, string>;
  /** A sub-database of raw bytes, keys ordered bytewise. */
  binaryDatabase(name: string): Database<Buffer, Buffer>;
  /**
   * Runs `fn` in one synchronous write transaction: all of its writes land, or none do
   * if it throws. (lmdb-js's asynchronous `transaction()` keeps the writes made before a
   * throw, so it is not used for atomic batches.) Returns once the data is on disk.
   */
  write<T>(fn: () => T): T;
  /** Runs `fn` with a read transaction that sees one committed version throughout. */
  snapshot<T>(fn: (txn: Transaction) => T): T;
  /**
   * Copies the environment, compacted, as one consistent version into `dir` (created) as
   * `data.mdb`, while readers and writers go on; returns the file's path.
   */
  backup(dir: string): Promise<string>;
  close(): Promise<void>;
}

export function openEnvironment(dataDir: string, name: string): StoreEnvironment {
  const path = join(dataDir, name);
  mkdirSync(path, { recursive: true });
  const root: RootDatabase = open({ path, maxDbs: 64 });
  const databases = new Map<string, Database<unknown, Key>>();
  let closed = false;

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
    write: (fn) => root.transactionSync(fn),
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
      closed = true;
      await root.close();
    },
  };
}
