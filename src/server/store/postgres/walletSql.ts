import type { BatchWrites } from '../batchPlan.ts';
import { OUTBOX_INSERT_COLUMNS } from '../walletRows.ts';

/**
 * The wallet's writes as PostgreSQL makes them in one statement each: a bet cancelled with
 * its rollback (a data-modifying CTE: both or neither), and a play batch's bets, outbox
 * rows and balances as arrays.
 */

const ROLLBACK_FROM_CANCELLED = `INSERT INTO wallet_outbox (${OUTBOX_INSERT_COLUMNS})`;

/** $1 now, $2 the bet's requestId, $3 the rollback's requestId, $4 when it is due. */
export const CANCEL_BET_SQL = `WITH cancelled AS (
    UPDATE wallet_bets SET state = 'cancelled', resolved_at = $1 WHERE request_id = $2 AND state = 'sending'
    RETURNING request_id, play_id, player_id, wallet_player, stake_cents
  )
  ${ROLLBACK_FROM_CANCELLED}
  SELECT $3, 'rollback', request_id, play_id, player_id, wallet_player, stake_cents, $4, $1, 'pending' FROM cancelled`;

/** $1 now: every bet still sending past its deadline, each with a rollback due now. */
export const CANCEL_STALE_BETS_SQL = `WITH cancelled AS (
    UPDATE wallet_bets SET state = 'cancelled', resolved_at = $1 WHERE state = 'sending' AND deadline_at < $1
    RETURNING request_id, play_id, player_id, wallet_player, stake_cents
  )
  ${ROLLBACK_FROM_CANCELLED}
  SELECT gen_random_uuid()::text, 'rollback', request_id, play_id, player_id, wallet_player, stake_cents, $1, $1,
         'pending'
  FROM cancelled`;

/** The statements that store a batch's wallet writes, none when the batch has none. */
export function walletWriteStatements(writes: BatchWrites): [string, unknown[]][] {
  const statements: [string, unknown[]][] = [];
  if (writes.walletBets.size > 0) {
    const bets = [...writes.walletBets];
    statements.push([
      `UPDATE wallet_bets b SET state = u.state, resolved_at = u.at
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, state, at)
       WHERE b.request_id = u.id AND b.state = 'sending'`,
      [bets.map(([id]) => id), bets.map(([, b]) => b.state), bets.map(([, b]) => b.at)],
    ]);
  }
  if (writes.outbox.length > 0) {
    const o = writes.outbox;
    statements.push([
      `INSERT INTO wallet_outbox (${OUTBOX_INSERT_COLUMNS})
       SELECT *, 'pending' FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                       $7::bigint[], $8::text[], $9::text[])`,
      [
        o.map((r) => r.requestId),
        o.map((r) => r.kind),
        o.map((r) => r.betRequestId),
        o.map((r) => r.playId),
        o.map((r) => r.playerId),
        o.map((r) => r.walletPlayerId),
        o.map((r) => r.amountCents),
        o.map((r) => r.nextAttemptAt),
        o.map((r) => r.createdAt),
      ],
    ]);
  }
  if (writes.walletBalances.size > 0) {
    const b = [...writes.walletBalances];
    statements.push([
      `INSERT INTO wallet_balances (player_id, balance_cents, seen_at)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])
       ON CONFLICT (player_id) DO UPDATE SET balance_cents = excluded.balance_cents, seen_at = excluded.seen_at
       WHERE excluded.seen_at >= wallet_balances.seen_at`,
      [b.map(([id]) => id), b.map(([, v]) => v.balanceCents), b.map(([, v]) => v.seenAt)],
    ]);
  }
  return statements;
}
