import fs from 'node:fs';
import Database from 'better-sqlite3';
import { SqliteStore } from '../store/sqlite/sqliteStore.ts';
import { PostgresStore, type PostgresStoreOptions } from '../store/postgres/postgresStore.ts';
import type { Store, UnitSource } from '../store/types.ts';
import { databaseDump, DUMPED_TABLES, tempDataDir } from './harness.ts';
import { createTestDatabase, postgresDump, postgresReachable, whileWritesFail } from './postgres.ts';

/** One store under test, with what a server needs to open the same data, and a way to throw it away. */
export interface OpenedStore {
  store: Store;
  /** The environment that makes a server use this data: DATA_DIR, and DATABASE_URL for PostgreSQL. */
  env: Record<string, string>;
  /** Every row, to compare before and after a refused request. */
  dump(): Promise<string>;
  /** Closes the store (if still open) and deletes its data. */
  destroy(): Promise<void>;
  /**
   * Runs `act` while the store's next write transaction fails as a whole (SQLite: another
   * connection holds the write lock; PostgreSQL: the store's connection dies while it waits
   * on a lock), then lets writes through again.
   */
  whileWritesFail<T>(act: () => Promise<T>): Promise<T>;
}

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  /** False when the database cannot be reached here: the tests of this kind are skipped. */
  available: boolean;
  open(units: UnitSource, options?: PostgresStoreOptions): Promise<OpenedStore>;
}

function closeOnce(store: Store): () => Promise<void> {
  let closed: Promise<void> | null = null;
  return () => (closed ??= store.close());
}

export const sqliteKind: StoreKind = {
  name: 'sqlite',
  available: true,
  async open(units) {
    const dataDir = tempDataDir();
    const store = SqliteStore.open(dataDir, units);
    const close = closeOnce(store);
    return {
      store,
      env: { DATA_DIR: dataDir },
      // The meta table (the session key) too, as postgresDump.
      dump: async () => databaseDump(store, [...DUMPED_TABLES, 'meta']),
      destroy: async () => {
        await close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
      whileWritesFail: async (act) => {
        const other = new Database(store.db.name);
        other.exec('BEGIN IMMEDIATE');
        const busyTimeout = store.db.pragma('busy_timeout', { simple: true }) as number;
        // Not waited for: the store's next transaction fails at its BEGIN.
        store.db.pragma('busy_timeout = 0');
        try {
          return await act();
        } finally {
          other.exec('ROLLBACK');
          other.close();
          store.db.pragma(`busy_timeout = ${busyTimeout}`);
        }
      },
    };
  },
};

export async function postgresKind(): Promise<StoreKind> {
  return {
    name: 'postgres',
    available: await postgresReachable(),
    async open(units, options) {
      const database = await createTestDatabase();
      const dataDir = tempDataDir();
      const store = await PostgresStore.connect(database.url, units, options);
      const close = closeOnce(store);
      return {
        store,
        env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
        dump: () => postgresDump(database.url),
        whileWritesFail: (act) => whileWritesFail(database.url, act),
        destroy: async () => {
          await close();
          await database.drop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** Every store kind, for `describe.each`; a kind whose database is unreachable is listed as unavailable. */
export async function storeKinds(): Promise<StoreKind[]> {
  return [sqliteKind, await postgresKind()];
}
