/** One statement written with `?` placeholders, and its parameters. */
export type Statement = readonly [text: string, params: readonly unknown[]];

/** What a transaction's reads decided: the statements to write after them, and the answer. */
export interface Decision<T> {
  writes: readonly Statement[];
  answer: T;
}

/**
 * What a database gives the store's parts: run a statement, write several in one
 * transaction, wait until what a read saw is durable. Every part (players, plays, blocks,
 * ledger facts, wallet books) is built on one of these, in SQL that SQLite and PostgreSQL
 * both run; each database keeps its own only where they differ (the play batch above all).
 *
 * Durability of reads: every read waits (`afterDurable`) until the commits it may have seen
 * are on disk. Play batches are acknowledged only once durable, but they are visible to
 * other reads before that (SQLite's WAL is fsynced after the commit, PostgreSQL's batches
 * commit with synchronous_commit off); a read that answered meanwhile could show a play, a
 * balance, a cursor or a stake sold out that a crash then takes back. So lists of blocks
 * and the stakes on sale wait like the plays and the players do. Inside readSnapshot
 * PostgreSQL's `afterDurable` does not wait (the snapshot is a check, not an answer, and a
 * barrier on another connection would not cover it anyway).
 */
export interface StoreDialect {
  /** Runs one statement; its rows. */
  all<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /**
   * Runs one writing statement and resolves once it is on disk: its rows (for RETURNING)
   * and how many rows it changed.
   */
  write<R>(text: string, params: readonly unknown[]): Promise<{ rows: R[]; changes: number }>;
  /** Runs the statements in one transaction (all or none); resolves once it is on disk. */
  writeInOneTransaction(statements: readonly Statement[]): Promise<void>;
  /**
   * Reads, decides and writes in one transaction: `reads` run first (rows they select
   * `forUpdate` stay locked to the end), `decide` sees their rows in order and returns what
   * to write; resolves with its answer once the transaction is on disk. `decide` must be
   * pure: PostgreSQL runs the transaction again after a conflict.
   */
  decideInOneTransaction<T>(reads: readonly Statement[], decide: (rows: unknown[][]) => Decision<T>): Promise<T>;
  /** Resolves with `value` once every commit that a read just made may have seen is on disk. */
  afterDurable<T>(value: T): Promise<T>;
  /**
   * Runs `read` on one consistent snapshot of the data, for checks made while a server
   * sells. Only reads may happen inside, and nothing else on this store meanwhile.
   */
  readSnapshot<T>(read: () => Promise<T>): Promise<T>;
  /** The condition of an unfinished play, spelt as the partial index plays_unfinished is. */
  readonly unfinished: string;
  /** What ends the outbox claim's inner SELECT: PostgreSQL skips rows another instance is taking. */
  readonly skipLocked: string;
  /** What ends a read that locks its rows for the transaction (PostgreSQL; SQLite has one writer). */
  readonly forUpdate: string;
}
