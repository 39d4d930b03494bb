import Database from 'better-sqlite3';
import { WalCheckpointer } from './walCheckpointer.ts';
import { WalSync } from './walSync.ts';

export interface WalDatabaseOptions {
  /** Checkpoint the WAL from a worker thread (a serving process) rather than inside its commits. */
  checkpointInWorker?: boolean;
}

/**
 * A SQLite connection set up for group commit (docs/durability.md), as the game's SQLite
 * store and the reference wallet both use it. Undo copies of savepoints and statements stay
 * in memory rather than in a temporary file written page by page; without a checkpoint
 * worker, the commit that crosses 10,000 WAL pages checkpoints inline, copying each page once
 * however often it changed since the last.
 */
export class WalDatabase {
  readonly db: Database.Database;
  readonly wal: WalSync;
  private readonly checkpointer: WalCheckpointer | null;

  constructor(file: string, options: WalDatabaseOptions = {}) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('wal_autocheckpoint = 10000');
    this.wal = new WalSync(`${file}-wal`);
    this.checkpointer = options.checkpointInWorker ? new WalCheckpointer(file) : null;
  }

  /** Stops the checkpoint worker (if any), then closes the WAL's descriptor and the connection. */
  close(): Promise<void> {
    const closeNow = () => {
      this.wal.close();
      this.db.close();
    };
    if (this.checkpointer === null) {
      closeNow();
      return Promise.resolve();
    }
    return this.checkpointer.stop().then(closeNow);
  }
}
