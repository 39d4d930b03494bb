import type { StakeCents } from '../../rules/index.ts';
import { PLAYER_ACCOUNT_PREFIX, WALLET_ACCOUNT_PREFIX } from './ledgerRules.ts';
import {
  BLOCK_COLUMNS,
  PLAY_COLUMNS,
  PLAYER_COLUMNS,
  toBlock,
  toPlay,
  toPlayer,
  type BlockRow,
  type PlayerRow,
  type PlayRow,
} from './rows.ts';
import { purgeableDemoPlayers, purgeableParams } from './demoPurgeSql.ts';
import type {
  BlockPool,
  BlockRecord,
  IdleDemoPlayer,
  LedgerFacts,
  PlayerKind,
  PlayerRecord,
  PlayRecord,
  PlaysQuery,
  SalesControl,
  SoldLot,
  SoldUnit,
} from './types.ts';
import type { PlayBatchObserver } from './batchObserver.ts';
import { decodeUnit } from './unitCode.ts';

const SOLD_UNITS_PAGE = 5000;
/** A play's money moves on the player's account in the game, or on its mirror of the operator's wallet. */
const ANY_PLAYER = `(account LIKE '${PLAYER_ACCOUNT_PREFIX}%' OR account LIKE '${WALLET_ACCOUNT_PREFIX}%')`;

/** Sums made BIGINT in both databases (PostgreSQL's SUM of a BIGINT is NUMERIC, which comes back as a string). */
const LEDGER_FACTS_SQL = {
  total: 'SELECT CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) AS s FROM entries',
  unbalanced: `SELECT txn, CAST(SUM(amount_cents) AS BIGINT) AS s FROM entries
    GROUP BY txn HAVING SUM(amount_cents) <> 0`,
  playEntries: `SELECT play_id,
      SUM(CASE WHEN kind = 'stake' AND ${ANY_PLAYER} AND amount_cents < 0 THEN 1 ELSE 0 END) AS stake_debits,
      CAST(-SUM(CASE WHEN kind = 'stake' AND ${ANY_PLAYER} THEN amount_cents ELSE 0 END) AS BIGINT)
        AS stake_cents,
      SUM(CASE WHEN kind = 'prize' AND ${ANY_PLAYER} AND amount_cents > 0 THEN 1 ELSE 0 END) AS prize_credits,
      CAST(SUM(CASE WHEN kind = 'prize' AND ${ANY_PLAYER} THEN amount_cents ELSE 0 END) AS BIGINT) AS prize_cents
    FROM entries WHERE play_id IS NOT NULL GROUP BY play_id`,
  // Plays without any ledger entry must show up too.
  bare: `SELECT p.play_id FROM plays p
    LEFT JOIN (SELECT DISTINCT play_id FROM entries WHERE play_id IS NOT NULL) e ON e.play_id = p.play_id
    WHERE e.play_id IS NULL`,
  balances: `SELECT p.id AS player_id, p.balance_cents, CAST(COALESCE(e.s, 0) AS BIGINT) AS entries_cents
    FROM players p LEFT JOIN (SELECT account, SUM(amount_cents) AS s FROM entries GROUP BY account) e
      ON e.account = '${PLAYER_ACCOUNT_PREFIX}' || p.id`,
  // A purged demo play's unit stays sold: counted with the plays kept.
  soldLots: `SELECT block_id, win_cents, CAST(SUM(n) AS BIGINT) AS n FROM (
      SELECT block_id, win_cents, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL GROUP BY block_id, win_cents
      UNION ALL SELECT block_id, win_cents, plays AS n FROM purged_plays
    ) sold GROUP BY block_id, win_cents`,
  purged: 'SELECT block_id, win_cents, plays, position_sum FROM purged_plays',
  cursors: `SELECT block_id, COUNT(*) AS n, MIN(position) AS lo, MAX(position) AS hi,
      CAST(SUM(position) AS BIGINT) AS total
    FROM plays WHERE block_id IS NOT NULL GROUP BY block_id`,
  duplicates: `SELECT block_id, position, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL
    GROUP BY block_id, position HAVING COUNT(*) > 1`,
  // Fixture plays come from no block: they are in no pool.
  poolPlays: `SELECT p.pool AS play_pool, b.pool AS block_pool, pl.kind AS player_kind, COUNT(*) AS n,
      CAST(SUM(p.stake_cents) AS BIGINT) AS stakes, CAST(SUM(p.win_cents) AS BIGINT) AS prizes
    FROM plays p JOIN blocks b ON b.id = p.block_id JOIN players pl ON pl.id = p.player_id
    GROUP BY p.pool, b.pool, pl.kind`,
} as const;

/**
 * What both stores do the same way: the reads and the ledger facts, in SQL that SQLite and
 * PostgreSQL both run (`?` placeholders), mapped by one row mapper. A store supplies how
 * a statement runs and how a read waits for durability; it keeps its own writes, above all
 * the play batch, where the two databases differ.
 *
 * Durability of reads: every read waits (`seen`) until the commits it may have seen are on
 * disk. Play batches are acknowledged only once durable, but they are visible to other
 * reads before that (SQLite's WAL is fsynced after the commit, PostgreSQL's batches commit
 * with synchronous_commit off); a read that answered meanwhile could show a play, a balance,
 * a cursor or a stake sold out that a crash then takes back. So lists of blocks and the
 * stakes on sale wait like the plays and the players do. Inside readSnapshot PostgreSQL's
 * `seen` does not wait (the snapshot is a check, not an answer, and a barrier on another
 * connection would not cover it anyway).
 */
export abstract class StoreCore {
  /** Told of every play batch (metrics); null: nobody. */
  protected observer: PlayBatchObserver | null = null;

  observePlayBatches(observer: PlayBatchObserver | null): void {
    this.observer = observer;
  }

  /** Runs one statement written with `?` placeholders; its rows. */
  protected abstract all<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /**
   * Runs one writing statement (`?` placeholders) and resolves once it is on disk: its
   * rows (for RETURNING) and how many rows it changed.
   */
  protected abstract write<R>(text: string, params: readonly unknown[]): Promise<{ rows: R[]; changes: number }>;
  /** Resolves with `value` once every commit that a read just made may have seen is on disk. */
  protected abstract seen<T>(value: T): Promise<T>;
  /** The condition of an unfinished play, spelt as the partial index plays_unfinished is. */
  protected abstract readonly unfinished: string;

  async getPlayer(playerId: string): Promise<PlayerRecord | null> {
    const [row] = await this.all<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?`, [playerId]);
    return this.seen(row ? toPlayer(row) : null);
  }

  async getPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
    const [row] = await this.all<PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ? AND player_id = ?`, [
      playId,
      playerId,
    ]);
    return this.seen(row ? toPlay(row) : null);
  }

  async listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }> {
    let beforeSeq = Number.MAX_SAFE_INTEGER;
    if (query.beforePlayId !== undefined) {
      const [found] = await this.all<{ seq: number }>('SELECT seq FROM plays WHERE player_id = ? AND play_id = ?', [
        query.playerId,
        query.beforePlayId,
      ]);
      if (!found) return this.seen({ plays: [], more: false });
      beforeSeq = found.seq;
    }
    const rows = await this.all<PlayRow>(
      `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      [query.playerId, beforeSeq, query.limit + 1],
    );
    return this.seen({ plays: rows.slice(0, query.limit).map((row) => toPlay(row)), more: rows.length > query.limit });
  }

  async latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null> {
    const [row] = await this.all<PlayRow>(
      `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = ? AND ${this.unfinished} ORDER BY seq DESC LIMIT 1`,
      [playerId],
    );
    return this.seen(row ? toPlay(row) : null);
  }

  /**
   * Ends a block's sale (`npm run ops -- blocks close`): its remaining units are never
   * sold; the stake's next queued block opens at its next sale. Null: no such block.
   */
  async closeBlock(blockId: string): Promise<BlockRecord | null> {
    await this.write(`UPDATE blocks SET status = 'closed' WHERE id = ? AND status <> 'closed'`, [blockId]);
    return (await this.listBlocks()).find((block) => block.id === blockId) ?? null;
  }

  async listBlocks(): Promise<BlockRecord[]> {
    const rows = await this.all<BlockRow>(`SELECT ${BLOCK_COLUMNS} FROM blocks ORDER BY seq`);
    return this.seen(rows.map(toBlock));
  }

  async stakesWithUnits(pool: BlockPool): Promise<Set<StakeCents>> {
    const rows = await this.all<{ stake_cents: number }>(
      `SELECT DISTINCT stake_cents FROM blocks WHERE pool = ? AND status IN ('open', 'queued') AND next_position < count`,
      [pool],
    );
    return this.seen(new Set(rows.map((r) => r.stake_cents as StakeCents)));
  }

  async salesControl(): Promise<SalesControl | null> {
    const [row] = await this.all<{ mode: 'open' | 'closed'; message: string | null; set_at: string }>(
      'SELECT mode, message, set_at FROM sales_control WHERE id = 1',
    );
    return this.seen(row ? { mode: row.mode, message: row.message, setAt: row.set_at } : null);
  }

  async setSalesControl(control: Omit<SalesControl, 'setAt'> | null, now: Date): Promise<void> {
    if (control === null) {
      await this.write('DELETE FROM sales_control', []);
      return;
    }
    await this.write(
      `INSERT INTO sales_control (id, mode, message, set_at) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, message = excluded.message, set_at = excluded.set_at`,
      [control.mode, control.message, now.toISOString()],
    );
  }

  async soldLots(): Promise<SoldLot[]> {
    const rows = await this.all<{ block_id: string; win_cents: number; n: number }>(LEDGER_FACTS_SQL.soldLots);
    return this.seen(rows.map((r) => ({ blockId: r.block_id, lotCents: r.win_cents, count: Number(r.n) })));
  }

  async idleDemoPlayers(
    cutoff: Date,
    page: { after: IdleDemoPlayer | null; limit: number },
  ): Promise<IdleDemoPlayer[]> {
    const rows = await this.all<{ id: string; created_at: string; plays: number }>(
      purgeableDemoPlayers(null),
      purgeableParams(cutoff.toISOString(), null, { after: page.after, limit: page.limit }),
    );
    return this.seen(rows.map((r) => ({ playerId: r.id, createdAt: r.created_at, plays: Number(r.plays) })));
  }

  async unitsSoldSince(since: Date): Promise<{ blockId: string; count: number }[]> {
    const rows = await this.all<{ block_id: string; n: number }>(
      'SELECT block_id, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL AND created_at >= ? GROUP BY block_id',
      [since.toISOString()],
    );
    return this.seen(rows.map((r) => ({ blockId: r.block_id, count: Number(r.n) })));
  }

  async ledgerFacts(): Promise<LedgerFacts> {
    const q = LEDGER_FACTS_SQL;
    const [total] = await this.all<{ s: number }>(q.total);
    const unbalanced = await this.all<{ txn: string; s: number }>(q.unbalanced);
    const entryRows = await this.all<{
      play_id: string;
      stake_debits: number;
      stake_cents: number;
      prize_credits: number;
      prize_cents: number;
    }>(q.playEntries);
    const playEntries: LedgerFacts['playEntries'] = new Map();
    for (const r of entryRows) {
      playEntries.set(r.play_id, {
        stakeDebits: r.stake_debits,
        stakeCents: r.stake_cents,
        prizeCredits: r.prize_credits,
        prizeCents: r.prize_cents,
      });
    }
    for (const r of await this.all<{ play_id: string }>(q.bare)) {
      playEntries.set(r.play_id, { stakeDebits: 0, stakeCents: 0, prizeCredits: 0, prizeCents: 0 });
    }
    const balances = await this.all<{ player_id: string; balance_cents: number; entries_cents: number }>(q.balances);
    const soldLots = await this.all<{ block_id: string; win_cents: number; n: number }>(q.soldLots);
    const purged = await this.all<{ block_id: string; win_cents: number; plays: number; position_sum: number }>(
      q.purged,
    );
    const blocks = await this.listBlocks();
    const cursorRows = await this.all<{ block_id: string; n: number; lo: number; hi: number; total: number }>(
      q.cursors,
    );
    const byBlock = new Map(cursorRows.map((r) => [r.block_id, r]));
    const duplicates = await this.all<{ block_id: string; position: number; n: number }>(q.duplicates);
    const poolPlays = await this.all<{
      play_pool: BlockPool | null;
      block_pool: BlockPool;
      player_kind: PlayerKind;
      n: number;
      stakes: number;
      prizes: number;
    }>(q.poolPlays);
    return this.seen({
      totalCents: total!.s,
      unbalancedTransactions: unbalanced.map((r) => ({ txn: r.txn, sumCents: r.s })),
      playEntries,
      balances: balances.map((r) => ({
        playerId: r.player_id,
        balanceCents: r.balance_cents,
        entriesCents: r.entries_cents,
      })),
      soldLots: soldLots.map((r) => ({ blockId: r.block_id, lotCents: r.win_cents, count: Number(r.n) })),
      purgedPlays: purged.map((r) => ({
        blockId: r.block_id,
        lotCents: r.win_cents,
        plays: Number(r.plays),
        positionSum: Number(r.position_sum),
      })),
      blockCursors: blocks.map((block) => {
        const r = byBlock.get(block.id);
        return {
          block,
          sold: r?.n ?? 0,
          minPosition: r?.lo ?? null,
          maxPosition: r?.hi ?? null,
          positionSum: Number(r?.total ?? 0),
        };
      }),
      duplicateUnits: duplicates.map((r) => ({ blockId: r.block_id, position: r.position, count: r.n })),
      poolPlays: poolPlays.map((r) => ({
        playPool: r.play_pool,
        blockPool: r.block_pool,
        playerKind: r.player_kind,
        plays: Number(r.n),
        stakesCents: r.stakes,
        prizesCents: r.prizes,
      })),
    });
  }

  /** Page by page, in sale order: a large database never sits in memory at once. */
  async *soldUnits(): AsyncIterable<SoldUnit> {
    let afterSeq = 0;
    for (;;) {
      const rows = await this.all<{
        seq: number;
        play_id: string;
        block_id: string | null;
        position: number | null;
        stake_cents: number;
        unit_code: string;
        win_cents: number;
      }>(
        `SELECT seq, play_id, block_id, position, stake_cents, unit_code, win_cents FROM plays
         WHERE seq > ? ORDER BY seq LIMIT ?`,
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
