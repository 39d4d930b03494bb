import { WALLET_ACCOUNT_PREFIX } from './ledgerRules.ts';
import type { Decision, Statement, StoreDialect } from './dialect.ts';
import type { WalletBook } from './parts.ts';
import type {
  NewWalletBet,
  OutboxEntry,
  RecordBetResult,
  WalletBacklog,
  WalletBetRecord,
  WalletFacts,
} from './types.ts';
import {
  BET_STATE_UPDATE,
  OUTBOX_COLUMNS,
  OUTBOX_INSERT,
  outboxInsertValues,
  rollbackOf,
  toOutboxEntry,
  toWalletBet,
  WALLET_BET_COLUMNS,
  type OutboxRow,
  type WalletBetRow,
} from './walletRows.ts';

const WALLET_FACTS_SQL = {
  playsWithoutWin: `SELECT p.play_id, p.win_cents, o.amount_cents AS owed FROM plays p
    JOIN wallet_bets b ON b.play_id = p.play_id
    LEFT JOIN wallet_outbox o ON o.bet_request_id = b.request_id AND o.kind = 'win'
    WHERE o.request_id IS NULL OR o.amount_cents <> p.win_cents`,
  soldBetsWithoutPlay: `SELECT b.request_id FROM wallet_bets b LEFT JOIN plays p ON p.play_id = b.play_id
    WHERE b.state = 'sold' AND (p.play_id IS NULL OR p.player_id <> b.player_id OR p.stake_cents <> b.stake_cents)`,
  cancelledBetsWithoutRollback: `SELECT b.request_id FROM wallet_bets b
    LEFT JOIN wallet_outbox o ON o.bet_request_id = b.request_id AND o.kind = 'rollback'
    WHERE b.state = 'cancelled' AND o.request_id IS NULL`,
  walletPlaysWithoutBet: `SELECT DISTINCT e.play_id FROM entries e
    LEFT JOIN wallet_bets b ON b.play_id = e.play_id AND b.state = 'sold'
    WHERE e.account LIKE '${WALLET_ACCOUNT_PREFIX}%' AND b.request_id IS NULL`,
} as const;

/**
 * The game's books of the operator's wallet, shared by both stores: the bets it sends,
 * the outbox of wins and rollbacks it owes, the balances the wallet last said. Each store
 * writes the outbox rows of a play batch itself. A play's own writes (its bet, its win's
 * answer, a retry) are group-committed: SQLite's `write` rides the next play batch's
 * transaction; PostgreSQL gathers them into one statement per group instead of these
 * one-row ones, and cancels a bet with its rollback in one statement (its store replaces them).
 */
export function createWalletBook(db: StoreDialect): Omit<WalletBook, 'cancelStaleWalletBets'> {
  const book: Omit<WalletBook, 'cancelStaleWalletBets'> = {
    async recordWalletBet(bet: NewWalletBet): Promise<RecordBetResult> {
      // One statement: no bet for a playId that any play (wallet or not) already has.
      const { changes } = await db.write(
        `INSERT INTO wallet_bets (request_id, play_id, player_id, wallet_player, stake_cents, state, created_at, deadline_at)
         SELECT ?, ?, ?, ?, CAST(? AS INTEGER), 'sending', ?, ? WHERE NOT EXISTS (SELECT 1 FROM plays WHERE play_id = ?)
         ON CONFLICT DO NOTHING`,
        [
          bet.requestId,
          bet.playId,
          bet.playerId,
          bet.walletPlayerId,
          bet.stakeCents,
          bet.createdAt,
          bet.deadlineAt,
          bet.playId,
        ],
      );
      if (changes === 1) return { recorded: true };
      return { recorded: false, bet: await book.walletBet(bet.playId) };
    },

    async walletBet(playId: string): Promise<WalletBetRecord | null> {
      const [row] = await db.all<WalletBetRow>(`SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE play_id = ?`, [
        playId,
      ]);
      return db.afterDurable(row ? toWalletBet(row) : null);
    },

    async refuseWalletBet(requestId: string, refusal: string, now: Date): Promise<void> {
      await db.write(
        `UPDATE wallet_bets SET state = 'refused', refusal = ?, resolved_at = ? WHERE request_id = ? AND state = 'sending'`,
        [refusal, now.toISOString(), requestId],
      );
    },

    cancelWalletBet(requestId: string, rollbackRequestId: string, now: Date, nextAttemptAt: Date): Promise<boolean> {
      const at = now.toISOString();
      const bet: Statement = [
        `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE request_id = ?${db.forUpdate}`,
        [requestId],
      ];
      return db.decideInOneTransaction([bet], ([rows]): Decision<boolean> => {
        const row = rows![0] as WalletBetRow | undefined;
        if (!row || row.state !== 'sending') return { writes: [], answer: false };
        return { writes: cancelled(row, rollbackRequestId, at, nextAttemptAt.toISOString()), answer: true };
      });
    },

    async claimOutbox(now: Date, limit: number, heldUntil: Date): Promise<OutboxEntry[]> {
      const { rows } = await db.write<OutboxRow>(
        `UPDATE wallet_outbox SET next_attempt_at = ? WHERE request_id IN (
           SELECT request_id FROM wallet_outbox WHERE state = 'pending' AND next_attempt_at <= ?
           ORDER BY next_attempt_at LIMIT ?${db.skipLocked})
         RETURNING ${OUTBOX_COLUMNS}`,
        [heldUntil.toISOString(), now.toISOString(), limit],
      );
      return rows.map(toOutboxEntry);
    },

    async settleOutbox(
      requestId: string,
      result: { state: 'done' | 'failed'; answerStatus: string; balanceCents: number | null },
      now: Date,
    ): Promise<void> {
      const at = now.toISOString();
      // One transaction: the entry settled, and the balance its answer gave kept (if newer).
      await db.writeInOneTransaction([
        [
          `UPDATE wallet_outbox SET state = ?, answer_status = ?, balance_cents = ?, settled_at = ?,
             attempts = attempts + 1, last_error = NULL
           WHERE request_id = ? AND state = 'pending'`,
          [result.state, result.answerStatus, result.balanceCents, at, requestId],
        ],
        [
          `INSERT INTO wallet_balances (player_id, balance_cents, seen_at)
           SELECT player_id, balance_cents, settled_at FROM wallet_outbox
           WHERE request_id = ? AND settled_at = ? AND balance_cents IS NOT NULL
           ON CONFLICT (player_id) DO UPDATE SET balance_cents = excluded.balance_cents, seen_at = excluded.seen_at
           WHERE excluded.seen_at >= wallet_balances.seen_at`,
          [requestId, at],
        ],
      ]);
    },

    async retryOutbox(requestId: string, nextAttemptAt: Date, error: string): Promise<void> {
      await db.write(
        `UPDATE wallet_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
         WHERE request_id = ? AND state = 'pending'`,
        [nextAttemptAt.toISOString(), error.slice(0, 500), requestId],
      );
    },

    async unsettledOutbox(): Promise<OutboxEntry[]> {
      const rows = await db.all<OutboxRow>(
        `SELECT ${OUTBOX_COLUMNS} FROM wallet_outbox WHERE state <> 'done' ORDER BY created_at, request_id`,
      );
      return db.afterDurable(rows.map(toOutboxEntry));
    },

    async unresolvedWalletBets(): Promise<WalletBetRecord[]> {
      const rows = await db.all<WalletBetRow>(
        `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE state = 'sending' ORDER BY created_at, request_id`,
      );
      return db.afterDurable(rows.map(toWalletBet));
    },

    async walletBacklog(): Promise<WalletBacklog> {
      // Each part reads only the rows of a partial index (pending entries, bets still sending):
      // few while the wallet answers; during an outage it grows with the backlog it measures.
      const [row] = await db.all<{
        pending: number;
        oldest_pending: string | null;
        sending: number;
        oldest_sending: string | null;
      }>(
        `SELECT (SELECT COUNT(*) FROM wallet_outbox WHERE state = 'pending') AS pending,
          (SELECT MIN(created_at) FROM wallet_outbox WHERE state = 'pending') AS oldest_pending,
          (SELECT COUNT(*) FROM wallet_bets WHERE state = 'sending') AS sending,
          (SELECT MIN(created_at) FROM wallet_bets WHERE state = 'sending') AS oldest_sending`,
      );
      return db.afterDurable({
        pendingOutbox: Number(row?.pending ?? 0),
        oldestPendingAt: row?.oldest_pending ?? null,
        betsWithoutOutcome: Number(row?.sending ?? 0),
        oldestBetAt: row?.oldest_sending ?? null,
      });
    },

    async walletCalls(from: Date, to: Date): Promise<{ bets: WalletBetRecord[]; outbox: OutboxEntry[] }> {
      const period = [from.toISOString(), to.toISOString()];
      const bets = await db.all<WalletBetRow>(
        `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE created_at >= ? AND created_at < ?
         ORDER BY created_at, request_id`,
        period,
      );
      const outbox = await db.all<OutboxRow>(
        `SELECT ${OUTBOX_COLUMNS.replace(/(\w+)/g, 'o.$1')} FROM wallet_outbox o
         JOIN wallet_bets b ON b.request_id = o.bet_request_id
         WHERE b.created_at >= ? AND b.created_at < ? ORDER BY o.created_at, o.request_id`,
        period,
      );
      return db.afterDurable({ bets: bets.map(toWalletBet), outbox: outbox.map(toOutboxEntry) });
    },

    async walletBalance(playerId: string): Promise<{ balanceCents: number; seenAt: string } | null> {
      const [row] = await db.all<{ balance_cents: number; seen_at: string }>(
        'SELECT balance_cents, seen_at FROM wallet_balances WHERE player_id = ?',
        [playerId],
      );
      return db.afterDurable(row ? { balanceCents: row.balance_cents, seenAt: row.seen_at } : null);
    },

    async noteWalletBalance(playerId: string, balanceCents: number, seenAt: Date): Promise<void> {
      await db.write(WALLET_BALANCE_UPSERT, [playerId, balanceCents, seenAt.toISOString()]);
    },
  };
  return book;
}

/**
 * Cancels every bet still `sending` past its deadline, each with its rollback owed now, under
 * a request id from `newRequestId` (UUIDv7: the outbox's key grows at its end); how many.
 */
export function cancelStaleBets(db: StoreDialect, now: Date, newRequestId: () => string): Promise<number> {
  const at = now.toISOString();
  const stale: Statement = [
    `SELECT ${WALLET_BET_COLUMNS} FROM wallet_bets WHERE state = 'sending' AND deadline_at < ?${db.forUpdate}`,
    [at],
  ];
  return db.decideInOneTransaction([stale], ([rows]): Decision<number> => {
    const bets = rows as WalletBetRow[];
    return { writes: bets.flatMap((row) => cancelled(row, newRequestId(), at, at)), answer: bets.length };
  });
}

/** A bet cancelled, with its rollback owed from `nextAttemptAt`. */
function cancelled(row: WalletBetRow, rollbackRequestId: string, at: string, nextAttemptAt: string): Statement[] {
  const rollback = rollbackOf(toWalletBet(row), rollbackRequestId, at, nextAttemptAt);
  return [
    [BET_STATE_UPDATE, ['cancelled', at, row.request_id]],
    [OUTBOX_INSERT, outboxInsertValues(rollback)],
  ];
}

/** What the ledger audit checks of the wallet's books. */
export async function readWalletFacts(db: StoreDialect): Promise<WalletFacts> {
  const q = WALLET_FACTS_SQL;
  const plays = await db.all<{ play_id: string; win_cents: number; owed: number | null }>(q.playsWithoutWin);
  const ids = async (text: string, column: string) =>
    (await db.all<Record<string, string>>(text)).map((row) => row[column]!);
  return db.afterDurable({
    playsWithoutWin: plays.map((r) => ({ playId: r.play_id, winCents: r.win_cents, owedCents: r.owed })),
    soldBetsWithoutPlay: await ids(q.soldBetsWithoutPlay, 'request_id'),
    cancelledBetsWithoutRollback: await ids(q.cancelledBetsWithoutRollback, 'request_id'),
    walletPlaysWithoutBet: await ids(q.walletPlaysWithoutBet, 'play_id'),
  });
}

/** The wallet's latest balance of a player: an older answer never replaces a newer one. */
export const WALLET_BALANCE_UPSERT = `INSERT INTO wallet_balances (player_id, balance_cents, seen_at) VALUES (?, ?, ?)
  ON CONFLICT (player_id) DO UPDATE SET balance_cents = excluded.balance_cents, seen_at = excluded.seen_at
  WHERE excluded.seen_at >= wallet_balances.seen_at`;
