import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { SignedTreeHead } from '../../transparency/index.ts';
import { pendingMigrations, type Migration } from '../store/schema.ts';
import { SQLITE_FILE_NAME } from '../store/sqlite/sqliteStore.ts';
import { logMigrations, logMigrationsTableSql, POSTGRES_LOG, SQLITE_LOG, type LogDialect } from './schema.ts';

/**
 * Where the log lives: the blocks' own database, on a connection of its own (SQLite: a
 * second connection to the file, every commit fsynced; PostgreSQL: a small pool). Appends
 * run one at a time across every instance and process: SQLite's write lock (BEGIN
 * IMMEDIATE), PostgreSQL's transaction-scoped advisory lock. Reads take no lock: entries
 * and heads are only ever added.
 */

export type EntryKind = 'commitment' | 'seed';

export interface StoredEntry {
  index: number;
  kind: EntryKind;
  blockId: string;
  data: string;
}

/** The statements a connection runs, written with `?` placeholders. */
interface LogSql {
  rows<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  run(text: string, params?: readonly unknown[]): Promise<void>;
}

interface HeadRow {
  timestamp_ms: number | string;
  tree_size: number | string;
  root_hash: string;
  signature: string;
}

interface EntryRow {
  idx: number | string;
  kind: EntryKind;
  block_id: string;
  data: string;
}

const HEAD_COLUMNS = 'timestamp_ms, tree_size, root_hash, signature';
const ENTRY_COLUMNS = 'idx, kind, block_id, data';

function toHead(row: HeadRow): SignedTreeHead {
  return {
    treeSize: Number(row.tree_size),
    timestamp: Number(row.timestamp_ms),
    rootHash: row.root_hash,
    signature: row.signature,
  };
}

function toEntry(row: EntryRow): StoredEntry {
  return { index: Number(row.idx), kind: row.kind, blockId: row.block_id, data: row.data };
}

/** The log's queries, on any connection. */
export class LogQueries {
  constructor(private readonly sql: LogSql) {}

  async size(): Promise<number> {
    const [row] = await this.sql.rows<{ n: number | string | null }>('SELECT MAX(idx) + 1 AS n FROM transparency_entries');
    return Number(row?.n ?? 0);
  }

  /** The leaf hashes of entries [from, to), in order. */
  async leafHashes(from: number, to: number): Promise<Uint8Array[]> {
    const rows = await this.sql.rows<{ leaf_hash: Uint8Array }>(
      'SELECT leaf_hash FROM transparency_entries WHERE idx >= ? AND idx < ? ORDER BY idx',
      [from, to],
    );
    return rows.map((row) => new Uint8Array(row.leaf_hash));
  }

  /** Entries [from, to), in order. */
  async entries(from: number, to: number): Promise<StoredEntry[]> {
    const rows = await this.sql.rows<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM transparency_entries WHERE idx >= ? AND idx < ? ORDER BY idx`,
      [from, to],
    );
    return rows.map(toEntry);
  }

  async entryOf(kind: EntryKind, blockId: string): Promise<StoredEntry | null> {
    const [row] = await this.sql.rows<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM transparency_entries WHERE kind = ? AND block_id = ?`,
      [kind, blockId],
    );
    return row ? toEntry(row) : null;
  }

  /** The block ids that have an entry of this kind. */
  async blocksWith(kind: EntryKind): Promise<Set<string>> {
    const rows = await this.sql.rows<{ block_id: string }>('SELECT block_id FROM transparency_entries WHERE kind = ?', [
      kind,
    ]);
    return new Set(rows.map((row) => row.block_id));
  }

  async insertEntry(index: number, kind: EntryKind, blockId: string, data: string, leafHash: Uint8Array, timestamp: number) {
    await this.sql.run(
      'INSERT INTO transparency_entries (idx, kind, block_id, data, leaf_hash, timestamp_ms) VALUES (?, ?, ?, ?, ?, ?)',
      [index, kind, blockId, data, Buffer.from(leafHash), timestamp],
    );
  }

  async latestHead(): Promise<SignedTreeHead | null> {
    const [row] = await this.sql.rows<HeadRow>(
      `SELECT ${HEAD_COLUMNS} FROM transparency_heads ORDER BY timestamp_ms DESC LIMIT 1`,
    );
    return row ? toHead(row) : null;
  }

  /** The newest head signed before `timestamp` (Unix ms). Heads only grow: it is the largest of them. */
  async latestHeadBefore(timestamp: number): Promise<SignedTreeHead | null> {
    const [row] = await this.sql.rows<HeadRow>(
      `SELECT ${HEAD_COLUMNS} FROM transparency_heads WHERE timestamp_ms < ? ORDER BY timestamp_ms DESC LIMIT 1`,
      [timestamp],
    );
    return row ? toHead(row) : null;
  }

  /** The first head whose tree holds at least `size` entries. */
  async firstHeadOfSize(size: number): Promise<SignedTreeHead | null> {
    const [row] = await this.sql.rows<HeadRow>(
      `SELECT ${HEAD_COLUMNS} FROM transparency_heads WHERE tree_size >= ? ORDER BY timestamp_ms LIMIT 1`,
      [size],
    );
    return row ? toHead(row) : null;
  }

  async insertHead(head: SignedTreeHead): Promise<void> {
    await this.sql.run(
      'INSERT INTO transparency_heads (timestamp_ms, tree_size, root_hash, signature) VALUES (?, ?, ?, ?)',
      [head.timestamp, head.treeSize, head.rootHash, head.signature],
    );
  }

  async publicKey(): Promise<string | null> {
    const [row] = await this.sql.rows<{ public_key: string }>('SELECT public_key FROM transparency_key WHERE id = 1');
    return row?.public_key ?? null;
  }

  async setPublicKey(publicKey: string): Promise<void> {
    await this.sql.run('INSERT INTO transparency_key (id, public_key) VALUES (1, ?)', [publicKey]);
  }
}

export interface LogStorage {
  /** Reads, with no lock. */
  read<T>(work: (log: LogQueries) => Promise<T>): Promise<T>;
  /** One transaction holding the log's append lock: no other instance or process appends meanwhile. */
  append<T>(work: (log: LogQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Runs one append at a time in this process: a connection carries one transaction. */
class Turns {
  private last: Promise<unknown> = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.then(work, work);
    this.last = next.catch(() => {});
    return next;
  }
}

function migrationsToApply(applied: readonly { version: number }[], dialect: LogDialect): Migration[] {
  return pendingMigrations(logMigrations(dialect), new Set(applied.map((row) => Number(row.version))));
}

export class SqliteLogStorage implements LogStorage {
  private readonly db: Database.Database;
  private readonly queries: LogQueries;
  private readonly turns = new Turns();

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // The store fsyncs its WAL off the event loop; the log's rare commits wait for theirs.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    const statements = new Map<string, Database.Statement<unknown[], unknown>>();
    const prepared = (text: string) => {
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = this.db.prepare(text)));
      return statement;
    };
    this.queries = new LogQueries({
      rows: async <R>(text: string, params: readonly unknown[] = []) => prepared(text).all(...params) as R[],
      run: async (text: string, params: readonly unknown[] = []) => void prepared(text).run(...params),
    });
    this.db.exec(logMigrationsTableSql(SQLITE_LOG));
    const applied = this.db.prepare('SELECT version FROM transparency_migrations').all() as { version: number }[];
    for (const migration of migrationsToApply(applied, SQLITE_LOG)) {
      this.db.transaction(() => {
        this.db.exec(migration.sql);
        this.db
          .prepare('INSERT INTO transparency_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, new Date().toISOString());
      }).immediate();
    }
  }

  /** The log beside the SQLite store of `dataDir`. */
  static inDataDir(dataDir: string): SqliteLogStorage {
    return new SqliteLogStorage(path.join(dataDir, SQLITE_FILE_NAME));
  }

  read<T>(work: (log: LogQueries) => Promise<T>): Promise<T> {
    return work(this.queries);
  }

  append<T>(work: (log: LogQueries) => Promise<T>): Promise<T> {
    return this.turns.run(async () => {
      // IMMEDIATE: the file's write lock, across processes (the ops command appends too).
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const value = await work(this.queries);
        this.db.exec('COMMIT');
        return value;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.turns.run(async () => this.db.close());
  }
}

/** Any constant works: the same for every instance; not the migrations' lock. */
const APPEND_LOCK_KEY = 0x5b1c_10a9;
const MIGRATION_LOCK_KEY = 0x5b1c_10aa;

function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

function onClient(client: pg.ClientBase | pg.Pool): LogSql {
  return {
    rows: async <R>(text: string, params: readonly unknown[] = []) =>
      (await client.query(numbered(text), [...params])).rows as R[],
    run: async (text: string, params: readonly unknown[] = []) => void (await client.query(numbered(text), [...params])),
  };
}

export class PostgresLogStorage implements LogStorage {
  private readonly turns = new Turns();

  private constructor(private readonly pool: pg.Pool) {}

  static async connect(url: string): Promise<PostgresLogStorage> {
    const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'spincake-log' });
    pool.on('error', () => {});
    const storage = new PostgresLogStorage(pool);
    try {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await client.query(logMigrationsTableSql(POSTGRES_LOG));
        const applied = (await client.query<{ version: number }>('SELECT version FROM transparency_migrations')).rows;
        for (const migration of migrationsToApply(applied, POSTGRES_LOG)) {
          await client.query('BEGIN');
          try {
            await client.query(migration.sql);
            await client.query('INSERT INTO transparency_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
              migration.version,
              migration.name,
              new Date().toISOString(),
            ]);
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return storage;
  }

  read<T>(work: (log: LogQueries) => Promise<T>): Promise<T> {
    return work(new LogQueries(onClient(this.pool)));
  }

  append<T>(work: (log: LogQueries) => Promise<T>): Promise<T> {
    return this.turns.run(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        // Held to COMMIT: appends of every instance run one after the other.
        await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);
        const value = await work(new LogQueries(onClient(client)));
        await client.query('COMMIT');
        client.release();
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        client.release(true);
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.turns.run(async () => {});
    await this.pool.end();
  }
}

/** The log in the database the configuration names. */
export async function openLogStorage(config: { dataDir: string; databaseUrl?: string | null }): Promise<LogStorage> {
  if (config.databaseUrl) return PostgresLogStorage.connect(config.databaseUrl);
  return SqliteLogStorage.inDataDir(config.dataDir);
}
