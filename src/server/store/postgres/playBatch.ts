import type pg from 'pg';
import { reportBatch, type PlayBatchObserver } from '../batchObserver.ts';
import type { BatchReads, BatchWrites, Outcome, PendingPlay } from '../batchPlan.ts';
import { answerWhenDurable, planBatch, splitBlockWrites } from '../batchPlan.ts';
import type { BlockRow, PlayerRow, PlayRow } from '../rows.ts';
import { addBlockOnSale, BLOCK_COLUMNS, PLAY_COLUMNS, PLAYER_COLUMNS, toPlay, type QueueKey } from '../rows.ts';
import type { BlockRecord, BuyRequest, BuyResult, PlayerKind, UnitSource, WalletBetState } from '../types.ts';
import { encodeUnit } from '../unitCode.ts';
import { sentTogether, settleInOrder, WRITE_BATCH_SQL, writeBatchParams } from './batchSql.ts';
import type { PostgresDialect } from './postgresDialect.ts';
import { walletWriteStatements } from './walletSql.ts';

/**
 * PostgreSQL's play batches, per instance: the plays that arrive while a transaction runs
 * share the next one, which locks the players and the stake's blocks (always in that order,
 * so that instances never deadlock each other), decides every play in memory from the
 * locked cursors, writes them in one statement and commits once. The block row is thus
 * held once per batch, not once per play. The batch commits without waiting for the disk
 * (see WalBarrier): the cursor is free again as soon as the COMMIT is done, and the plays
 * are answered once the log is flushed, while the next batch already runs.
 */
export class PostgresPlayBatches {
  private pending: PendingPlay[] = [];
  private flushing = false;
  private flushDone: Promise<void> = Promise.resolve();
  /** Told of every play batch (metrics); null: nobody. */
  private observer: PlayBatchObserver | null = null;

  constructor(
    private readonly dialect: PostgresDialect,
    private readonly units: UnitSource,
    private readonly maxBatch: number,
  ) {}

  observePlayBatches(observer: PlayBatchObserver | null): void {
    this.observer = observer;
  }

  buyPlay(request: BuyRequest): Promise<BuyResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (!this.flushing) this.startFlush();
    });
  }

  /** Resolves once the plays queued now are committed (closing: their clients may already be waiting). */
  async flushAll(): Promise<void> {
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) this.startFlush();
      await this.flushDone;
    }
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

  private async runBatch(batch: PendingPlay[]): Promise<void> {
    const requests = batch.map((p) => p.request);
    const { stats, wal } = this.dialect;
    let outcomes: Outcome[];
    const startedAt = performance.now();
    try {
      outcomes = await this.dialect.transaction((client) => this.buyInTransaction(client, requests), true);
    } catch (error) {
      // Nothing of the batch is committed (or, after a lost COMMIT, a retry by the client replays it).
      for (const item of batch) item.reject(error);
      return;
    }
    stats.batches++;
    stats.plays += outcomes.filter((o) => 'result' in o && o.result.ok && !o.result.replayed).length;
    // Answered once on disk; the flush loop goes on with the next batch meanwhile. A failed
    // flush leaves the batch's fate unknown: its clients retry with the same playIds.
    const committedAt = performance.now();
    const durable = wal.durable();
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
}
