import type { StakeCents } from '../../rules/index.ts';
import type { StoreDialect } from './dialect.ts';
import { PLAYER_ACCOUNT_PREFIX, WALLET_ACCOUNT_PREFIX } from './ledgerRules.ts';
import type { BlockBook, LedgerBook } from './parts.ts';
import type { BlockPool, LedgerFacts, PlayerKind, SoldUnit } from './types.ts';
import { decodeUnit } from './unitCode.ts';
import { readWalletFacts } from './walletBooks.ts';

/** Per block and lot, the units sold (fixtures come from no block); a purged demo play's unit stays sold. */
export const SOLD_LOTS_SQL = `SELECT block_id, win_cents, CAST(SUM(n) AS BIGINT) AS n FROM (
    SELECT block_id, win_cents, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL GROUP BY block_id, win_cents
    UNION ALL SELECT block_id, win_cents, plays AS n FROM purged_plays
  ) sold GROUP BY block_id, win_cents`;

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
  soldLots: SOLD_LOTS_SQL,
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

/** What the ledger audit reads, on one snapshot where it asks for one. */
export function createLedgerBook(db: StoreDialect, blockBook: Pick<BlockBook, 'listBlocks'>): LedgerBook {
  return {
    readSnapshot: (read) => db.readSnapshot(read),
    walletFacts: () => readWalletFacts(db),

    async ledgerFacts(): Promise<LedgerFacts> {
      const q = LEDGER_FACTS_SQL;
      const [total] = await db.all<{ s: number }>(q.total);
      const unbalanced = await db.all<{ txn: string; s: number }>(q.unbalanced);
      const entryRows = await db.all<{
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
      for (const r of await db.all<{ play_id: string }>(q.bare)) {
        playEntries.set(r.play_id, { stakeDebits: 0, stakeCents: 0, prizeCredits: 0, prizeCents: 0 });
      }
      const balances = await db.all<{ player_id: string; balance_cents: number; entries_cents: number }>(q.balances);
      const soldLots = await db.all<{ block_id: string; win_cents: number; n: number }>(q.soldLots);
      const purged = await db.all<{ block_id: string; win_cents: number; plays: number; position_sum: number }>(
        q.purged,
      );
      const blocks = await blockBook.listBlocks();
      const cursorRows = await db.all<{ block_id: string; n: number; lo: number; hi: number; total: number }>(
        q.cursors,
      );
      const byBlock = new Map(cursorRows.map((r) => [r.block_id, r]));
      const duplicates = await db.all<{ block_id: string; position: number; n: number }>(q.duplicates);
      const poolPlays = await db.all<{
        play_pool: BlockPool | null;
        block_pool: BlockPool;
        player_kind: PlayerKind;
        n: number;
        stakes: number;
        prizes: number;
      }>(q.poolPlays);
      return db.afterDurable({
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
    },

    /** Page by page, in sale order: a large database never sits in memory at once. */
    async *soldUnits(): AsyncIterable<SoldUnit> {
      let afterSeq = 0;
      for (;;) {
        const rows = await db.all<{
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
    },
  };
}
