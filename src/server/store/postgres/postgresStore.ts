import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Cents, Launched, StakeCents } from '../../../rules/index.ts';
import { decodeUnit, encodeUnit } from '../unitCode.ts';
import type {
  BlockRecord,
  BuyRequest,
  BuyResult,
  LedgerFacts,
  PlayerRecord,
  PlayRecord,
  PlaysQuery,
  SoldUnit,
  Store,
  UnitSource,
} from '../types.ts';
import {
  answerWhenDurable,
  planBatch,
  splitBlockWrites,
  type BatchReads,
  type BatchWrites,
  type Outcome,
  type PendingPlay as Pending,
} from '../batchPlan.ts';
import { sentTogether, settleInOrder, WRITE_BATCH_SQL, writeBatchParams } from './batchSql.ts';
import { migratePostgres } from './migrations.ts';
import { isConnectionLoss, isRetryable, MAX_ATTEMPTS, retryDelayMs } from './retry.ts';
import { WAL_BARRIER_SQL, WalBarrier } from './walBarrier.ts';
import {
  BLOCK_COLUMNS,
  PLAY_COLUMNS,
  maskFromLaunched,
  toBlock,
  toPlay,
  toPlayer,
  type BlockRow,
  type PlayerRow,
  type PlayRow,
} from './rows.ts';

export interface PostgresStoreOptions {
  /** Connections per instance (default 8): one carries the plays, the others reads and the rest. */
  poolSize?: number;
  /** Most plays in one transaction (default 256). */
  maxBatch?: number;
  /** Extra connection settings, e.g. `-c default_transaction_isolation=serializable` in tests. */
  options?: string;
}

/** Counters for tests and the benchmark: what the retries and the batches did. */
export interface PostgresStoreStats {
  batches: number;
  plays: number;
  retries: number;
  retriedCodes: Record<string, number>;
}

/** BIGINT columns hold cents and counts, all far below 2^53: numbers, not strings. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

const SOLD_UNITS_PAGE = 5000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keeps a URL's password out of messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/**
 * The PostgreSQL store, for several server instances on one database. Plays are
 * group-committed per instance: the plays that arrive while a transaction runs share
 * the next one, which locks the players and the stake's blocks (always in that order,
 * so that instances never deadlock each other), decides every play in memory from the
 * locked cursors, writes them in one statement and commits once. The block row is thus
 * held once per batch, not once per play. The batch commits without waiting for the disk
 * (see WalBarrier): the cursor is free again as soon as the COMMIT is done, and the plays
 * are answered once the log is flushed, while the next batch already runs. Reads wait for
 * the same barrier, so no answer shows data that a crash could still take back.
 */
export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  readonly stats: PostgresStoreStats = { batches: 0, plays: 0, retries: 0, retriedCodes: {} };
  private readonly units: UnitSource;
  private readonly maxBatch: number;
  private pending: Pending[] = [];
  private flushing = false;
  private flushDone: Promise<void> = Promise.resolve();
  private snapshot: pg.PoolClient | null = null;
  private readonly wal = new WalBarrier(() => this.pool.query(WAL_BARRIER_SQL));

  static async connect(url: string, units: UnitSource, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const store = new PostgresStore(url, units, options);
    let client: pg.PoolClient;
    try {
      client = await store.pool.connect();
    } catch (error) {
      await store.pool.end();
      throw new Error(`cannot connect to PostgreSQL at ${redactUrl(url)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      await migratePostgres(client);
    } catch (error) {
      client.release(true);
      await store.pool.end();
      throw error;
    }
    client.release();
    return store;
  }

  private constructor(url: string, units: UnitSource, options: PostgresStoreOptions) {
    this.units = units;
    this.maxBatch = options.maxBatch ?? 256;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 8,
      types,
      options: options.options,
      connectionTimeoutMillis: 10_000,
      // Statements sent together travel together: a play batch takes two round trips.
      pipeline: true,
      application_name: 'spincake',
    });
    // An idle connection that dies (server restart, pg_terminate_backend) is dropped by the
    // pool; without a listener the error would end the process.
    this.pool.on('error', () => {});
  }

  private async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.snapshot) return this.snapshot.query<R>(text, values);
    return this.pool.query<R>(text, values);
  }

  /**
   * Runs `work` in a transaction on one connection, retried as a whole on a retryable
   * failure. With `ownsBoundaries`, `work` sends BEGIN and COMMIT itself (pipelined with
   * its statements).
   */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>, ownsBoundaries = false): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient | undefined;
      try {
        client = await this.pool.connect();
        if (!ownsBoundaries) await client.query('BEGIN');
        const value = await work(client);
        if (!ownsBoundaries) await client.query('COMMIT');
        client.release();
        return value;
      } catch (error) {
        if (client) {
          if (isConnectionLoss(error)) client.release(true);
          else {
            await client.query('ROLLBACK').then(
              () => client!.release(),
              () => client!.release(true),
            );
          }
        }
        if (!isRetryable(error) || attempt + 1 >= MAX_ATTEMPTS) throw error;
        this.stats.retries++;
        const code = String((error as { code?: unknown }).code ?? 'connection');
        this.stats.retriedCodes[code] = (this.stats.retriedCodes[code] ?? 0) + 1;
        await sleep(retryDelayMs(attempt));
      }
    }
  }

  async close(): Promise<void> {
    // Let queued plays commit first: their clients may already be waiting.
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) this.startFlush();
      await this.flushDone;
    }
    // And their answers, which wait for the log to be on disk.
    await this.wal.durable().catch(() => {});
    await this.pool.end();
  }

  async sessionKey(): Promise<Buffer> {
    await this.query(`INSERT INTO meta (key, value) VALUES ('session_key', $1) ON CONFLICT (key) DO NOTHING`, [
      randomBytes(32),
    ]);
    const row = await this.query<{ value: Buffer }>(`SELECT value FROM meta WHERE key = 'session_key'`);
    return row.rows[0]!.value;
  }

  async createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord> {
    const id = `demo-${randomUUID()}`;
    const at = now.toISOString();
    await this.transaction(async (c) => {
      await c.query(`INSERT INTO players (id, kind, balance_cents, created_at) VALUES ($1, 'demo', $2, $3)`, [
        id,
        balanceCents,
        at,
      ]);
      if (balanceCents > 0) {
        const txn = `funding:${id}`;
        await c.query(
          `INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at)
           VALUES ($1, 'house:demo-funding', $2, NULL, 'funding', $4), ($1, $3, $5, NULL, 'funding', $4)`,
          [txn, -balanceCents, `player:${id}`, at, balanceCents],
        );
      }
    });
    return { id, kind: 'demo', balanceCents };
  }

  async ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord> {
    await this.query(
      `INSERT INTO players (id, kind, balance_cents, created_at) VALUES ($1, 'portal', 0, $2) ON CONFLICT (id) DO NOTHING`,
      [playerId, now.toISOString()],
    );
    return (await this.getPlayer(playerId))!;
  }

  /** After a read: what it saw may come from a batch whose log flush is still running. */
  private async seen<T>(value: T): Promise<T> {
    if (!this.snapshot) await this.wal.durable();
    return value;
  }

  async getPlayer(playerId: string): Promise<PlayerRecord | null> {
    const { rows } = await this.query<PlayerRow>('SELECT id, kind, balance_cents FROM players WHERE id = $1', [
      playerId,
    ]);
    return this.seen(rows[0] ? toPlayer(rows[0]) : null);
  }

  async addBlock(block: Omit<BlockRecord, 'nextPosition' | 'status'>, now: Date): Promise<BlockRecord> {
    return this.transaction(async (c) => {
      // Loads of the same stake from two instances wait for each other: one opens, one queues.
      await c.query('SELECT pg_advisory_xact_lock($1, $2)', [0x5b1c_ca4e, block.stakeCents]);
      const open = await c.query(`SELECT 1 FROM blocks WHERE stake_cents = $1 AND status = 'open'`, [block.stakeCents]);
      const status = open.rowCount ? 'queued' : 'open';
      await c.query(
        `INSERT INTO blocks (id, stake_cents, file_path, count, next_position, status, loaded_at)
         VALUES ($1, $2, $3, $4, 0, $5, $6)`,
        [block.id, block.stakeCents, block.filePath, block.count, status, now.toISOString()],
      );
      return { ...block, nextPosition: 0, status } as BlockRecord;
    });
  }

  async listBlocks(): Promise<BlockRecord[]> {
    const { rows } = await this.query<BlockRow>(`SELECT ${BLOCK_COLUMNS} FROM blocks ORDER BY seq`);
    return rows.map(toBlock);
  }

  async stakesWithUnits(): Promise<Set<StakeCents>> {
    const { rows } = await this.query<{ stake_cents: number }>(
      `SELECT DISTINCT stake_cents FROM blocks WHERE status IN ('open', 'queued') AND next_position < count`,
    );
    return new Set(rows.map((r) => r.stake_cents as StakeCents));
  }

  buyPlay(request: BuyRequest): Promise<BuyResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (!this.flushing) this.startFlush();
    });
  }

  private startFlush(): void {
    this.flushing = true;
    // One turn of the event loop first, so that the plays that arrive together share the batch.
    this.flushDone = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        await this.runBatch(batch);
      }
      this.flushing = false;
    });
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    const requests = batch.map((p) => p.request);
    let outcomes: Outcome[];
    try {
      outcomes = await this.transaction((client) => this.buyInTransaction(client, requests), true);
    } catch (error) {
      // Nothing of the batch is committed (or, after a lost COMMIT, a retry by the client replays it).
      for (const item of batch) item.reject(error);
      return;
    }
    this.stats.batches++;
    this.stats.plays += outcomes.filter((o) => 'result' in o && o.result.ok && !o.result.replayed).length;
    // Answered once on disk; the flush loop goes on with the next batch meanwhile. A failed
    // flush leaves the batch's fate unknown: its clients retry with the same playIds.
    answerWhenDurable(batch, outcomes, this.wal.durable());
  }

  /**
   * The batch in two round trips: BEGIN and the locking reads go together, then, once the
   * batch is decided in memory, the writes and COMMIT go together (the connection
   * pipelines them). The block rows stay locked from the first trip's answer to the
   * commit: one wake-up of this process, not one per statement.
   */
  private async buyInTransaction(client: pg.PoolClient, requests: readonly BuyRequest[]): Promise<Outcome[]> {
    const reads = await this.readForBatch(client, requests);
    const { outcomes, writes } = planBatch(requests, reads, this.units, encodeUnit);
    await this.writeBatchAndCommit(client, writes);
    return outcomes;
  }

  private async readForBatch(client: pg.PoolClient, requests: readonly BuyRequest[]): Promise<BatchReads> {
    const playIds = [...new Set(requests.map((r) => r.playId))];
    // Players first, then blocks, each in a fixed order: every batch of every instance
    // takes its locks in the same order, so batches queue instead of deadlocking.
    const playerIds = [...new Set(requests.map((r) => r.playerId))].sort();
    const stakes = [...new Set(requests.filter((r) => !r.fixtureUnit).map((r) => r.stakeCents))].sort((a, b) => a - b);
    const [, , existingRows, playerRows, blockRows] = await settleInOrder(
      sentTogether(
        client,
        () =>
          [
            client.query('BEGIN'),
            // Locks go at COMMIT, not after the flush; the answers wait for the WalBarrier.
            client.query('SET LOCAL synchronous_commit = off'),
            client.query<PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ANY($1)`, [playIds]),
            client.query<PlayerRow>(
              'SELECT id, kind, balance_cents FROM players WHERE id = ANY($1) ORDER BY id FOR UPDATE',
              [playerIds],
            ),
            stakes.length === 0
              ? Promise.resolve(null)
              : client.query<BlockRow>(
                  `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE stake_cents = ANY($1) AND status IN ('open', 'queued')
             ORDER BY stake_cents, seq FOR UPDATE`,
                  [stakes],
                ),
          ] as const,
      ),
    );
    const existing = new Map(existingRows.rows.map((row) => [row.play_id, toPlay(row)]));
    const balances = new Map(playerRows.rows.map((row) => [row.id, row.balance_cents]));
    const blocks = new Map<StakeCents, BlockRecord[]>();
    for (const row of blockRows?.rows ?? []) {
      const list = blocks.get(row.stake_cents as StakeCents) ?? [];
      // The open block sells first, whatever its place in the queue.
      if (row.status === 'open') list.unshift(toBlock(row));
      else list.push(toBlock(row));
      blocks.set(row.stake_cents as StakeCents, list);
    }
    return { existing, balances, blocks };
  }

  private async writeBatchAndCommit(client: pg.PoolClient, writes: BatchWrites): Promise<void> {
    const statements: Promise<pg.QueryResult | null>[] = [];
    // Blocks that open are written after the others close (in a second statement).
    const { first, opening } = splitBlockWrites(writes.blocks);
    sentTogether(client, () => {
      if (writes.plays.length > 0 || first.length > 0) {
        statements.push(client.query(WRITE_BATCH_SQL, writeBatchParams(writes, first)));
      }
      if (opening.length > 0) {
        statements.push(
          client.query(
            `UPDATE blocks b SET next_position = u.next, status = u.status
           FROM unnest($1::text[], $2::int[], $3::text[]) AS u(id, next, status) WHERE b.id = u.id`,
            [opening.map(([id]) => id), opening.map(([, b]) => b.nextPosition), opening.map(([, b]) => b.status)],
          ),
        );
      }
      statements.push(client.query('COMMIT'));
    });
    const results = await settleInOrder(statements);
    // After a failed statement PostgreSQL answers COMMIT with ROLLBACK; settleInOrder has
    // thrown that statement's error already, this is the last guard.
    if (results[results.length - 1]!.command !== 'COMMIT') throw new Error('the play transaction was rolled back');
  }

  async getPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
    const { rows } = await this.query<PlayRow>(
      `SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = $1 AND player_id = $2`,
      [playId, playerId],
    );
    return this.seen(rows[0] ? toPlay(rows[0]) : null);
  }

  async listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }> {
    let beforeSeq = Number.MAX_SAFE_INTEGER;
    if (query.beforePlayId !== undefined) {
      const found = await this.query<{ seq: number }>('SELECT seq FROM plays WHERE player_id = $1 AND play_id = $2', [
        query.playerId,
        query.beforePlayId,
      ]);
      if (!found.rows[0]) return this.seen({ plays: [], more: false });
      beforeSeq = found.rows[0].seq;
    }
    const { rows } = await this.query<PlayRow>(
      `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
      [query.playerId, beforeSeq, query.limit + 1],
    );
    return this.seen({ plays: rows.slice(0, query.limit).map((row) => toPlay(row)), more: rows.length > query.limit });
  }

  async latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null> {
    const { rows } = await this.query<PlayRow>(
      `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = $1 AND NOT finished ORDER BY seq DESC LIMIT 1`,
      [playerId],
    );
    return this.seen(rows[0] ? toPlay(rows[0]) : null);
  }

  // These two commit synchronously (an UPDATE always writes): their own flush covers the
  // batch that stored the play, so they need no barrier.
  async recordProgress(playerId: string, playId: string, launched: Launched): Promise<PlayRecord | null> {
    const { rows } = await this.query<PlayRow>(
      `UPDATE plays SET launched = launched | $1 WHERE play_id = $2 AND player_id = $3 RETURNING ${PLAY_COLUMNS}`,
      [maskFromLaunched(launched), playId, playerId],
    );
    return rows[0] ? toPlay(rows[0]) : null;
  }

  async finishPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
    const { rows } = await this.query<PlayRow>(
      `UPDATE plays SET finished = TRUE, launched = 15 WHERE play_id = $1 AND player_id = $2 RETURNING ${PLAY_COLUMNS}`,
      [playId, playerId],
    );
    return rows[0] ? toPlay(rows[0]) : null;
  }

  async setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null> {
    return this.transaction(async (c) => {
      const { rows } = await c.query<PlayerRow>(
        'SELECT id, kind, balance_cents FROM players WHERE id = $1 FOR UPDATE',
        [playerId],
      );
      const player = rows[0];
      if (!player) return null;
      const delta = balanceCents - player.balance_cents;
      if (delta !== 0) {
        const at = now.toISOString();
        const txn = `adjustment:${randomUUID()}`;
        await c.query(
          `INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at)
           VALUES ($1, 'house:adjustments', $2, NULL, 'adjustment', $4), ($1, $3, $5, NULL, 'adjustment', $4)`,
          [txn, -delta, `player:${playerId}`, at, delta],
        );
        await c.query('UPDATE players SET balance_cents = $1 WHERE id = $2', [balanceCents, playerId]);
      }
      return { ...toPlayer(player), balanceCents };
    });
  }

  async closeBlocksOfStake(stakeCents: StakeCents): Promise<void> {
    await this.query(`UPDATE blocks SET status = 'closed' WHERE stake_cents = $1`, [stakeCents]);
  }

  async forceBlockCursor(blockId: string, nextPosition: number): Promise<void> {
    await this.query('UPDATE blocks SET next_position = $1 WHERE id = $2', [nextPosition, blockId]);
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

  async ledgerFacts(): Promise<LedgerFacts> {
    const total = await this.query<{ s: number }>('SELECT COALESCE(SUM(amount_cents), 0)::bigint AS s FROM entries');
    const unbalanced = await this.query<{ txn: string; s: number }>(
      'SELECT txn, SUM(amount_cents)::bigint AS s FROM entries GROUP BY txn HAVING SUM(amount_cents) <> 0',
    );
    const entryRows = await this.query<{
      play_id: string;
      stake_debits: number;
      stake_cents: number;
      prize_credits: number;
      prize_cents: number;
    }>(
      `SELECT play_id,
         COUNT(*) FILTER (WHERE kind = 'stake' AND account LIKE 'player:%' AND amount_cents < 0) AS stake_debits,
         (-COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'stake' AND account LIKE 'player:%'), 0))::bigint AS stake_cents,
         COUNT(*) FILTER (WHERE kind = 'prize' AND account LIKE 'player:%' AND amount_cents > 0) AS prize_credits,
         COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'prize' AND account LIKE 'player:%'), 0)::bigint AS prize_cents
       FROM entries WHERE play_id IS NOT NULL GROUP BY play_id`,
    );
    const playEntries: LedgerFacts['playEntries'] = new Map();
    for (const r of entryRows.rows) {
      playEntries.set(r.play_id, {
        stakeDebits: r.stake_debits,
        stakeCents: r.stake_cents,
        prizeCredits: r.prize_credits,
        prizeCents: r.prize_cents,
      });
    }
    const balances = await this.query<{ player_id: string; balance_cents: number; entries_cents: number }>(
      `SELECT p.id AS player_id, p.balance_cents, COALESCE(e.s, 0)::bigint AS entries_cents
       FROM players p
       LEFT JOIN (SELECT account, SUM(amount_cents) AS s FROM entries GROUP BY account) e ON e.account = 'player:' || p.id`,
    );
    const soldLots = await this.query<{ block_id: string; win_cents: number; n: number }>(
      'SELECT block_id, win_cents, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL GROUP BY block_id, win_cents',
    );
    const blocks = await this.listBlocks();
    const cursorRows = await this.query<{ block_id: string; n: number; lo: number; hi: number }>(
      `SELECT block_id, COUNT(*) AS n, MIN(position) AS lo, MAX(position) AS hi
       FROM plays WHERE block_id IS NOT NULL GROUP BY block_id`,
    );
    const byBlock = new Map(cursorRows.rows.map((r) => [r.block_id, r]));
    const duplicates = await this.query<{ block_id: string; position: number; n: number }>(
      `SELECT block_id, position, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL
       GROUP BY block_id, position HAVING COUNT(*) > 1`,
    );
    // Plays without any ledger entry must show up too.
    const bare = await this.query<{ play_id: string }>(
      'SELECT play_id FROM plays p WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.play_id = p.play_id)',
    );
    for (const r of bare.rows)
      playEntries.set(r.play_id, { stakeDebits: 0, stakeCents: 0, prizeCredits: 0, prizeCents: 0 });
    return {
      totalCents: total.rows[0]!.s,
      unbalancedTransactions: unbalanced.rows.map((r) => ({ txn: r.txn, sumCents: r.s })),
      playEntries,
      balances: balances.rows.map((r) => ({
        playerId: r.player_id,
        balanceCents: r.balance_cents,
        entriesCents: r.entries_cents,
      })),
      soldLots: soldLots.rows.map((r) => ({ blockId: r.block_id, lotCents: r.win_cents, count: r.n })),
      blockCursors: blocks.map((block) => {
        const r = byBlock.get(block.id);
        return { block, sold: r?.n ?? 0, minPosition: r?.lo ?? null, maxPosition: r?.hi ?? null };
      }),
      duplicateUnits: duplicates.rows.map((r) => ({ blockId: r.block_id, position: r.position, count: r.n })),
    };
  }

  async *soldUnits(): AsyncIterable<SoldUnit> {
    let afterSeq = 0;
    for (;;) {
      const { rows } = await this.query<{
        seq: number;
        play_id: string;
        block_id: string | null;
        position: number | null;
        stake_cents: number;
        unit_code: string;
        win_cents: number;
      }>(
        `SELECT seq, play_id, block_id, position, stake_cents, unit_code, win_cents FROM plays
         WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [afterSeq, SOLD_UNITS_PAGE],
      );
      for (const r of rows) {
        yield {
          playId: r.play_id,
          blockId: r.block_id,
          position: r.position,
          unit: decodeUnit(r.unit_code, r.stake_cents as StakeCents),
          winCents: r.win_cents,
        };
      }
      if (rows.length < SOLD_UNITS_PAGE) return;
      afterSeq = rows[rows.length - 1]!.seq;
    }
  }
}
