import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Cents, StakeCents } from '../../../rules/index.ts';
import type { Launched } from '../../../contract/api.ts';
import type { BatchReads, BatchWrites, Outcome, PendingPlay as Pending } from '../batchPlan.ts';
import { answerWhenDurable, planBatch, splitBlockWrites } from '../batchPlan.ts';
import { reportBatch } from '../batchObserver.ts';
import { adjustmentEntries, fundingEntries } from '../ledgerRules.ts';
import type { DemoReloadRequest, DemoReloadResult } from '../demoReload.ts';
import {
  DEMO_RELOAD_FOUND,
  DEMO_RELOAD_INSERT,
  decideDemoReload,
  demoReloadEntries,
  demoReloadResult,
} from '../demoReload.ts';
import type { BlockRow, PlayerRow, PlayRow } from '../rows.ts';
import { BLOCK_COLUMNS, PLAY_COLUMNS, PLAYER_COLUMNS } from '../rows.ts';
import { addBlockOnSale, maskFromLaunched, toPlay, toPlayer, type QueueKey } from '../rows.ts';
import type {
  BlockRecord,
  DemoPurge,
  NewBlock,
  PlayerKind,
  BuyRequest,
  BuyResult,
  NewWalletBet,
  PlayerRecord,
  PlayRecord,
  RecordBetResult,
  Store,
  UnitSource,
  WalletBetState,
} from '../types.ts';
import { WalletBooks } from '../walletBooks.ts';
import { encodeUnit } from '../unitCode.ts';
import { purgeableDemoPlayers, purgeableParams, purgeStatements } from '../demoPurgeSql.ts';
import { sentTogether, settleInOrder, WRITE_BATCH_SQL, writeBatchParams } from './batchSql.ts';
import { CANCEL_BET_SQL, CANCEL_STALE_BETS_SQL, walletWriteStatements } from './walletSql.ts';
import { insertBets, retryEntries, settleEntries, type OutboxRetry, type OutboxSettlement } from './walletSql.ts';
import { Gatherer } from './gatherer.ts';
import { migratePostgres } from './migrations.ts';
import {
  inTransaction,
  insertEntries,
  openPool,
  redactUrl,
  type PostgresStoreOptions,
  type PostgresStoreStats,
} from './connection.ts';
import { WAL_BARRIER_SQL, WalBarrier } from './walBarrier.ts';

export { redactUrl, type PostgresStoreOptions, type PostgresStoreStats };

/** A list of ids bound as one text[]. */
const POSTGRES_IDS = '= ANY(?::text[])';

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
 *
 * The wallet's per-play writes — a bet before it is sent, a win's or rollback's answer, a
 * retry — are gathered too: those that arrive together go in one statement (Gatherer),
 * committed synchronously, so durable when they are answered.
 */
export class PostgresStore extends WalletBooks implements Store {
  readonly pool: pg.Pool;
  readonly stats: PostgresStoreStats = { batches: 0, plays: 0, retries: 0, retriedCodes: {} };
  private readonly units: UnitSource;
  private readonly maxBatch: number;
  private pending: Pending[] = [];
  private flushing = false;
  private flushDone: Promise<void> = Promise.resolve();
  private snapshot: pg.PoolClient | null = null;
  private readonly wal = new WalBarrier(() => this.pool.query(WAL_BARRIER_SQL));
  // Straight on the pool: never on a readSnapshot's read-only connection.
  private readonly onPool = (text: string, values: unknown[]) => this.pool.query(text, values);
  private readonly bets: Gatherer<NewWalletBet, boolean>;
  private readonly settlements: Gatherer<OutboxSettlement, void>;
  private readonly retries: Gatherer<OutboxRetry, void>;
  /** StoreCore's statements, their `?` numbered for PostgreSQL. */
  private readonly numbered = new Map<string, string>();
  protected readonly unfinished = 'NOT finished';
  protected readonly skipLocked = ' FOR UPDATE SKIP LOCKED';

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
    super();
    this.units = units;
    this.maxBatch = options.maxBatch ?? 256;
    this.pool = openPool(url, options);
    this.bets = new Gatherer((bets) => insertBets(this.onPool, bets), this.maxBatch);
    this.settlements = new Gatherer((settled) => settleEntries(this.onPool, settled), this.maxBatch);
    this.retries = new Gatherer((retries) => retryEntries(this.onPool, retries), this.maxBatch);
  }

  /** A transaction on this store's pool (see inTransaction), its retries counted in `stats`. */
  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>, ownsBoundaries = false): Promise<T> {
    return inTransaction(this.pool, this.stats, work, ownsBoundaries);
  }

  private async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.snapshot) return this.snapshot.query<R>(text, values);
    return this.pool.query<R>(text, values);
  }

  /** A statement written with `?` placeholders, as PostgreSQL numbers them (cached). */
  private numberedText(text: string): string {
    let numbered = this.numbered.get(text);
    if (numbered === undefined) {
      let n = 0;
      this.numbered.set(text, (numbered = text.replace(/\?/g, () => `$${++n}`)));
    }
    return numbered;
  }

  protected async all<R>(text: string, params?: readonly unknown[]): Promise<R[]> {
    return (await this.query<R & pg.QueryResultRow>(this.numberedText(text), params as unknown[] | undefined)).rows;
  }

  /** A committed single statement (synchronous_commit on: durable when it answers). */
  protected async write<R>(text: string, params: readonly unknown[]): Promise<{ rows: R[]; changes: number }> {
    const result = await this.query<R & pg.QueryResultRow>(this.numberedText(text), params as unknown[]);
    return { rows: result.rows, changes: result.rowCount ?? 0 };
  }

  protected async writeTogether(statements: readonly (readonly [string, readonly unknown[]])[]): Promise<void> {
    await this.transaction(async (client) => {
      for (const [text, params] of statements) await client.query(this.numberedText(text), params as unknown[]);
    });
  }

  override async recordWalletBet(bet: NewWalletBet): Promise<RecordBetResult> {
    if (await this.bets.add(bet)) return { recorded: true };
    return { recorded: false, bet: await this.walletBet(bet.playId) };
  }

  override async settleOutbox(
    requestId: string,
    result: { state: 'done' | 'failed'; answerStatus: string; balanceCents: number | null },
    now: Date,
  ): Promise<void> {
    const { state, answerStatus, balanceCents } = result;
    await this.settlements.add({ requestId, state, answerStatus, balanceCents, settledAt: now.toISOString() });
  }

  override async retryOutbox(requestId: string, nextAttemptAt: Date, error: string): Promise<void> {
    await this.retries.add({ requestId, nextAttemptAt: nextAttemptAt.toISOString(), error: error.slice(0, 500) });
  }

  async cancelWalletBet(
    requestId: string,
    rollbackRequestId: string,
    now: Date,
    nextAttemptAt: Date,
  ): Promise<boolean> {
    const result = await this.query(CANCEL_BET_SQL, [
      now.toISOString(),
      requestId,
      rollbackRequestId,
      nextAttemptAt.toISOString(),
    ]);
    return result.rowCount === 1;
  }

  async cancelStaleWalletBets(now: Date): Promise<number> {
    return (await this.query(CANCEL_STALE_BETS_SQL, [now.toISOString()])).rowCount ?? 0;
  }

  async close(): Promise<void> {
    // Let queued plays commit first: their clients may already be waiting.
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) this.startFlush();
      await this.flushDone;
    }
    // And their answers, which wait for the log to be on disk, and the wallet's gathered writes.
    await this.wal.durable().catch(() => {});
    await Promise.all([this.bets.idle(), this.settlements.idle(), this.retries.idle()]);
    await this.pool.end();
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
      await insertEntries(c, fundingEntries(id, balanceCents, at));
    });
    return { id, kind: 'demo', balanceCents };
  }

  async purgeDemoPlayers(playerIds: readonly string[], cutoff: Date): Promise<DemoPurge> {
    if (playerIds.length === 0) return { playerIds: [], plays: 0 };
    const at = cutoff.toISOString();
    return this.transaction(async (c) => {
      // Locked in id order, as a play batch locks its players: a batch in flight for one of
      // them ends first, and the check below (a statement of its own) sees its play.
      await c.query('SELECT id FROM players WHERE id = ANY($1) ORDER BY id FOR UPDATE', [[...playerIds]]);
      const found = await c.query<{ id: string; plays: number }>(
        this.numberedText(purgeableDemoPlayers(POSTGRES_IDS)),
        purgeableParams(at, [...playerIds]),
      );
      if (found.rows.length === 0) return { playerIds: [], plays: 0 };
      const ids = found.rows.map((r) => r.id);
      for (const text of purgeStatements(POSTGRES_IDS, 'indexed')) await c.query(this.numberedText(text), [ids]);
      return { playerIds: ids, plays: found.rows.reduce((n, r) => n + Number(r.plays), 0) };
    });
  }

  async ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord> {
    await this.query(
      `INSERT INTO players (id, kind, balance_cents, created_at) VALUES ($1, 'portal', 0, $2) ON CONFLICT (id) DO NOTHING`,
      [playerId, now.toISOString()],
    );
    return (await this.getPlayer(playerId))!;
  }

  /** After a read: what it saw may come from a batch whose log flush is still running. */
  protected async seen<T>(value: T): Promise<T> {
    if (!this.snapshot) await this.wal.durable();
    return value;
  }

  async addBlock(block: NewBlock, now: Date): Promise<BlockRecord> {
    return this.transaction(async (c) => {
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
    const startedAt = performance.now();
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
    const committedAt = performance.now();
    const durable = this.wal.durable();
    answerWhenDurable(batch, outcomes, durable);
    reportBatch(this.observer, outcomes, startedAt, committedAt, durable);
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
    const pools = [...new Set(requests.filter((r) => !r.fixtureUnit).map((r) => r.pool))].sort();
    const bets = requests.flatMap((r) => (r.wallet ? [r.wallet.betRequestId] : [])).sort();
    const [, , existingRows, playerRows, blockRows, betRows] = await settleInOrder(
      sentTogether(
        client,
        () =>
          [
            client.query('BEGIN'),
            // Locks go at COMMIT, not after the flush; the answers wait for the WalBarrier.
            client.query('SET LOCAL synchronous_commit = off'),
            client.query<PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ANY($1)`, [playIds]),
            client.query<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ANY($1) ORDER BY id FOR UPDATE`, [
              playerIds,
            ]),
            stakes.length === 0
              ? Promise.resolve(null)
              : client.query<BlockRow>(
                  `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE stake_cents = ANY($1) AND pool = ANY($2)
             AND status IN ('open', 'queued') ORDER BY stake_cents, seq FOR UPDATE`,
                  [stakes, pools],
                ),
            // Last: a stale-bet rollback locks only these rows, so no lock cycle is possible.
            bets.length === 0
              ? Promise.resolve(null)
              : client.query<{ request_id: string; state: string }>(
                  'SELECT request_id, state FROM wallet_bets WHERE request_id = ANY($1) ORDER BY request_id FOR UPDATE',
                  [bets],
                ),
          ] as const,
      ),
    );
    const existing = new Map(existingRows.rows.map((row) => [row.play_id, toPlay(row)]));
    const balances = new Map(playerRows.rows.map((row) => [row.id, row.balance_cents]));
    const kinds = new Map(playerRows.rows.map((row) => [row.id, row.kind as PlayerKind]));
    const blocks = new Map<QueueKey, BlockRecord[]>();
    for (const row of blockRows?.rows ?? []) addBlockOnSale(blocks, row);
    const walletBets = new Map((betRows?.rows ?? []).map((row) => [row.request_id, row.state as WalletBetState]));
    return { existing, balances, kinds, blocks, walletBets };
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
      for (const [text, values] of walletWriteStatements(writes)) statements.push(client.query(text, values));
      statements.push(client.query('COMMIT'));
    });
    const results = await settleInOrder(statements);
    // After a failed statement PostgreSQL answers COMMIT with ROLLBACK; settleInOrder has
    // thrown that statement's error already, this is the last guard.
    if (results[results.length - 1]!.command !== 'COMMIT') throw new Error('the play transaction was rolled back');
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
      const { rows } = await c.query<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = $1 FOR UPDATE`, [
        playerId,
      ]);
      const player = rows[0];
      if (!player) return null;
      const entries = adjustmentEntries(playerId, player.balance_cents, balanceCents, randomUUID(), now.toISOString());
      if (entries.length > 0) {
        await insertEntries(c, entries);
        await c.query('UPDATE players SET balance_cents = $1 WHERE id = $2', [balanceCents, playerId]);
      }
      return { ...toPlayer(player), balanceCents };
    });
  }

  async reloadDemo(request: DemoReloadRequest): Promise<DemoReloadResult> {
    const { playerId, reloadId } = request;
    const decision = await this.transaction(async (c) => {
      // The player's row locked first, as a play batch does: a retry sent at once waits here, then finds the reload.
      const { rows } = await c.query<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = $1 FOR UPDATE`, [
        playerId,
      ]);
      const found = await c.query(this.numberedText(DEMO_RELOAD_FOUND), [playerId, reloadId]);
      const decided = decideDemoReload(rows[0] ? toPlayer(rows[0]) : null, (found.rowCount ?? 0) > 0, request);
      if (decided.kind === 'reload') {
        const at = request.now.toISOString();
        await c.query(this.numberedText(DEMO_RELOAD_INSERT), [
          playerId,
          reloadId,
          decided.fromCents,
          decided.toCents,
          at,
        ]);
        await insertEntries(c, demoReloadEntries(playerId, reloadId, decided.fromCents, decided.toCents, at));
        await c.query('UPDATE players SET balance_cents = $1 WHERE id = $2', [decided.toCents, playerId]);
      }
      return decided;
    });
    const result = demoReloadResult(decision);
    // Committed synchronously: durable. A refusal or a replay read rows a batch may not have flushed yet.
    return decision.kind === 'reload' ? result : this.seen(result);
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
}
