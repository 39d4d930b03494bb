import fs from 'node:fs';

/**
 * Group fsync of SQLite's write-ahead log, off the event loop (docs/durability.md, rules 2, 3
 * and 5): `durable()` resolves once an fdatasync of the WAL that started after the latest
 * `committed()` has finished; one runs at a time.
 */
export class WalSync {
  private commits = 0;
  private synced = 0;
  private inFlight = false;
  private fd: number | null = null;
  private failure: Error | null = null;
  /** fsyncs done so far (one covers many commits under load). */
  fsyncs = 0;
  private waiters: { commit: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private afterSync: (() => void)[] = [];

  constructor(private readonly walPath: string) {}

  /** Whether an fsync is running now. */
  get syncing(): boolean {
    return this.inFlight;
  }

  /**
   * Runs `work` when the running fsync ends, before the next one starts: a commit made then
   * is covered by that next fsync, so committing earlier would gain nothing and split batches.
   */
  whenSynced(work: () => void): void {
    if (this.inFlight) this.afterSync.push(work);
    else work();
  }

  /** Call after every write transaction commits. */
  committed(): void {
    this.commits++;
  }

  /** Resolves when everything committed so far is on disk. */
  durable(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const commit = this.commits;
    if (this.synced >= commit) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ commit, resolve, reject });
      this.start();
    });
  }

  private start(): void {
    if (this.inFlight || this.waiters.length === 0) return;
    this.inFlight = true;
    const covers = this.commits;
    try {
      this.fd ??= fs.openSync(this.walPath, 'r');
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    fs.fdatasync(this.fd, (error) => {
      this.inFlight = false;
      if (error) {
        this.fail(error);
        return;
      }
      this.synced = covers;
      this.fsyncs++;
      const waiting = this.waiters;
      this.waiters = [];
      for (const w of waiting) {
        if (w.commit <= covers) w.resolve();
        else this.waiters.push(w);
      }
      const work = this.afterSync;
      this.afterSync = [];
      for (const w of work) w();
      this.start();
    });
  }

  /** After a failed fsync the data's fate is unknown: refuse everything from then on. */
  private fail(error: Error): void {
    this.inFlight = false;
    this.failure = new Error(`cannot make the database durable: ${error.message}`);
    for (const w of this.waiters) w.reject(this.failure);
    this.waiters = [];
    // Queued work runs and meets the failure on its own durable() call.
    const work = this.afterSync;
    this.afterSync = [];
    for (const w of work) w();
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * When a group commit runs: `request()` runs `flush` after this turn of the event loop (the
 * requests it read are in) and once the running WAL fsync ends (a commit made during it would
 * wait for the next fsync anyway). Asked again before then, it still runs once, so whatever
 * arrived meanwhile is committed together: one commit and one fsync for all.
 */
export class FlushTrigger {
  private scheduled = false;

  constructor(
    private readonly wal: WalSync,
    private readonly flush: () => void,
  ) {}

  request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() =>
      this.wal.whenSynced(() => {
        this.scheduled = false;
        this.flush();
      }),
    );
  }
}
