import type Database from 'better-sqlite3';
import { FlushTrigger, type WalSync } from '../../../durability/walSync.ts';
import { reportBatch, type PlayBatchObserver } from '../batchObserver.ts';
import type { Outcome, PendingPlay, Settled, Waiting } from '../batchPlan.ts';
import { answerWhenDurable } from '../batchPlan.ts';
import type { BuyRequest, BuyResult } from '../types.ts';

/** A write that rides the next group commit: it runs inside the batch's transaction and fails alone. */
interface QueuedWrite extends Waiting<unknown> {
  run: () => unknown;
}

/** What one group commit came to: each queued write's result, each play's outcome. */
interface Committed {
  written: Settled<unknown>[];
  outcomes: Outcome[];
}

/**
 * SQLite's group commit. better-sqlite3 is synchronous, so transactions never interleave
 * within the process. The plays and writes that arrive while the previous fsync runs
 * share one transaction and one fsync; the plays are sold by `sell` inside it (a play that
 * throws fails alone), the writes run before them; a failing write or commit fails the
 * whole batch, of which nothing is on disk or acknowledged. No promise resolves before the
 * commit is on disk.
 *
 * The wallet's books (a bet before it is sent, a settled win, a retry, a balance noted)
 * ride it too: each small transaction would otherwise rewrite whole b-tree pages into the
 * WAL. A queued write that fails fails alone; a failing commit fails every call of the batch.
 */
export class GroupCommit {
  private pending: PendingPlay[] = [];
  private queued: QueuedWrite[] = [];
  /** Told of every play batch (metrics); null: nobody. */
  private observer: PlayBatchObserver | null = null;
  /** Plays and writes gather until the next group commit. */
  private readonly flushSoon: FlushTrigger;
  /** The transaction function, made once: better-sqlite3 builds a wrapper per call otherwise. */
  private readonly commitBatch: (writes: readonly QueuedWrite[], requests: BuyRequest[]) => Committed;

  constructor(
    private readonly db: Database.Database,
    private readonly wal: WalSync,
    sell: (requests: BuyRequest[]) => Outcome[],
  ) {
    this.flushSoon = new FlushTrigger(wal, () => this.flush());
    // IMMEDIATE: the write lock is taken (or waited for) at BEGIN, never by a read that turns into a write.
    this.commitBatch = db.transaction((writes: readonly QueuedWrite[], requests: BuyRequest[]): Committed => {
      const written = writes.map((write) => this.runQueued(write));
      return { written, outcomes: requests.length === 0 ? [] : sell(requests) };
    }).immediate;
  }

  observePlayBatches(observer: PlayBatchObserver | null): void {
    this.observer = observer;
  }

  buyPlay(request: BuyRequest): Promise<BuyResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      this.flushSoon.request();
    });
  }

  /** Runs `run` in the next group commit's transaction; resolves with its result once that is on disk. */
  inNextCommit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ run, resolve: resolve as (result: unknown) => void, reject });
      this.flushSoon.request();
    });
  }

  /** Commits what is queued now (closing: their clients may already be waiting). */
  flushAll(): void {
    while (this.pending.length > 0 || this.queued.length > 0) this.flush();
  }

  /** A queued write inside the batch's transaction: its failure is its own, unless it ended the transaction. */
  private runQueued(write: QueuedWrite): Settled<unknown> {
    try {
      return { result: write.run() };
    } catch (error) {
      // SQLite rolls the whole transaction back on some errors (a full disk, I/O): nothing of the batch stands.
      if (!this.db.inTransaction) throw error;
      return { error };
    }
  }

  private flush(): void {
    const batch = this.pending;
    const writes = this.queued;
    this.pending = [];
    this.queued = [];
    if (batch.length === 0 && writes.length === 0) return;
    let committed: Committed;
    const startedAt = performance.now();
    try {
      committed = this.commitBatch(
        writes,
        batch.map((item) => item.request),
      );
    } catch (error) {
      // A write or the commit failed: nothing of the batch is on disk, nobody is acknowledged.
      for (const item of [...writes, ...batch]) item.reject(error);
      return;
    }
    const committedAt = performance.now();
    // Acknowledge only once the batch is on disk.
    this.wal.committed();
    const durable = this.wal.durable();
    answerWhenDurable(writes, committed.written, durable);
    answerWhenDurable(batch, committed.outcomes, durable);
    if (batch.length > 0) reportBatch(this.observer, committed.outcomes, startedAt, committedAt, durable);
  }
}
