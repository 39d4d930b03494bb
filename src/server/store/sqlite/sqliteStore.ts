import path from 'node:path';
import type Database from 'better-sqlite3';
import { WalDatabase, type WalDatabaseOptions } from '../../../durability/walDatabase.ts';
import { createPrivateFile, ensurePrivateDataDir } from '../../dataFiles.ts';
import { uuidV7 } from '../../../common/uuidV7.ts';
import { composeStore } from '../composeStore.ts';
import type { IdList } from '../demoPurgeBook.ts';
import type { Store } from '../parts.ts';
import type { BlockRecord, NewBlock, UnitSource } from '../types.ts';
import { cancelStaleBets } from '../walletBooks.ts';
import { GroupCommit } from './groupCommit.ts';
import { migrate } from './migrations.ts';
import { SqlitePlayBatch } from './playBatch.ts';
import { SqliteDialect } from './sqliteDialect.ts';

export const SQLITE_FILE_NAME = 'spincake.sqlite';

export type SqliteStoreOptions = WalDatabaseOptions;

/** A list of ids bound as one JSON array; entries have no index but their rowid (each play appends to them). */
const SQLITE_IDS: IdList = { match: 'IN (SELECT value FROM json_each(?))', bind: JSON.stringify, entries: 'scan' };

/** The embedded store: the parts on SQLite's dialect, plays and writes group-committed (GroupCommit). */
export type SqliteStore = Store & {
  readonly db: Database.Database;
  readonly dialect: SqliteDialect;
};

export const SqliteStore = {
  /** The store of a data directory (created private if new). */
  open(dataDir: string, units: UnitSource, options: SqliteStoreOptions = {}): SqliteStore {
    ensurePrivateDataDir(dataDir);
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    createPrivateFile(file);
    return SqliteStore.atFile(file, units, options);
  },

  atFile(file: string, units: UnitSource, options: SqliteStoreOptions = {}): SqliteStore {
    // The connection, its WAL fsyncs and checkpoints.
    const files = new WalDatabase(file, options);
    const { db, wal } = files;
    db.pragma('foreign_keys = ON');
    migrate(db);
    wal.committed();
    const batch = new SqlitePlayBatch(db, units);
    const commits = new GroupCommit(db, wal, (requests) => batch.sell(requests));
    const dialect = new SqliteDialect(db, wal, commits);
    const store = composeStore(dialect, SQLITE_IDS, {
      buyPlay: (request) => commits.buyPlay(request),
      observePlayBatches: (observer) => commits.observePlayBatches(observer),
      addBlock: (block, now) => dialect.afterCommit(addBlockNow(db, block, now)),
      cancelStaleWalletBets: (now) => cancelStaleBets(dialect, now, uuidV7),
      async close() {
        // Let queued plays and writes commit first: their clients may already be waiting.
        commits.flushAll();
        await wal.durable().catch(() => {});
        await files.close();
      },
    });
    return { ...store, db, dialect };
  },
};

function addBlockNow(db: Database.Database, block: NewBlock, now: Date): BlockRecord {
  return db.transaction(() => {
    const seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM blocks').get() as { seq: number }).seq;
    const open = db
      .prepare(`SELECT 1 FROM blocks WHERE stake_cents = ? AND pool = ? AND status = 'open'`)
      .get(block.stakeCents, block.pool);
    const status = open ? 'queued' : 'open';
    db.prepare(
      `INSERT INTO blocks (id, seq, stake_cents, pool, file_path, count, next_position, status, loaded_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    ).run(block.id, seq, block.stakeCents, block.pool, block.filePath, block.count, status, now.toISOString());
    return { ...block, nextPosition: 0, status } as BlockRecord;
  })();
}
