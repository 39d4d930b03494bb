import pg from 'pg';
import type { Decision, Statement, StoreDialect } from '../dialect.ts';
import { inTransaction, type PostgresStoreStats } from './connection.ts';
import { WAL_BARRIER_SQL, WalBarrier } from './walBarrier.ts';

/**
 * PostgreSQL as the store's parts run it: each statement on the pool (or on readSnapshot's
 * connection), a write committed synchronously (synchronous_commit on: durable when it
 * answers), reads waiting for the WalBarrier that the play batches' commits are flushed by.
 */
export class PostgresDialect implements StoreDialect {
  readonly unfinished = 'NOT finished';
  readonly skipLocked = ' FOR UPDATE SKIP LOCKED';
  readonly forUpdate = ' FOR UPDATE';
  readonly stats: PostgresStoreStats = { batches: 0, plays: 0, retries: 0, retriedCodes: {} };
  /** The play batches commit without waiting for the disk; their answers and every read wait for this. */
  readonly wal = new WalBarrier(() => this.pool.query(WAL_BARRIER_SQL));
  private snapshot: pg.PoolClient | null = null;
  /** The parts' statements, their `?` numbered for PostgreSQL. */
  private readonly numbered = new Map<string, string>();

  constructor(readonly pool: pg.Pool) {}

  /** A transaction on this store's pool (see inTransaction), its retries counted in `stats`. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>, ownsBoundaries = false): Promise<T> {
    return inTransaction(this.pool, this.stats, work, ownsBoundaries);
  }

  /** A statement written with `$n` placeholders, on readSnapshot's connection while one runs. */
  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.snapshot) return this.snapshot.query<R>(text, values);
    return this.pool.query<R>(text, values);
  }

  /** A statement written with `?` placeholders, as PostgreSQL numbers them (cached). */
  private numberedText(text: string): string {
    let numbered = this.numbered.get(text);
    if (numbered === undefined) {
      let n = 0;
      this.numbered.set(text, (numbered = text.replace(/\?/g, () => `$${++n}`)));
    }
    return numbered;
  }

  async all<R>(text: string, params?: readonly unknown[]): Promise<R[]> {
    return (await this.query<R & pg.QueryResultRow>(this.numberedText(text), params as unknown[] | undefined)).rows;
  }

  /** A committed single statement (synchronous_commit on: durable when it answers). */
  async write<R>(text: string, params: readonly unknown[]): Promise<{ rows: R[]; changes: number }> {
    const result = await this.query<R & pg.QueryResultRow>(this.numberedText(text), params as unknown[]);
    return { rows: result.rows, changes: result.rowCount ?? 0 };
  }

  async writeInOneTransaction(statements: readonly Statement[]): Promise<void> {
    await this.decideInOneTransaction([], () => ({ writes: statements, answer: undefined }));
  }

  async decideInOneTransaction<T>(reads: readonly Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T> {
    let wrote = false;
    const answer = await this.transaction(async (client) => {
      const rows: unknown[][] = [];
      for (const [text, params] of reads) rows.push((await client.query(this.numberedText(text), [...params])).rows);
      const { writes, answer } = decide(rows);
      for (const [text, params] of writes) await client.query(this.numberedText(text), [...params]);
      wrote = writes.length > 0;
      return answer;
    });
    // Committed synchronously: durable. Without a write, the reads may have seen a batch not flushed yet.
    return wrote ? answer : this.afterDurable(answer);
  }

  /** After a read: what it saw may come from a batch whose log flush is still running. */
  async afterDurable<T>(value: T): Promise<T> {
    if (!this.snapshot) await this.wal.durable();
    return value;
  }

  async readSnapshot<T>(read: () => Promise<T>): Promise<T> {
    if (this.snapshot) throw new Error('readSnapshot calls cannot nest');
    const client = await this.pool.connect();
    this.snapshot = client;
    try {
      // One snapshot for every read inside; it blocks no writer.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      return await read();
    } finally {
      this.snapshot = null;
      await client.query('COMMIT').then(
        () => client.release(),
        () => client.release(true),
      );
    }
  }
}
