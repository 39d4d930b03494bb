import type { StakeCents } from '../../rules/index.ts';
import type { OutboxInsert } from './batchPlan.ts';
import type { OutboxEntry, OutboxKind, OutboxState, WalletBetRecord, WalletBetState } from './types.ts';

/** The wallet tables' rows as both databases return them, their columns and mappers. */

export interface WalletBetRow {
  request_id: string;
  play_id: string;
  player_id: string;
  wallet_player: string;
  stake_cents: number;
  state: string;
  refusal: string | null;
  created_at: string;
  deadline_at: string;
  resolved_at: string | null;
}

export interface OutboxRow {
  request_id: string;
  kind: string;
  bet_request_id: string;
  play_id: string;
  player_id: string;
  wallet_player: string;
  amount_cents: number;
  state: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  answer_status: string | null;
  balance_cents: number | null;
  created_at: string;
  settled_at: string | null;
}

export const WALLET_BET_COLUMNS =
  'request_id, play_id, player_id, wallet_player, stake_cents, state, refusal, created_at, deadline_at, resolved_at';

export const OUTBOX_COLUMNS = `request_id, kind, bet_request_id, play_id, player_id, wallet_player, amount_cents, state,
  attempts, next_attempt_at, last_error, answer_status, balance_cents, created_at, settled_at`;

/** The columns an outbox insert names, in the order of `outboxInsertValues` (state is 'pending'). */
export const OUTBOX_INSERT_COLUMNS =
  'request_id, kind, bet_request_id, play_id, player_id, wallet_player, amount_cents, next_attempt_at, created_at, state';

/** A pending outbox entry, its values from `outboxInsertValues`. */
export const OUTBOX_INSERT = `INSERT INTO wallet_outbox (${OUTBOX_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`;

/** A bet's outcome (state, time, request id), only while it is still `sending`. */
export const BET_STATE_UPDATE = `UPDATE wallet_bets SET state = ?, resolved_at = ? WHERE request_id = ? AND state = 'sending'`;

export function outboxInsertValues(
  o: OutboxInsert,
): [string, string, string, string, string, string, number, string, string] {
  return [
    o.requestId,
    o.kind,
    o.betRequestId,
    o.playId,
    o.playerId,
    o.walletPlayerId,
    o.amountCents,
    o.nextAttemptAt,
    o.createdAt,
  ];
}

export function toWalletBet(row: WalletBetRow): WalletBetRecord {
  return {
    requestId: row.request_id,
    playId: row.play_id,
    playerId: row.player_id,
    walletPlayerId: row.wallet_player,
    stakeCents: row.stake_cents as StakeCents,
    state: row.state as WalletBetState,
    refusal: row.refusal,
    createdAt: row.created_at,
    deadlineAt: row.deadline_at,
    resolvedAt: row.resolved_at,
  };
}

export function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    requestId: row.request_id,
    kind: row.kind as OutboxKind,
    betRequestId: row.bet_request_id,
    playId: row.play_id,
    playerId: row.player_id,
    walletPlayerId: row.wallet_player,
    amountCents: row.amount_cents,
    state: row.state as OutboxState,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    answerStatus: row.answer_status,
    balanceCents: row.balance_cents,
    createdAt: row.created_at,
    settledAt: row.settled_at,
  };
}

/** A stale bet's rollback: the whole bet amount, owed at once. */
export function rollbackOf(bet: WalletBetRecord, requestId: string, now: string, nextAttemptAt: string): OutboxInsert {
  return {
    requestId,
    kind: 'rollback',
    betRequestId: bet.requestId,
    playId: bet.playId,
    playerId: bet.playerId,
    walletPlayerId: bet.walletPlayerId,
    amountCents: bet.stakeCents,
    nextAttemptAt,
    createdAt: now,
  };
}
