import type Database from 'better-sqlite3';
import type { WalSync } from '../../../durability/walSync.ts';
import type { Decision, Statement, StoreDialect } from '../dialect.ts';
import type { GroupCommit } from './groupCommit.ts';

/**
 * SQLite as the store's parts run it: reads at once on the one connection, writes in the
 * next group commit (one transaction and one fsync with the plays of its batch).
 */
export class SqliteDialect implements StoreDialect {
  readonly unfinished = 'finished = 0';
  readonly skipLocked = '';
  readonly forUpdate = '';
  /** The parts' statements, prepared on first use. */
  private readonly statementCache = new Map<string, Database.Statement<unknown[], unknown>>();
  /** Reads, a decision and its writes in one savepoint inside the batch's transaction: all or none. */
  private readonly runInOneTransaction: <T>(
    reads: readonly Statement[],
    decide: (rows: unknown[][]) => Decision<T>,
  ) => T;

  constructor(
    readonly db: Database.Database,
    private readonly wal: WalSync,
    private readonly commits: GroupCommit,
  ) {
    this.runInOneTransaction = db.transaction(
      <T>(reads: readonly Statement[], decide: (rows: unknown[][]) => Decision<T>): T => {
        const { writes, answer } = decide(reads.map(([text, params]) => this.prepared(text).all(...params)));
        for (const [text, params] of writes) this.prepared(text).run(...params);
        return answer;
      },
    ) as SqliteDialect['runInOneTransaction'];
  }

  private prepared(text: string): Database.Statement<unknown[], unknown> {
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
    return this.decideInOneTransaction([], () => ({ writes: statements, answer: undefined }));
  }

  decideInOneTransaction<T>(reads: readonly Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T> {
    return this.commits.inNextCommit(() => this.runInOneTransaction(reads, decide));
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
