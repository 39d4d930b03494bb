import type Database from 'better-sqlite3';
import type { WalSync } from '../../../durability/walSync.ts';
import type { Statement, StoreDialect } from '../dialect.ts';
import type { GroupCommit } from './groupCommit.ts';

/**
 * SQLite as the store's parts run it: reads at once on the one connection, writes in the
 * next group commit (one transaction and one fsync with the plays of its batch).
 */
export class SqliteDialect implements StoreDialect {
  readonly unfinished = 'finished = 0';
  readonly skipLocked = '';
  /** The parts' statements, prepared on first use. */
  private readonly statementCache = new Map<string, Database.Statement<unknown[], unknown>>();
  /** Statements run in one savepoint inside the batch's transaction: all or none. */
  private readonly runInOneTransaction: (statements: readonly Statement[]) => void;

  constructor(
    readonly db: Database.Database,
    private readonly wal: WalSync,
    private readonly commits: GroupCommit,
  ) {
    this.runInOneTransaction = db.transaction((statements: readonly Statement[]) => {
      for (const [text, params] of statements) this.prepared(text).run(...params);
    });
  }

  prepared(text: string): Database.Statement<unknown[], unknown> {
    let statement = this.statementCache.get(text);
    if (!statement) this.statementCache.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  async all<R>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.prepared(text).all(...params) as R[];
  }

  write<R>(text: string, params: readonly unknown[]): Promise<{ rows: R[]; changes: number }> {
    const statement = this.prepared(text);
    return this.commits.inNextCommit(() => {
      if (!statement.reader) return { rows: [] as R[], changes: statement.run(...params).changes };
      const rows = statement.all(...params) as R[];
      return { rows, changes: rows.length };
    });
  }

  writeInOneTransaction(statements: readonly Statement[]): Promise<void> {
    return this.commits.inNextCommit(() => this.runInOneTransaction(statements));
  }

  /** After a read: what it saw may include commits whose fsync is still running; wait for it. */
  async afterDurable<T>(value: T): Promise<T> {
    await this.wal.durable();
    return value;
  }

  /** After a transaction of its own (outside the group commit): resolves with `value` once it is on disk. */
  async afterCommit<T>(value: T): Promise<T> {
    this.wal.committed();
    await this.wal.durable();
    return value;
  }

  async readSnapshot<T>(read: () => Promise<T>): Promise<T> {
    // A deferred transaction in WAL mode reads one snapshot, and blocks no writer.
    this.db.exec('BEGIN');
    try {
      return await read();
    } finally {
      this.db.exec('COMMIT');
    }
  }
}
