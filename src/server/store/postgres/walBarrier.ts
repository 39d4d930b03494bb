/**
 * Waits for PostgreSQL's write-ahead log to be on disk, shared by every caller.
 *
 * Play batches commit with `synchronous_commit = off`: PostgreSQL writes the commit record
 * and releases the batch's row locks (the stake's block cursor above all) without waiting
 * for the disk, so the next batch, from this instance or another, takes the cursor while
 * the flush runs instead of after it. Nothing is revealed before it is durable, though:
 * a play is answered only once a barrier that started after its COMMIT was answered has
 * finished. The barrier is a synchronous commit that writes WAL; PostgreSQL flushes the
 * log in order up to its commit record, so every commit made before it is on disk too. A
 * crash before that loses the unanswered batch as a whole (and any batch that saw it, whose
 * commit comes later in the log): the database stays a consistent prefix.
 *
 * One barrier runs at a time; callers arriving meanwhile share the next one.
 */
export class WalBarrier {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** Barriers run so far (one covers many commits under load). */
  flushes = 0;

  constructor(private readonly flush: () => Promise<unknown>) {}

  /** Resolves once everything committed (or read) before this call is on disk. */
  durable(): Promise<void> {
    if (this.running === null) return this.start();
    // The running barrier may have started before the caller's commit: wait for the next one.
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const barrier = this.flush().then(() => {
      this.flushes++;
    });
    this.running = barrier;
    const done = () => {
      if (this.running === barrier) this.running = null;
    };
    barrier.then(done, done);
    return barrier;
  }
}

/**
 * The barrier's statement: a transactional logical-decoding message takes a transaction id
 * and writes WAL, so its autocommit (synchronous_commit on) flushes the log up to it. It
 * touches no table and takes no lock; any role may run it.
 */
export const WAL_BARRIER_SQL = `SELECT pg_logical_emit_message(true, 'spincake', 'durable')`;
