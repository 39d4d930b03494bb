import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createPrivateFile } from '../dataFiles.ts';
import pg from 'pg';
import type { SignedTreeHead } from '../../transparency/index.ts';
import { applyPostgresMigrations } from '../store/postgres/migrations.ts';
import { migrationsTableSql } from '../store/schema.ts';
import { applySqliteMigrations } from '../store/sqlite/migrations.ts';
import { SQLITE_FILE_NAME } from '../store/sqlite/sqliteStore.ts';
import { LOG_MIGRATIONS_TABLE, logMigrations, POSTGRES_LOG, SQLITE_LOG } from './schema.ts';

/**
 * Where the log lives: the blocks' own database, on a connection of its own (SQLite: a
 * second connection to the file, every commit fsynced; PostgreSQL: a small pool). Reads
 * take no lock: entries and heads are only ever added. An append is planned from what it
 * reads, then written only if the log is still as the plan read it, one at a time across
 * every instance and process: PostgreSQL plans and writes under a transaction-scoped
 * advisory lock; SQLite plans without a lock and writes in one synchronous IMMEDIATE
 * transaction that checks the log's size and newest head first, planning again if another
 * process appended meanwhile (a SQLite write lock held across awaits would block the
 * store's own connection in this process, and the event loop with it).
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

const SIZE_SQL = 'SELECT MAX(idx) + 1 AS n FROM transparency_entries';
const LATEST_HEAD_SQL = `SELECT ${HEAD_COLUMNS} FROM transparency_heads ORDER BY timestamp_ms DESC LIMIT 1`;
const INSERT_ENTRY_SQL =
  'INSERT INTO transparency_entries (idx, kind, block_id, data, leaf_hash, timestamp_ms) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_HEAD_SQL =
  'INSERT INTO transparency_heads (timestamp_ms, tree_size, root_hash, signature) VALUES (?, ?, ?, ?)';
const INSERT_KEY_SQL = 'INSERT INTO transparency_key (id, public_key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING';
const KEY_SQL = 'SELECT public_key FROM transparency_key WHERE id = 1';

export interface NewEntry {
  index: number;
  kind: EntryKind;
  blockId: string;
  data: string;
  leafHash: Uint8Array;
  timestamp: number;
}

/** What an append writes, and the log as it was read to plan it. */
export interface LogWrite<T> {
  /** Entries in the log when planned. */
  size: number;
  /** The newest head's time when planned (null: none). */
  latestHeadTime: number | null;
  /** The log's key, recorded if none is, and checked (LogKeyMismatchError). */
  publicKey?: string;
  entry?: NewEntry;
  head?: SignedTreeHead;
  result: T;
}

export class LogKeyMismatchError extends Error {}

const entryParams = (e: NewEntry) => [e.index, e.kind, e.blockId, e.data, Buffer.from(e.leafHash), e.timestamp];
const headParams = (h: SignedTreeHead) => [h.timestamp, h.treeSize, h.rootHash, h.signature];

function checkKey(wanted: string, known: string | undefined): void {
  if (known !== wanted) {
    throw new LogKeyMismatchError(
      `the log is signed with the key ${known}; this server's key is ${wanted} (TRANSPARENCY_KEY or its file)`,
    );
  }
}

/** The log's queries, on any connection. */
export class LogQueries {
  constructor(private readonly sql: LogSql) {}

  async size(): Promise<number> {
    const [row] = await this.sql.rows<{ n: number | string | null }>(SIZE_SQL);
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

  async latestHead(): Promise<SignedTreeHead | null> {
    const [row] = await this.sql.rows<HeadRow>(LATEST_HEAD_SQL);
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

  /** Writes what `plan` decided; the caller checked that the log is still as planned. */
  async write(plan: LogWrite<unknown>): Promise<void> {
    if (plan.publicKey !== undefined) {
      await this.sql.run(INSERT_KEY_SQL, [plan.publicKey]);
      const [row] = await this.sql.rows<{ public_key: string }>(KEY_SQL);
      checkKey(plan.publicKey, row?.public_key);
    }
    if (plan.entry) await this.sql.run(INSERT_ENTRY_SQL, entryParams(plan.entry));
    if (plan.head) await this.sql.run(INSERT_HEAD_SQL, headParams(plan.head));
  }
}

export interface LogStorage {
  /** Reads, with no lock. */
  read<T>(work: (log: LogQueries) => Promise<T>): Promise<T>;
  /**
   * Plans an append from the log as `plan` reads it, and writes it as one transaction only
   * while no other append came between: the plan runs again if one did.
   */
  append<T>(plan: (log: LogQueries) => Promise<LogWrite<T>>): Promise<T>;
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

export class SqliteLogStorage implements LogStorage {
  private readonly db: Database.Database;
  private readonly queries: LogQueries;
  private readonly turns = new Turns();

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // The log may open the blocks' database before the store does: it is made 0600 either way.
    createPrivateFile(file);
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
    applySqliteMigrations(this.db, logMigrations(SQLITE_LOG), {
      table: LOG_MIGRATIONS_TABLE,
      tableSql: migrationsTableSql(SQLITE_LOG, LOG_MIGRATIONS_TABLE),
    });
  }

  /** The log beside the SQLite store of `dataDir`. */
  static inDataDir(dataDir: string): SqliteLogStorage {
    return new SqliteLogStorage(path.join(dataDir, SQLITE_FILE_NAME));
  }

  read<T>(work: (log: LogQueries) => Promise<T>): Promise<T> {
    return work(this.queries);
  }

  append<T>(plan: (log: LogQueries) => Promise<LogWrite<T>>): Promise<T> {
    return this.turns.run(async () => {
      for (;;) {
        const planned = await plan(this.queries);
        if (this.writeIfUnchanged(planned)) return planned.result;
      }
    });
  }

  /** One synchronous IMMEDIATE transaction (the file's write lock, across processes): false if the log moved. */
  private writeIfUnchanged(plan: LogWrite<unknown>): boolean {
    if (plan.entry === undefined && plan.head === undefined && plan.publicKey === undefined) return true;
    return this.db
      .transaction(() => {
        const size = Number((this.db.prepare(SIZE_SQL).get() as { n: number | null }).n ?? 0);
        const latest = this.db.prepare(LATEST_HEAD_SQL).get() as HeadRow | undefined;
        if (size !== plan.size || (latest ? Number(latest.timestamp_ms) : null) !== plan.latestHeadTime) return false;
        if (plan.publicKey !== undefined) {
          this.db.prepare(INSERT_KEY_SQL).run(plan.publicKey);
          checkKey(plan.publicKey, (this.db.prepare(KEY_SQL).get() as { public_key: string } | undefined)?.public_key);
        }
        if (plan.entry) this.db.prepare(INSERT_ENTRY_SQL).run(...entryParams(plan.entry));
        if (plan.head) this.db.prepare(INSERT_HEAD_SQL).run(...headParams(plan.head));
        return true;
      })
      .immediate();
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
    run: async (text: string, params: readonly unknown[] = []) =>
      void (await client.query(numbered(text), [...params])),
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
        await applyPostgresMigrations(client, logMigrations(POSTGRES_LOG), {
          lockKey: MIGRATION_LOCK_KEY,
          table: LOG_MIGRATIONS_TABLE,
          tableSql: migrationsTableSql(POSTGRES_LOG, LOG_MIGRATIONS_TABLE),
        });
      } finally {
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

  append<T>(plan: (log: LogQueries) => Promise<LogWrite<T>>): Promise<T> {
    return this.turns.run(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        // Held to COMMIT: appends of every instance run one after the other, so the plan stands.
        await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);
        const queries = new LogQueries(onClient(client));
        const planned = await plan(queries);
        await queries.write(planned);
        await client.query('COMMIT');
        client.release();
        return planned.result;
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
