import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type Cents, type Launched, type StakeCents, type Unit } from '../../../rules/index.ts';
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
  blockWritesInOrder,
  planBatch,
  type BatchReads,
  type BatchWrites,
  type Outcome,
  type PendingPlay as Pending,
} from '../batchPlan.ts';
import { migrate } from './migrations.ts';
import { WalSync } from './walSync.ts';

interface PlayRow {
  play_id: string;
  player_id: string;
  stake_cents: number;
  block_id: string | null;
  position: number | null;
  fixture: number;
  unit_code: string;
  bells: number;
  points: number;
  jeu1_cents: number;
  jeu2_cents: number;
  win_cents: number;
  balance_before_cents: number;
  balance_after_cents: number;
  launched: number;
  finished: number;
  created_at: string;
}

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
];

interface BlockRow {
  id: string;
  stake_cents: number;
  file_path: string;
  count: number;
  next_position: number;
  status: string;
}

interface PlayerRow {
  id: string;
  kind: string;
  balance_cents: number;
}

const PLAY_COLUMNS = `play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
  jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, launched, finished, created_at`;

function launchedFromMask(mask: number): Launched {
  return [(mask & 1) !== 0, (mask & 2) !== 0, (mask & 4) !== 0, (mask & 8) !== 0];
}

function maskFromLaunched(launched: Launched): number {
  return launched.reduce((mask, on, i) => (on ? mask | (1 << i) : mask), 0);
}

function toPlay(row: PlayRow, unit?: Unit): PlayRecord {
  const stakeCents = row.stake_cents as StakeCents;
  return {
    playId: row.play_id,
    playerId: row.player_id,
    stakeCents,
    blockId: row.block_id,
    position: row.position,
    fixture: row.fixture === 1,
    unit: unit ?? decodeUnit(row.unit_code, stakeCents),
    bells: row.bells,
    points: row.points,
    jeu1WinCents: row.jeu1_cents,
    jeu2WinCents: row.jeu2_cents,
    winCents: row.win_cents,
    balanceBeforeCents: row.balance_before_cents,
    balanceAfterCents: row.balance_after_cents,
    launched: launchedFromMask(row.launched),
    finished: row.finished === 1,
    createdAt: row.created_at,
  };
}

function toBlock(row: BlockRow): BlockRecord {
  return {
    id: row.id,
    stakeCents: row.stake_cents as StakeCents,
    filePath: row.file_path,
    count: row.count,
    nextPosition: row.next_position,
    status: row.status as BlockRecord['status'],
  };
}

function toPlayer(row: PlayerRow): PlayerRecord {
  return { id: row.id, kind: row.kind as PlayerRecord['kind'], balanceCents: row.balance_cents };
}

export const SQLITE_FILE_NAME = 'spincake.sqlite';

/**
 * The embedded store. better-sqlite3 is synchronous, so transactions never interleave
 * within the process. Plays are group-committed: the plays that arrive while the previous
 * fsync runs share one transaction and one fsync. The batch is decided by planBatch (the
 * rules every store shares; a play that throws fails alone), then written; a failing write
 * or commit fails the whole batch, of which nothing is on disk or acknowledged. No promise
 * resolves before the commit is on disk.
 */
export class SqliteStore implements Store {
  readonly db: Database.Database;
  private pending: Pending[] = [];
  private flushScheduled = false;
  private readonly units: UnitSource;
  private readonly s;
  private readonly wal: WalSync;
  /** Transaction functions, made once: better-sqlite3 builds a wrapper per call otherwise. */
  private readonly buyBatch: (requests: BuyRequest[]) => Outcome[];

  static open(dataDir: string, units: UnitSource): SqliteStore {
    fs.mkdirSync(dataDir, { recursive: true });
    return new SqliteStore(path.join(dataDir, SQLITE_FILE_NAME), units);
  }

  constructor(file: string, units: UnitSource) {
    this.units = units;
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // NORMAL: commits do not wait for the disk here; WalSync fsyncs the WAL off the event
    // loop, and no call resolves before what it wrote or read is on disk.
    this.db.pragma('synchronous = NORMAL');
    this.wal = new WalSync(`${file}-wal`);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);
    this.wal.committed();
    const db = this.db;
    this.buyBatch = db.transaction((requests: BuyRequest[]) => {
      const { outcomes, writes } = planBatch(requests, this.readForBatch(requests), this.units, encodeUnit);
      this.writeBatch(writes);
      return outcomes;
    });
    this.s = {
      playById: db.prepare<[string], PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ?`),
      player: db.prepare<[string], PlayerRow>('SELECT id, kind, balance_cents FROM players WHERE id = ?'),
      setBalance: db.prepare<[number, string]>('UPDATE players SET balance_cents = ? WHERE id = ?'),
      openBlock: db.prepare<[number], BlockRow>(
        `SELECT id, stake_cents, file_path, count, next_position, status FROM blocks WHERE stake_cents = ? AND status = 'open'`,
      ),
      setBlock: db.prepare<[number, string, string]>('UPDATE blocks SET next_position = ?, status = ? WHERE id = ?'),
      blocksOnSale: db.prepare<[number], BlockRow>(
        `SELECT id, stake_cents, file_path, count, next_position, status FROM blocks
         WHERE stake_cents = ? AND status IN ('open', 'queued') ORDER BY seq`,
      ),
      // Positional parameters: binding by name costs a lookup per column and play.
      insertPlay: db.prepare<PlayInsert>(
        `INSERT INTO plays (play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
         jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertEntry: db.prepare<[string, string, number, string | null, string, string]>(
        'INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertPlayer: db.prepare<[string, string, number, string]>(
        'INSERT INTO players (id, kind, balance_cents, created_at) VALUES (?, ?, ?, ?)',
      ),
      playsPage: db.prepare<[string, number, number], PlayRow>(
        `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ),
      playSeq: db.prepare<[string, string], { seq: number }>(
        'SELECT seq FROM plays WHERE player_id = ? AND play_id = ?',
      ),
      unfinished: db.prepare<[string], PlayRow>(
        `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = ? AND finished = 0 ORDER BY seq DESC LIMIT 1`,
      ),
      setProgress: db.prepare<[number, string, string]>(
        'UPDATE plays SET launched = launched | ? WHERE play_id = ? AND player_id = ?',
      ),
      setFinished: db.prepare<[string, string]>(
        'UPDATE plays SET finished = 1, launched = 15 WHERE play_id = ? AND player_id = ?',
      ),
    };
  }

  /** After a write: resolves with `value` once the write is on disk. */
  private async written<T>(value: T): Promise<T> {
    this.wal.committed();
    await this.wal.durable();
    return value;
  }

  /** After a read: what it saw may include commits whose fsync is still running; wait for it. */
  private async seen<T>(value: T): Promise<T> {
    await this.wal.durable();
    return value;
  }

  async close(): Promise<void> {
    // Let queued plays commit first: their clients may already be waiting.
    while (this.pending.length > 0) this.flush();
    await this.wal.durable().catch(() => {});
    this.wal.close();
    this.db.close();
  }

  async sessionKey(): Promise<Buffer> {
    const row = this.db.prepare<[], { value: Buffer }>(`SELECT value FROM meta WHERE key = 'session_key'`).get();
    if (row) return this.seen(row.value);
    this.db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('session_key', ?)`).run(randomBytes(32));
    return this.written(
      this.db.prepare<[], { value: Buffer }>(`SELECT value FROM meta WHERE key = 'session_key'`).get()!.value,
    );
  }

  async createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord> {
    const id = `demo-${randomUUID()}`;
    const at = now.toISOString();
    this.db.transaction(() => {
      this.s.insertPlayer.run(id, 'demo', balanceCents, at);
      if (balanceCents > 0) {
        const txn = `funding:${id}`;
        this.s.insertEntry.run(txn, 'house:demo-funding', -balanceCents, null, 'funding', at);
        this.s.insertEntry.run(txn, `player:${id}`, balanceCents, null, 'funding', at);
      }
    })();
    return this.written<PlayerRecord>({ id, kind: 'demo', balanceCents });
  }

  async ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord> {
    this.db
      .prepare(`INSERT OR IGNORE INTO players (id, kind, balance_cents, created_at) VALUES (?, 'portal', 0, ?)`)
      .run(playerId, now.toISOString());
    return this.written(toPlayer(this.s.player.get(playerId)!));
  }

  async getPlayer(playerId: string): Promise<PlayerRecord | null> {
    const row = this.s.player.get(playerId);
    return this.seen(row ? toPlayer(row) : null);
  }

  async addBlock(block: Omit<BlockRecord, 'nextPosition' | 'status'>, now: Date): Promise<BlockRecord> {
    return this.written(this.addBlockNow(block, now));
  }

  private addBlockNow(block: Omit<BlockRecord, 'nextPosition' | 'status'>, now: Date): BlockRecord {
    return this.db.transaction(() => {
      const seq = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM blocks').get() as { seq: number }).seq;
      const open = this.s.openBlock.get(block.stakeCents);
      const status = open ? 'queued' : 'open';
      this.db
        .prepare(
          `INSERT INTO blocks (id, seq, stake_cents, file_path, count, next_position, status, loaded_at)
           VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
        )
        .run(block.id, seq, block.stakeCents, block.filePath, block.count, status, now.toISOString());
      return { ...block, nextPosition: 0, status } as BlockRecord;
    })();
  }

  async listBlocks(): Promise<BlockRecord[]> {
    return this.seen(this.blocksNow());
  }

  private blocksNow(): BlockRecord[] {
    return (
      this.db
        .prepare('SELECT id, stake_cents, file_path, count, next_position, status FROM blocks ORDER BY seq')
        .all() as BlockRow[]
    ).map(toBlock);
  }

  async stakesWithUnits(): Promise<Set<StakeCents>> {
    const rows = this.db
      .prepare(`SELECT DISTINCT stake_cents FROM blocks WHERE status IN ('open', 'queued') AND next_position < count`)
      .all() as { stake_cents: number }[];
    return this.seen(new Set(rows.map((r) => r.stake_cents as StakeCents)));
  }

  buyPlay(request: BuyRequest): Promise<BuyResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // While an fsync runs, plays gather until it ends: then one commit, one fsync for all.
        setImmediate(() => this.wal.whenSynced(() => this.flush()));
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.buyBatch(batch.map((item) => item.request));
    } catch (error) {
      // A write or the commit failed: nothing of the batch is on disk, nobody is acknowledged.
      for (const item of batch) item.reject(error);
      return;
    }
    // Acknowledge only once the batch is on disk.
    this.wal.committed();
    answerWhenDurable(batch, outcomes, this.wal.durable());
  }

  /** The batch's state, read inside its transaction (nothing else writes meanwhile: SQLite has one writer). */
  private readForBatch(requests: readonly BuyRequest[]): BatchReads {
    const reads: BatchReads = { existing: new Map(), balances: new Map(), blocks: new Map() };
    for (const { playId, playerId, stakeCents, fixtureUnit } of requests) {
      if (!reads.existing.has(playId)) {
        const row = this.s.playById.get(playId);
        if (row) reads.existing.set(playId, toPlay(row));
      }
      if (!reads.balances.has(playerId)) {
        const player = this.s.player.get(playerId);
        if (player) reads.balances.set(playerId, player.balance_cents);
      }
      if (!fixtureUnit && !reads.blocks.has(stakeCents)) {
        // The open block sells first, whatever its place in the queue.
        const rows = this.s.blocksOnSale.all(stakeCents);
        reads.blocks.set(
          stakeCents,
          [...rows.filter((b) => b.status === 'open'), ...rows.filter((b) => b.status !== 'open')].map(toBlock),
        );
      }
    }
    return reads;
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
      );
    }
    for (const e of writes.entries) {
      this.s.insertEntry.run(e.txn, e.account, e.amountCents, e.playId, e.kind, e.createdAt);
    }
    for (const [playerId, balanceCents] of writes.balances) this.s.setBalance.run(balanceCents, playerId);
  }

  async getPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
    const row = this.s.playById.get(playId);
    return this.seen(row && row.player_id === playerId ? toPlay(row) : null);
  }

  async listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }> {
    let beforeSeq = Number.MAX_SAFE_INTEGER;
    if (query.beforePlayId !== undefined) {
      const found = this.s.playSeq.get(query.playerId, query.beforePlayId);
      if (!found) return this.seen({ plays: [], more: false });
      beforeSeq = found.seq;
    }
    const rows = this.s.playsPage.all(query.playerId, beforeSeq, query.limit + 1);
    return this.seen({ plays: rows.slice(0, query.limit).map((row) => toPlay(row)), more: rows.length > query.limit });
  }

  async latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null> {
    const row = this.s.unfinished.get(playerId);
    return this.seen(row ? toPlay(row) : null);
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
      const delta = balanceCents - player.balance_cents;
      if (delta !== 0) {
        const at = now.toISOString();
        const txn = `adjustment:${randomUUID()}`;
        this.s.insertEntry.run(txn, 'house:adjustments', -delta, null, 'adjustment', at);
        this.s.insertEntry.run(txn, `player:${playerId}`, delta, null, 'adjustment', at);
        this.s.setBalance.run(balanceCents, playerId);
      }
      return { ...toPlayer(player), balanceCents };
    })();
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

  async ledgerFacts(): Promise<LedgerFacts> {
    const db = this.db;
    const totalCents = (db.prepare('SELECT COALESCE(SUM(amount_cents), 0) AS s FROM entries').get() as { s: number }).s;
    const unbalancedTransactions = (
      db
        .prepare('SELECT txn, SUM(amount_cents) AS s FROM entries GROUP BY txn HAVING SUM(amount_cents) <> 0')
        .all() as { txn: string; s: number }[]
    ).map((r) => ({ txn: r.txn, sumCents: r.s }));
    const playEntries: LedgerFacts['playEntries'] = new Map();
    const entryRows = db
      .prepare(
        `SELECT play_id,
           SUM(kind = 'stake' AND account LIKE 'player:%' AND amount_cents < 0) AS stake_debits,
           -SUM(CASE WHEN kind = 'stake' AND account LIKE 'player:%' THEN amount_cents ELSE 0 END) AS stake_cents,
           SUM(kind = 'prize' AND account LIKE 'player:%' AND amount_cents > 0) AS prize_credits,
           SUM(CASE WHEN kind = 'prize' AND account LIKE 'player:%' THEN amount_cents ELSE 0 END) AS prize_cents
         FROM entries WHERE play_id IS NOT NULL GROUP BY play_id`,
      )
      .iterate() as IterableIterator<{
      play_id: string;
      stake_debits: number;
      stake_cents: number;
      prize_credits: number;
      prize_cents: number;
    }>;
    for (const r of entryRows) {
      playEntries.set(r.play_id, {
        stakeDebits: r.stake_debits,
        stakeCents: r.stake_cents,
        prizeCredits: r.prize_credits,
        prizeCents: r.prize_cents,
      });
    }
    const balances = (
      db
        .prepare(
          `SELECT p.id AS player_id, p.balance_cents,
             COALESCE((SELECT SUM(amount_cents) FROM entries e WHERE e.account = 'player:' || p.id), 0) AS entries_cents
           FROM players p`,
        )
        .all() as { player_id: string; balance_cents: number; entries_cents: number }[]
    ).map((r) => ({ playerId: r.player_id, balanceCents: r.balance_cents, entriesCents: r.entries_cents }));
    const soldLots = (
      db
        .prepare(
          'SELECT block_id, win_cents, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL GROUP BY block_id, win_cents',
        )
        .all() as { block_id: string; win_cents: number; n: number }[]
    ).map((r) => ({ blockId: r.block_id, lotCents: r.win_cents, count: r.n }));
    const blocks = this.blocksNow();
    const cursorRows = db
      .prepare(
        `SELECT block_id, COUNT(*) AS n, MIN(position) AS lo, MAX(position) AS hi
         FROM plays WHERE block_id IS NOT NULL GROUP BY block_id`,
      )
      .all() as { block_id: string; n: number; lo: number; hi: number }[];
    const byBlock = new Map(cursorRows.map((r) => [r.block_id, r]));
    const blockCursors = blocks.map((block) => {
      const r = byBlock.get(block.id);
      return { block, sold: r?.n ?? 0, minPosition: r?.lo ?? null, maxPosition: r?.hi ?? null };
    });
    const duplicateUnits = (
      db
        .prepare(
          `SELECT block_id, position, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL
           GROUP BY block_id, position HAVING COUNT(*) > 1`,
        )
        .all() as { block_id: string; position: number; n: number }[]
    ).map((r) => ({ blockId: r.block_id, position: r.position, count: r.n }));
    // Plays without any ledger entry must show up too.
    for (const r of db.prepare('SELECT play_id FROM plays').pluck().iterate() as IterableIterator<string>) {
      if (!playEntries.has(r)) playEntries.set(r, { stakeDebits: 0, stakeCents: 0, prizeCredits: 0, prizeCents: 0 });
    }
    return { totalCents, unbalancedTransactions, playEntries, balances, soldLots, blockCursors, duplicateUnits };
  }

  async *soldUnits(): AsyncIterable<SoldUnit> {
    const rows = this.db
      .prepare('SELECT play_id, block_id, position, stake_cents, unit_code, win_cents FROM plays ORDER BY seq')
      .iterate() as IterableIterator<{
      play_id: string;
      block_id: string | null;
      position: number | null;
      stake_cents: number;
      unit_code: string;
      win_cents: number;
    }>;
    for (const r of rows) {
      yield {
        playId: r.play_id,
        blockId: r.block_id,
        position: r.position,
        unit: decodeUnit(r.unit_code, r.stake_cents as StakeCents),
        winCents: r.win_cents,
      };
    }
  }
}
