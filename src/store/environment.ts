// One LMDB environment per concern (DESIGN §4): `node`, later `archiver`,
// `world-state`, `mempool`, `p2p`. An environment holds named sub-databases; writes
// in one `transaction` commit atomically.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, open, type RootDatabase } from 'lmdb';

export interface StoreEnvironment {
  readonly name: string;
  readonly path: string;
  /** A named sub-database with string keys and structured (msgpack) values. */
  database<V>(name: string): Database<V, string>;
  /** Runs `fn` in one write transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): Promise<T>;
  close(): Promise<void>;
}

export function openEnvironment(dataDir: string, name: string): StoreEnvironment {
  const path = join(dataDir, name);
  mkdirSync(path, { recursive: true });
  const root: RootDatabase = open({ path, maxDbs: 64 });
  const databases = new Map<string, Database<unknown, string>>();
  let closed = false;
  return {
    name,
    path,
    database<V>(dbName: string) {
      let db = databases.get(dbName);
      if (!db) {
        db = root.openDB<unknown, string>({ name: dbName });
        databases.set(dbName, db);
      }
      return db as Database<V, string>;
    },
    transaction: (fn) => root.transaction(fn),
    async close() {
      if (closed) return;
      closed = true;
      await root.close();
    },
  };
}
