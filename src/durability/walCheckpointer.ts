import { Worker } from 'node:worker_threads';

/** How often the worker copies the write-ahead log into the database. */
export const CHECKPOINT_EVERY_MS = 100;

/** What one checkpoint did: frames in the log, frames copied into the database (SQLite's own figures). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

// The worker's code: its own connection to the same file, a PASSIVE checkpoint on a timer or
// when asked. PASSIVE never waits for the writer nor blocks it; the writer restarts the log
// from its start at its next commit once every frame has been copied.
const WORKER_CODE = `
import { parentPort, workerData } from 'node:worker_threads';
const { default: Database } = await import(workerData.driver);
const db = new Database(workerData.file);
const checkpoint = () => {
  const [row] = db.pragma('wal_checkpoint(PASSIVE)');
  return { busy: row.busy, log: row.log, checkpointed: row.checkpointed };
};
const timer = setInterval(() => {
  try { checkpoint(); } catch (error) { parentPort.postMessage({ error: String(error) }); }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.kind === 'now') {
    try { parentPort.postMessage({ id: message.id, result: checkpoint() }); }
    catch (error) { parentPort.postMessage({ id: message.id, error: String(error) }); }
  } else if (message.kind === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

/**
 * Checkpoints a SQLite database's write-ahead log from a worker thread with a connection of
 * its own, every CHECKPOINT_EVERY_MS, so that the serving thread only appends to the log
 * (docs/durability.md: SQLite's own checkpoint would stall the commit that crosses its
 * threshold, and every request behind it).
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  private readonly exited: Promise<void>;

  constructor(file: string, options: { everyMs?: number; onError?: (message: string) => void } = {}) {
    this.worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER_CODE)}`), {
      workerData: {
        file,
        driver: import.meta.resolve('better-sqlite3'),
        everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS,
      },
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // It never keeps the process alive: the store's close stops it.
    this.worker.unref();
    this.worker.on('message', (message: { id?: number; result?: CheckpointResult; error?: string }) => {
      if (message.id === undefined) return options.onError?.(`checkpoint: ${message.error}`);
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result!);
    });
    this.worker.on('error', (error) => options.onError?.(`checkpoint worker: ${error.message}`));
  }

  /** One checkpoint now (tests, and a store that wants the log copied before it stops). */
  checkpointNow(): Promise<CheckpointResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ kind: 'now', id });
    });
  }

  /** Stops the timer and closes the worker's connection: before the serving connection closes. */
  stop(): Promise<void> {
    // Held from now on: a process with nothing else to do would otherwise end before the worker.
    this.worker.ref();
    this.worker.postMessage({ kind: 'stop' });
    return this.exited;
  }
}
