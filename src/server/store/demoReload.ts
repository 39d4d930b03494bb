import type { Cents } from '../../rules/index.ts';
import type { ErrorCode } from '../../contract/api.ts';
import type { LedgerEntry } from './ledgerRules.ts';
import { HOUSE_DEMO_FUNDING, playerAccount } from './ledgerRules.ts';
import type { PlayerRecord } from './types.ts';

/**
 * « Recharger la démo »: a demo player whose play money no longer pays the smallest stake
 * gets the demo starting balance back, as a funding in the ledger (never a balance written
 * over), once per request id. Pure: both stores decide and book it here, inside their
 * transaction, with the player's row and whether the request id was already used.
 */

export interface DemoReloadRequest {
  playerId: string;
  /** The client's id of this reload: a retry with it answers again, and credits nothing more. */
  reloadId: string;
  /** The demo starting balance the play money goes back to. */
  toCents: Cents;
  /** Refused unless the balance is below this (the smallest stake). */
  belowCents: Cents;
  now: Date;
}

export type DemoReloadRefusal = Extract<ErrorCode, 'NOT_FOUND' | 'DEMO_ONLY' | 'BALANCE_NOT_LOW'>;

export type DemoReloadResult =
  { ok: true; balanceCents: Cents; replayed: boolean } | { ok: false; code: DemoReloadRefusal };

/** What a store does with a reload request: refuse it, answer an earlier reload again, or book one. */
export type DemoReloadDecision =
  | { kind: 'refuse'; code: DemoReloadRefusal }
  | { kind: 'replay'; balanceCents: Cents }
  | { kind: 'reload'; fromCents: Cents; toCents: Cents };

export function decideDemoReload(
  player: PlayerRecord | null,
  alreadyReloaded: boolean,
  request: Pick<DemoReloadRequest, 'toCents' | 'belowCents'>,
): DemoReloadDecision {
  if (!player) return { kind: 'refuse', code: 'NOT_FOUND' };
  // Real money is never play money: a portal player's balance is never topped up.
  if (player.kind !== 'demo') return { kind: 'refuse', code: 'DEMO_ONLY' };
  if (alreadyReloaded) return { kind: 'replay', balanceCents: player.balanceCents };
  if (player.balanceCents >= request.belowCents || player.balanceCents >= request.toCents) {
    return { kind: 'refuse', code: 'BALANCE_NOT_LOW' };
  }
  return { kind: 'reload', fromCents: player.balanceCents, toCents: request.toCents };
}

/** The answer once the decision is carried out. */
export function demoReloadResult(decision: DemoReloadDecision): DemoReloadResult {
  if (decision.kind === 'refuse') return { ok: false, code: decision.code };
  if (decision.kind === 'replay') return { ok: true, balanceCents: decision.balanceCents, replayed: true };
  return { ok: true, balanceCents: decision.toCents, replayed: false };
}

/** The reload's ledger transaction: the difference from house:demo-funding to the player. */
export function demoReloadEntries(
  playerId: string,
  reloadId: string,
  fromCents: Cents,
  toCents: Cents,
  createdAt: string,
): LedgerEntry<'funding'>[] {
  const delta = toCents - fromCents;
  const txn = `reload:${playerId}:${reloadId}`;
  return [
    { txn, account: HOUSE_DEMO_FUNDING, amountCents: -delta, playId: null, kind: 'funding', createdAt },
    { txn, account: playerAccount(playerId), amountCents: delta, playId: null, kind: 'funding', createdAt },
  ];
}

/** The reload's own row (demo_reloads), in column order. */
export const DEMO_RELOAD_INSERT = `INSERT INTO demo_reloads
  (player_id, reload_id, balance_before_cents, balance_after_cents, created_at) VALUES (?, ?, ?, ?, ?)`;
export const DEMO_RELOAD_FOUND = 'SELECT 1 AS found FROM demo_reloads WHERE player_id = ? AND reload_id = ?';
