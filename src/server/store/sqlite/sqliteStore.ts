import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Cents, StakeCents } from '../../../rules/index.ts';
import { uuidV7 } from '../../../common/uuidV7.ts';
import type { Launched } from '../../../contract/api.ts';
import type { BatchReads, BatchWrites, Outcome, PendingPlay as Pending, Settled, Waiting } from '../batchPlan.ts';
import { answerWhenDurable, blockWritesInOrder, emptyReads, planBatch, type OutboxInsert } from '../batchPlan.ts';
import { reportBatch } from '../batchObserver.ts';
import { adjustmentEntries, fundingEntries, type LedgerEntry } from '../ledgerRules.ts';
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
import { addBlockOnSale, maskFromLaunched, queueKey, toPlay, toPlayer } from '../rows.ts';
import type {
  BlockRecord,
  DemoPurge,
  NewBlock,
  PlayerKind,
  BuyRequest,
  BuyResult,
  PlayerRecord,
  PlayRecord,
  Store,
  UnitSource,
  WalletBetState,
} from '../types.ts';
import { WALLET_BALANCE_UPSERT, WalletBooks } from '../walletBooks.ts';
import type { WalletBetRow } from '../walletRows.ts';
import {
  OUTBOX_INSERT_COLUMNS,
  outboxInsertValues,
  rollbackOf,
  toWalletBet,
  WALLET_BET_COLUMNS,
} from '../walletRows.ts';
import { encodeUnit } from '../unitCode.ts';
import { purgeableDemoPlayers, purgeableParams, purgeStatements } from '../demoPurgeSql.ts';
import { createPrivateFile, ensurePrivateDataDir } from '../../dataFiles.ts';
import { migrate } from './migrations.ts';
import { WalDatabase, type WalDatabaseOptions } from '../../../durability/walDatabase.ts';
import { FlushTrigger, type WalSync } from '../../../durability/walSync.ts';

/** The values of one INSERT INTO plays, in column order (launched and finished keep their defaults). */
type PlayInsert = [
  playId: string,
  playerId: string,
  stakeCents: number,
  blockId: string | null,
  position: number | null,
  fixture: 0 | 1,
  unitCode: string,
  bells: number,
  points: number,
  jeu1Cents: number,
  jeu2Cents: number,
  winCents: number,
  balanceBeforeCents: number,
  balanceAfterCents: number,
  createdAt: string,
  pool: string | null,
];

export const SQLITE_FILE_NAME = 'spincake.sqlite';

/** A list of ids bound as one JSON array. */
const SQLITE_IDS = 'IN (SELECT value FROM json_each(?))';

export type SqliteStoreOptions = WalDatabaseOptions;

/** A write that rides the next group commit: it runs inside the batch's transaction and fails alone. */
interface QueuedWrite extends Waiting<unknown> {
  run: () => unknown;
}

/** What one group commit came to: each queued write's result, each play's outcome. */
interface Committed {
  written: Settled<unknown>[];
  outcomes: Outcome[];
}

/**
 * The embedded store. better-sqlite3 is synchronous, so transactions never interleave
 * within the process. Plays are group-committed: the plays that arrive while the previous
 * fsync runs share one transaction and one fsync. The batch is decided by planBatch (the
 * rules every store shares; a play that throws fails alone), then written; a failing write
 * or commit fails the whole batch, of which nothing is on disk or acknowledged. No promise
 * resolves before the commit is on disk.
 *
 * The wallet's books (`write`, `writeTogether`: a bet before it is sent, a settled win, a
 * retry, a balance noted) ride the same group commit, written before the batch's plays:
 * each small transaction would otherwise rewrite whole b-tree pages into the WAL. A queued
 * write that fails fails alone; a failing commit fails every call of the batch.
 */
export class SqliteStore extends WalletBooks implements Store {
  readonly db: Database.Database;
  private pending: Pending[] = [];
  private queued: QueuedWrite[] = [];
  private readonly units: UnitSource;
  private readonly s;
  private readonly wal: WalSync;
  /** Plays and writes gather until the next group commit. */
  private readonly flushSoon: FlushTrigger;
  /** The connection, its WAL fsyncs and checkpoints. */
  private readonly files: WalDatabase;
  /** Transaction functions, made once: better-sqlite3 builds a wrapper per call otherwise. */
  private readonly commitBatch: (writes: readonly QueuedWrite[], requests: BuyRequest[]) => Committed;
  /** Statements run together inside the batch's transaction: a savepoint, both or neither. */
  private readonly together: (statements: readonly (readonly [string, readonly unknown[]])[]) => void;
  /** The cold paths' statements (StoreCore), prepared on first use. */
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();
  protected readonly unfinished = 'finished = 0';
  protected readonly skipLocked = '';

  static open(dataDir: string, units: UnitSource, options: SqliteStoreOptions = {}): SqliteStore {
    ensurePrivateDataDir(dataDir);
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    createPrivateFile(file);
    return new SqliteStore(file, units, options);
  }

  constructor(file: string, units: UnitSource, options: SqliteStoreOptions = {}) {
    super();
    this.units = units;
    this.files = new WalDatabase(file, options);
    this.db = this.files.db;
    this.wal = this.files.wal;
    this.flushSoon = new FlushTrigger(this.wal, () => this.flush());
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.wal.committed();
    const db = this.db;
    // IMMEDIATE: the write lock is taken (or waited for) at BEGIN, never by a read that turns into a write.
    this.commitBatch = db.transaction((writes: readonly QueuedWrite[], requests: BuyRequest[]): Committed => {
      const written = writes.map((write) => this.runQueued(write));
      if (requests.length === 0) return { written, outcomes: [] };
      const { outcomes, writes: playWrites } = planBatch(requests, this.readForBatch(requests), this.units, encodeUnit);
      this.writeBatch(playWrites);
      return { written, outcomes };
    }).immediate;
    this.together = db.transaction((statements: readonly (readonly [string, readonly unknown[]])[]) => {
      for (const [text, params] of statements) this.prepared(text).run(...params);
    });
    this.s = {
      playById: db.prepare<[string], PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ?`),
      player: db.prepare<[string], PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?`),
      setBalance: db.prepare<[number, string]>('UPDATE players SET balance_cents = ? WHERE id = ?'),
      openBlock: db.prepare<[number, string], BlockRow>(
        `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE stake_cents = ? AND pool = ? AND status = 'open'`,
      ),
      setBlock: db.prepare<[number, string, string]>('UPDATE blocks SET next_position = ?, status = ? WHERE id = ?'),
      blocksOnSale: db.prepare<[number, string], BlockRow>(
        `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE stake_cents = ? AND pool = ? AND status IN ('open', 'queued')
         ORDER BY seq`,
      ),
      // Positional parameters: binding by name costs a lookup per column and play.
      insertPlay: db.prepare<PlayInsert>(
        `INSERT INTO plays (play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
         jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, created_at, pool)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertEntry: db.prepare<[string, string, number, string | null, string, string]>(
        'INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertPlayer: db.prepare<[string, string, number, string]>(
        'INSERT INTO players (id, kind, balance_cents, created_at) VALUES (?, ?, ?, ?)',
      ),
      setProgress: db.prepare<[number, string, string]>(
        'UPDATE plays SET launched = launched | ? WHERE play_id = ? AND player_id = ?',
      ),
      setFinished: db.prepare<[string, string]>(
        'UPDATE plays SET finished = 1, launched = 15 WHERE play_id = ? AND player_id = ?',
      ),
      betState: db.prepare<[string], { state: string }>('SELECT state FROM wallet_bets WHERE request_id = ?'),
      setBetState: db.prepare<[string, string, string]>(
        `UPDATE wallet_bets SET state = ?, resolved_at = ? WHERE request_id = ? AND state = 'sending'`,
      ),
      insertOutbox: db.prepare<ReturnType<typeof outboxInsertValues>>(
        `INSERT INTO wallet_outbox (${OUTBOX_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
      ),
      noteBalance: db.prepare<[string, number, string]>(WALLET_BALANCE_UPSERT),
    };
  }

  /** After a write: resolves with `value` once the write is on disk. */
  private async written<T>(value: T): Promise<T> {
    this.wal.committed();
    await this.wal.durable();
    return value;
  }

  private prepared(text: string): Database.Statement<unknown[], unknown> {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  protected async all<R>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.prepared(text).all(...params) as R[];
  }

  protected write<R>(text: string, params: readonly unknown[]): Promise<{ rows: R[]; changes: number }> {
    const statement = this.prepared(text);
    return this.inNextCommit(() => {
      if (!statement.reader) return { rows: [] as R[], changes: statement.run(...params).changes };
      const rows = statement.all(...params) as R[];
      return { rows, changes: rows.length };
    });
  }

  protected writeTogether(statements: readonly (readonly [string, readonly unknown[]])[]): Promise<void> {
    return this.inNextCommit(() => this.together(statements));
  }

  /** Runs `run` in the next group commit's transaction; resolves with its result once that is on disk. */
  private inNextCommit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ run, resolve: resolve as (result: unknown) => void, reject });
      this.flushSoon.request();
    });
  }

  /** A queued write inside the batch's transaction: its failure is its own, unless it ended the transaction. */
  private runQueued(write: QueuedWrite): Settled<unknown> {
    try {
      return { result: write.run() };
    } catch (error) {
      // SQLite rolls the whole transaction back on some errors (a full disk, I/O): nothing of the batch stands.
      if (!this.db.inTransaction) throw error;
      return { error };
    }
  }

  /** After a read: what it saw may include commits whose fsync is still running; wait for it. */
  protected async seen<T>(value: T): Promise<T> {
    await this.wal.durable();
    return value;
  }

  async close(): Promise<void> {
    // Let queued plays and writes commit first: their clients may already be waiting.
    while (this.pending.length > 0 || this.queued.length > 0) this.flush();
    await this.wal.durable().catch(() => {});
    await this.files.close();
  }

  async createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord> {
    const id = `demo-${randomUUID()}`;
    const at = now.toISOString();
    this.db.transaction(() => {
      this.s.insertPlayer.run(id, 'demo', balanceCents, at);
      this.insertEntries(fundingEntries(id, balanceCents, at));
    })();
    return this.written<PlayerRecord>({ id, kind: 'demo', balanceCents });
  }

  async purgeDemoPlayers(playerIds: readonly string[], cutoff: Date): Promise<DemoPurge> {
    if (playerIds.length === 0) return { playerIds: [], plays: 0 };
    const at = cutoff.toISOString();
    // One writer at a time: nothing sells between the check and the deletes.
    const purged = this.db
      .transaction((): DemoPurge => {
        const found = this.prepared(purgeableDemoPlayers(SQLITE_IDS)).all(
          ...purgeableParams(at, JSON.stringify(playerIds)),
        ) as { id: string; plays: number }[];
        if (found.length === 0) return { playerIds: [], plays: 0 };
        const ids = JSON.stringify(found.map((r) => r.id));
        for (const text of purgeStatements(SQLITE_IDS, 'scan')) this.prepared(text).run(ids);
        return { playerIds: found.map((r) => r.id), plays: found.reduce((n, r) => n + r.plays, 0) };
      })
      .immediate();
    return purged.playerIds.length === 0 ? this.seen(purged) : this.written(purged);
  }

  async ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord> {
    this.db
      .prepare(`INSERT OR IGNORE INTO players (id, kind, balance_cents, created_at) VALUES (?, 'portal', 0, ?)`)
      .run(playerId, now.toISOString());
    return this.written(toPlayer(this.s.player.get(playerId)!));
  }

  async addBlock(block: NewBlock, now: Date): Promise<BlockRecord> {
    return this.written(this.addBlockNow(block, now));
  }

  private addBlockNow(block: NewBlock, now: Date): BlockRecord {
    return this.db.transaction(() => {
      const seq = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM blocks').get() as { seq: number }).seq;
      const open = this.s.openBlock.get(block.stakeCents, block.pool);
      const status = open ? 'queued' : 'open';
      this.db
        .prepare(
          `INSERT INTO blocks (id, seq, stake_cents, pool, file_path, count, next_position, status, loaded_at)
           VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
        )
        .run(block.id, seq, block.stakeCents, block.pool, block.filePath, block.count, status, now.toISOString());
      return { ...block, nextPosition: 0, status } as BlockRecord;
    })();
  }

  buyPlay(request: BuyRequest): Promise<BuyResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      this.flushSoon.request();
    });
  }

  private flush(): void {
    const batch = this.pending;
    const writes = this.queued;
    this.pending = [];
    this.queued = [];
    if (batch.length === 0 && writes.length === 0) return;
    let committed: Committed;
    const startedAt = performance.now();
    try {
      committed = this.commitBatch(
        writes,
        batch.map((item) => item.request),
      );
    } catch (error) {
      // A write or the commit failed: nothing of the batch is on disk, nobody is acknowledged.
      for (const item of [...writes, ...batch]) item.reject(error);
      return;
    }
    const committedAt = performance.now();
    // Acknowledge only once the batch is on disk.
    this.wal.committed();
    const durable = this.wal.durable();
    answerWhenDurable(writes, committed.written, durable);
    answerWhenDurable(batch, committed.outcomes, durable);
    if (batch.length > 0) reportBatch(this.observer, committed.outcomes, startedAt, committedAt, durable);
  }

  /** The batch's state, read inside its transaction (nothing else writes meanwhile: SQLite has one writer). */
  private readForBatch(requests: readonly BuyRequest[]): BatchReads {
    const reads: BatchReads = emptyReads();
    for (const { playId, playerId, stakeCents, pool, fixtureUnit, wallet } of requests) {
      if (wallet) {
        const bet = this.s.betState.get(wallet.betRequestId);
        if (bet) reads.walletBets.set(wallet.betRequestId, bet.state as WalletBetState);
      }
      if (!reads.existing.has(playId)) {
        const row = this.s.playById.get(playId);
        if (row) reads.existing.set(playId, toPlay(row));
      }
      if (!reads.balances.has(playerId)) {
        const player = this.s.player.get(playerId);
        if (player) {
          reads.balances.set(playerId, player.balance_cents);
          reads.kinds.set(playerId, player.kind as PlayerKind);
        }
      }
      const queue = queueKey(stakeCents, pool);
      if (!fixtureUnit && !reads.blocks.has(queue)) {
        reads.blocks.set(queue, []);
        for (const row of this.s.blocksOnSale.all(stakeCents, pool)) addBlockOnSale(reads.blocks, row);
      }
    }
    return reads;
  }

  private insertEntries(entries: readonly LedgerEntry[]): void {
    for (const e of entries) this.s.insertEntry.run(e.txn, e.account, e.amountCents, e.playId, e.kind, e.createdAt);
  }

  private writeBatch(writes: BatchWrites): void {
    for (const [id, block] of blockWritesInOrder(writes.blocks)) {
      this.s.setBlock.run(block.nextPosition, block.status, id);
    }
    for (const { play, unitCode } of writes.plays) {
      this.s.insertPlay.run(
        play.playId,
        play.playerId,
        play.stakeCents,
        play.blockId,
        play.position,
        play.fixture ? 1 : 0,
        unitCode,
        play.bells,
        play.points,
        play.jeu1WinCents,
        play.jeu2WinCents,
        play.winCents,
        play.balanceBeforeCents,
        play.balanceAfterCents,
        play.createdAt,
        play.pool,
      );
    }
    this.insertEntries(writes.entries);
    for (const [playerId, balanceCents] of writes.balances) this.s.setBalance.run(balanceCents, playerId);
    for (const [requestId, { state, at }] of writes.walletBets) this.s.setBetState.run(state, at, requestId);
    this.insertOutbox(writes.outbox);
    for (const [playerId, { balanceCents, seenAt }] of writes.walletBalances) {
      this.s.noteBalance.run(playerId, balanceCents, seenAt);
    }
  }

  private insertOutbox(rows: readonly OutboxInsert[]): void {
    for (const row of rows) this.s.insertOutbox.run(...outboxInsertValues(row));
  }

  async cancelWalletBet(
    requestId: string,
    rollbackRequestId: string,
    now: Date,
    nextAttemptAt: Date,
  ): Promise<boolean> {
    const at = now.toISOString();
    const cancelled = this.db.transaction(() => {
      const row = this.db
        .prepare<[string], WalletBetRow>(`SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE request_id = ?`)
        .get(requestId);
      if (!row || row.state !== 'sending') return false;
      this.s.setBetState.run('cancelled', at, requestId);
      this.insertOutbox([rollbackOf(toWalletBet(row), rollbackRequestId, at, nextAttemptAt.toISOString())]);
      return true;
    })();
    return this.written(cancelled);
  }

  async cancelStaleWalletBets(now: Date): Promise<number> {
    const at = now.toISOString();
    const count = this.db.transaction(() => {
      const stale = this.db
        .prepare<[string], WalletBetRow>(
          `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE state = 'sending' AND deadline_at < ?`,
        )
        .all(at);
      for (const row of stale) {
        this.s.setBetState.run('cancelled', at, row.request_id);
        this.insertOutbox([rollbackOf(toWalletBet(row), uuidV7(), at, at)]);
      }
      return stale.length;
    })();
    return count === 0 ? this.seen(0) : this.written(count);
  }

  async recordProgress(playerId: string, playId: string, launched: Launched): Promise<PlayRecord | null> {
    const changed = this.s.setProgress.run(maskFromLaunched(launched), playId, playerId).changes;
    if (changed === 0) return this.seen(null);
    this.wal.committed();
    return this.getPlay(playerId, playId);
  }

  async finishPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
    const changed = this.s.setFinished.run(playId, playerId).changes;
    if (changed === 0) return this.seen(null);
    this.wal.committed();
    return this.getPlay(playerId, playId);
  }

  async setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null> {
    return this.written(this.setBalanceNow(playerId, balanceCents, now));
  }

  private setBalanceNow(playerId: string, balanceCents: Cents, now: Date): PlayerRecord | null {
    return this.db.transaction(() => {
      const player = this.s.player.get(playerId);
      if (!player) return null;
      const entries = adjustmentEntries(playerId, player.balance_cents, balanceCents, randomUUID(), now.toISOString());
      if (entries.length > 0) {
        this.insertEntries(entries);
        this.s.setBalance.run(balanceCents, playerId);
      }
      return { ...toPlayer(player), balanceCents };
    })();
  }

  async reloadDemo(request: DemoReloadRequest): Promise<DemoReloadResult> {
    const { playerId, reloadId } = request;
    const decision = this.db.transaction(() => {
      const row = this.s.player.get(playerId);
      const found = this.prepared(DEMO_RELOAD_FOUND).get(playerId, reloadId) !== undefined;
      const decided = decideDemoReload(row ? toPlayer(row) : null, found, request);
      if (decided.kind === 'reload') {
        const at = request.now.toISOString();
        this.prepared(DEMO_RELOAD_INSERT).run(playerId, reloadId, decided.fromCents, decided.toCents, at);
        this.insertEntries(demoReloadEntries(playerId, reloadId, decided.fromCents, decided.toCents, at));
        this.s.setBalance.run(decided.toCents, playerId);
      }
      return decided;
    })();
    const result = demoReloadResult(decision);
    return decision.kind === 'reload' ? this.written(result) : this.seen(result);
  }

  async closeBlocksOfStake(stakeCents: StakeCents): Promise<void> {
    this.db.prepare(`UPDATE blocks SET status = 'closed' WHERE stake_cents = ?`).run(stakeCents);
    return this.written(undefined);
  }

  async forceBlockCursor(blockId: string, nextPosition: number): Promise<void> {
    this.db.prepare('UPDATE blocks SET next_position = ? WHERE id = ?').run(nextPosition, blockId);
    return this.written(undefined);
  }

  async readSnapshot<T>(read: () => Promise<T>): Promise<T> {
    // A deferred transaction in WAL mode reads one snapshot, and blocks no writer.
    this.db.exec('BEGIN');
    try {
      return await read();
    } finally {
      this.db.exec('COMMIT');
    }
  }
}
