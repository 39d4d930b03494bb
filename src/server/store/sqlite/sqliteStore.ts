import path from 'node:path';
import type Database from 'better-sqlite3';
import { uuidV7 } from '../../../common/uuidV7.ts';
import { WalDatabase, type WalDatabaseOptions } from '../../../durability/walDatabase.ts';
import { createPrivateFile, ensurePrivateDataDir } from '../../dataFiles.ts';
import { composeStore } from '../composeStore.ts';
import type { Store, WalletBook } from '../parts.ts';
import type { BlockRecord, NewBlock, UnitSource } from '../types.ts';
import { rollbackOf, toWalletBet, WALLET_BET_COLUMNS, type WalletBetRow } from '../walletRows.ts';
import { GroupCommit } from './groupCommit.ts';
import { migrate } from './migrations.ts';
import { SqlitePlayBatch } from './playBatch.ts';
import { SqliteDialect } from './sqliteDialect.ts';

export const SQLITE_FILE_NAME = 'spincake.sqlite';

export type SqliteStoreOptions = WalDatabaseOptions;

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
    const store = composeStore(dialect, {
      buyPlay: (request) => commits.buyPlay(request),
      observePlayBatches: (observer) => commits.observePlayBatches(observer),
      addBlock: (block, now) => dialect.afterCommit(addBlockNow(db, block, now)),
      ...cancellingBets(dialect, batch),
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

/** A bet cancelled with its rollback owed, in one transaction of its own. */
function cancellingBets(
  dialect: SqliteDialect,
  batch: SqlitePlayBatch,
): Pick<WalletBook, 'cancelWalletBet' | 'cancelStaleWalletBets'> {
  const { db } = dialect;
  const betByRequest = `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE request_id = ?`;
  const staleBets = `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE state = 'sending' AND deadline_at < ?`;
  return {
    async cancelWalletBet(requestId, rollbackRequestId, now, nextAttemptAt) {
      const at = now.toISOString();
      const cancelled = db.transaction(() => {
        const row = dialect.prepared(betByRequest).get(requestId) as WalletBetRow | undefined;
        if (!row || row.state !== 'sending') return false;
        batch.setBetState(requestId, 'cancelled', at);
        batch.insertOutbox([rollbackOf(toWalletBet(row), rollbackRequestId, at, nextAttemptAt.toISOString())]);
        return true;
      })();
      return dialect.afterCommit(cancelled);
    },

    async cancelStaleWalletBets(now) {
      const at = now.toISOString();
      const count = db.transaction(() => {
        const stale = dialect.prepared(staleBets).all(at) as WalletBetRow[];
        for (const row of stale) {
          batch.setBetState(row.request_id, 'cancelled', at);
          batch.insertOutbox([rollbackOf(toWalletBet(row), uuidV7(), at, at)]);
        }
        return stale.length;
      })();
      return count === 0 ? dialect.afterDurable(0) : dialect.afterCommit(count);
    },
  };
}
