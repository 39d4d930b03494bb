import type pg from 'pg';
import type { BatchWrites } from '../batchPlan.ts';
import type { NewWalletBet } from '../types.ts';
import { OUTBOX_INSERT_COLUMNS } from '../walletRows.ts';

/**
 * The wallet's writes as PostgreSQL makes them in one statement each: a bet cancelled with
 * its rollback (a data-modifying CTE: both or neither), a play batch's bets, outbox rows
 * and balances as arrays, and the gathered per-play writes (new bets, settled and retried
 * outbox entries) as arrays too, each group one statement committed synchronously.
 */

const ROLLBACK_FROM_CANCELLED = `INSERT INTO wallet_outbox (${OUTBOX_INSERT_COLUMNS})`;

/** $1 now, $2 the bet's requestId, $3 the rollback's requestId, $4 when it is due. */
export const CANCEL_BET_SQL = `WITH cancelled AS (
    UPDATE wallet_bets SET state = 'cancelled', resolved_at = $1 WHERE request_id = $2 AND state = 'sending'
    RETURNING request_id, play_id, player_id, wallet_player, stake_cents
  )
  ${ROLLBACK_FROM_CANCELLED}
  SELECT $3, 'rollback', request_id, play_id, player_id, wallet_player, stake_cents, $4, $1, 'pending' FROM cancelled`;

/**
 * A UUIDv7 made by PostgreSQL (15 has no uuidv7()): a random v4's first 48 bits replaced by
 * the clock's Unix milliseconds, and its version nibble turned from 4 into 7 (bits 52 and 53
 * of the 16 bytes, counted from each byte's low bit). Time-ordered like the ids the game
 * makes in TypeScript (src/common/uuidV7.ts), so that the outbox's key grows at its end.
 */
const UUID_V7_SQL = `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
    52, 1), 53, 1), 'hex')::uuid::text`;

/** $1 now: every bet still sending past its deadline, each with a rollback due now. */
export const CANCEL_STALE_BETS_SQL = `WITH cancelled AS (
    UPDATE wallet_bets SET state = 'cancelled', resolved_at = $1 WHERE state = 'sending' AND deadline_at < $1
    RETURNING request_id, play_id, player_id, wallet_player, stake_cents
  )
  ${ROLLBACK_FROM_CANCELLED}
  SELECT ${UUID_V7_SQL}, 'rollback', request_id, play_id, player_id, wallet_player, stake_cents, $1, $1, 'pending'
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

/** The pool's `query`: a statement of its own, committed (synchronous_commit on) when it answers. */
type Query = (text: string, values: unknown[]) => Promise<pg.QueryResult>;

/**
 * New bets, each stored unless its playId already has a bet or any play (one statement:
 * no bet slips in beside a play); per bet, whether it was stored. Of two bets of one
 * playId in the group, the first is.
 */
export async function insertBets(query: Query, bets: readonly NewWalletBet[]): Promise<boolean[]> {
  const { rows } = await query(
    `INSERT INTO wallet_bets (request_id, play_id, player_id, wallet_player, stake_cents, state, created_at, deadline_at)
     SELECT u.request_id, u.play_id, u.player_id, u.wallet_player, u.stake_cents, 'sending', u.created_at, u.deadline_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
       AS u(request_id, play_id, player_id, wallet_player, stake_cents, created_at, deadline_at)
     WHERE NOT EXISTS (SELECT 1 FROM plays p WHERE p.play_id = u.play_id)
     ON CONFLICT DO NOTHING
     RETURNING request_id, play_id`,
    [
      bets.map((b) => b.requestId),
      bets.map((b) => b.playId),
      bets.map((b) => b.playerId),
      bets.map((b) => b.walletPlayerId),
      bets.map((b) => b.stakeCents),
      bets.map((b) => b.createdAt),
      bets.map((b) => b.deadlineAt),
    ],
  );
  const stored = new Set(
    rows.map((row: { request_id: string; play_id: string }) => `${row.request_id} ${row.play_id}`),
  );
  // Each stored row answers one bet: a bet sent twice in the group is stored once.
  return bets.map((b) => stored.delete(`${b.requestId} ${b.playId}`));
}

export interface OutboxSettlement {
  requestId: string;
  state: 'done' | 'failed';
  answerStatus: string;
  balanceCents: number | null;
  settledAt: string;
}

/**
 * Settles outbox entries still pending, and keeps the balance each answer gave (the
 * newest per player, if newer than the one kept): one statement, both or neither. An
 * entry settled twice in the group is settled by the first.
 */
export async function settleEntries(query: Query, settlements: readonly OutboxSettlement[]): Promise<void[]> {
  const first = firstOfEach(settlements);
  await query(
    `WITH u AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) WITH ORDINALITY
         AS u(request_id, state, answer_status, balance_cents, settled_at, ord)
     ), settled AS (
       UPDATE wallet_outbox o SET state = u.state, answer_status = u.answer_status, balance_cents = u.balance_cents,
         settled_at = u.settled_at, attempts = o.attempts + 1, last_error = NULL
       FROM u WHERE o.request_id = u.request_id AND o.state = 'pending'
       RETURNING o.player_id, o.balance_cents, o.settled_at, u.ord
     )
     INSERT INTO wallet_balances (player_id, balance_cents, seen_at)
     SELECT DISTINCT ON (player_id) player_id, balance_cents, settled_at FROM settled
     WHERE balance_cents IS NOT NULL ORDER BY player_id, settled_at DESC, ord DESC
     ON CONFLICT (player_id) DO UPDATE SET balance_cents = excluded.balance_cents, seen_at = excluded.seen_at
     WHERE excluded.seen_at >= wallet_balances.seen_at`,
    [
      first.map((s) => s.requestId),
      first.map((s) => s.state),
      first.map((s) => s.answerStatus),
      first.map((s) => s.balanceCents),
      first.map((s) => s.settledAt),
    ],
  );
  return settlements.map(() => undefined);
}

export interface OutboxRetry {
  requestId: string;
  nextAttemptAt: string;
  error: string;
}

/** Outbox entries still pending, each tried again later (an entry named twice in the group: once, by the first). */
export async function retryEntries(query: Query, retries: readonly OutboxRetry[]): Promise<void[]> {
  const first = firstOfEach(retries);
  await query(
    `UPDATE wallet_outbox o SET attempts = o.attempts + 1, next_attempt_at = u.next_attempt_at, last_error = u.last_error
     FROM unnest($1::text[], $2::text[], $3::text[]) AS u(request_id, next_attempt_at, last_error)
     WHERE o.request_id = u.request_id AND o.state = 'pending'`,
    [first.map((r) => r.requestId), first.map((r) => r.nextAttemptAt), first.map((r) => r.error)],
  );
  return retries.map(() => undefined);
}

/** The first of the items naming each requestId, in order. */
function firstOfEach<T extends { requestId: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.requestId) && Boolean(seen.add(item.requestId)));
}
