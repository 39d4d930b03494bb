import type pg from 'pg';
import { composeStore } from '../composeStore.ts';
import type { IdList } from '../demoPurgeBook.ts';
import type { Store, WalletBook } from '../parts.ts';
import type { BlockRecord, NewBlock, NewWalletBet, UnitSource } from '../types.ts';
import { createWalletBook } from '../walletBooks.ts';
import { openPool, redactUrl, type PostgresStoreOptions, type PostgresStoreStats } from './connection.ts';
import { Gatherer } from './gatherer.ts';
import { migratePostgres } from './migrations.ts';
import { PostgresPlayBatches } from './playBatch.ts';
import { PostgresDialect } from './postgresDialect.ts';
import { CANCEL_BET_SQL, CANCEL_STALE_BETS_SQL } from './walletSql.ts';
import { insertBets, retryEntries, settleEntries, type OutboxRetry, type OutboxSettlement } from './walletSql.ts';

export { redactUrl, type PostgresStoreOptions, type PostgresStoreStats };

/** A list of ids bound as one text[]; entries are indexed by play and by account. */
const POSTGRES_IDS: IdList = { match: '= ANY(?::text[])', bind: (ids) => [...ids], entries: 'indexed' };

/**
 * The PostgreSQL store, for several server instances on one database: the parts on
 * PostgreSQL's dialect, the plays group-committed per instance (PostgresPlayBatches).
 * Reads wait for the same barrier as the plays' answers, so no answer shows data that a
 * crash could still take back.
 *
 * The wallet's per-play writes — a bet before it is sent, a win's or rollback's answer, a
 * retry — are gathered too: those that arrive together go in one statement (Gatherer),
 * committed synchronously, so durable when they are answered.
 */
export type PostgresStore = Store & {
  readonly pool: pg.Pool;
  readonly stats: PostgresStoreStats;
  readonly dialect: PostgresDialect;
};

export const PostgresStore = {
  async connect(url: string, units: UnitSource, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pool = openPool(url, options);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end();
      throw new Error(`cannot connect to PostgreSQL at ${redactUrl(url)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      await migratePostgres(client);
    } catch (error) {
      client.release(true);
      await pool.end();
      throw error;
    }
    client.release();
    return assemble(pool, units, options.maxBatch ?? 256);
  },
};

function assemble(pool: pg.Pool, units: UnitSource, maxBatch: number): PostgresStore {
  const dialect = new PostgresDialect(pool);
  const batches = new PostgresPlayBatches(dialect, units, maxBatch);
  const gathered = gatheredWalletWrites(dialect, maxBatch);
  const store = composeStore(dialect, POSTGRES_IDS, {
    buyPlay: (request) => batches.buyPlay(request),
    observePlayBatches: (observer) => batches.observePlayBatches(observer),
    addBlock: (block, now) => addBlock(dialect, block, now),
    ...gathered.book,
    async cancelWalletBet(requestId, rollbackRequestId, now, nextAttemptAt) {
      const at = [now.toISOString(), requestId, rollbackRequestId, nextAttemptAt.toISOString()];
      return (await dialect.query(CANCEL_BET_SQL, at)).rowCount === 1;
    },
    async cancelStaleWalletBets(now) {
      return (await dialect.query(CANCEL_STALE_BETS_SQL, [now.toISOString()])).rowCount ?? 0;
    },
    async close() {
      // Let queued plays commit first: their clients may already be waiting.
      await batches.flushAll();
      // And their answers, which wait for the log to be on disk, and the wallet's gathered writes.
      await dialect.wal.durable().catch(() => {});
      await gathered.idle();
      await pool.end();
    },
  });
  return { ...store, pool, stats: dialect.stats, dialect };
}

function addBlock(dialect: PostgresDialect, block: NewBlock, now: Date): Promise<BlockRecord> {
  return dialect.transaction(async (c) => {
    // Loads of the same stake from two instances wait for each other: one opens, one queues.
    await c.query('SELECT pg_advisory_xact_lock($1, $2)', [0x5b1c_ca4e, block.stakeCents]);
    const open = await c.query(`SELECT 1 FROM blocks WHERE stake_cents = $1 AND pool = $2 AND status = 'open'`, [
      block.stakeCents,
      block.pool,
    ]);
    const status = open.rowCount ? 'queued' : 'open';
    await c.query(
      `INSERT INTO blocks (id, stake_cents, pool, file_path, count, next_position, status, loaded_at)
       VALUES ($1, $2, $3, $4, $5, 0, $6, $7)`,
      [block.id, block.stakeCents, block.pool, block.filePath, block.count, status, now.toISOString()],
    );
    return { ...block, nextPosition: 0, status } as BlockRecord;
  });
}

/** A play's wallet writes that arrive together, in one statement each kind (instead of the one-row ones). */
function gatheredWalletWrites(dialect: PostgresDialect, maxBatch: number) {
  // Straight on the pool: never on a readSnapshot's read-only connection.
  const onPool = (text: string, values: unknown[]) => dialect.pool.query(text, values);
  const bets = new Gatherer<NewWalletBet, boolean>((gathered) => insertBets(onPool, gathered), maxBatch);
  const settlements = new Gatherer<OutboxSettlement, void>((settled) => settleEntries(onPool, settled), maxBatch);
  const retries = new Gatherer<OutboxRetry, void>((gathered) => retryEntries(onPool, gathered), maxBatch);
  const { walletBet } = createWalletBook(dialect);
  const book: Pick<WalletBook, 'recordWalletBet' | 'settleOutbox' | 'retryOutbox'> = {
    async recordWalletBet(bet) {
      if (await bets.add(bet)) return { recorded: true };
      return { recorded: false, bet: await walletBet(bet.playId) };
    },
    async settleOutbox(requestId, result, now) {
      const { state, answerStatus, balanceCents } = result;
      await settlements.add({ requestId, state, answerStatus, balanceCents, settledAt: now.toISOString() });
    },
    async retryOutbox(requestId, nextAttemptAt, error) {
      await retries.add({ requestId, nextAttemptAt: nextAttemptAt.toISOString(), error: error.slice(0, 500) });
    },
  };
  return { book, idle: () => Promise.all([bets.idle(), settlements.idle(), retries.idle()]) };
}
