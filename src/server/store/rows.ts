import type { StakeCents, Unit } from '../../rules/index.ts';
import type { Launched } from '../../contract/api.ts';
import type { Statement } from './dialect.ts';
import type { LedgerEntry } from './ledgerRules.ts';
import { decodeUnit } from './unitCode.ts';
import type { BlockPool, BlockRecord, PlayerRecord, PlayRecord } from './types.ts';

/**
 * Rows as both databases return them, and their mapping to records, written once. The
 * schemas match column for column; only booleans differ: PostgreSQL returns them as
 * booleans, SQLite as 0 and 1. PostgreSQL's BIGINT comes back as a number (the store's
 * type parser), like SQLite's INTEGER.
 */

/** A stored boolean: `true`/`false` from PostgreSQL, 1/0 from SQLite. */
export type DbBoolean = boolean | number;

export interface PlayRow {
  play_id: string;
  player_id: string;
  stake_cents: number;
  block_id: string | null;
  position: number | null;
  pool: string | null;
  fixture: DbBoolean;
  unit_code: string;
  bells: number;
  points: number;
  jeu1_cents: number;
  jeu2_cents: number;
  win_cents: number;
  balance_before_cents: number;
  balance_after_cents: number;
  launched: number;
  finished: DbBoolean;
  created_at: string;
}

export interface BlockRow {
  id: string;
  stake_cents: number;
  pool: string;
  file_path: string;
  count: number;
  next_position: number;
  status: string;
}

export interface PlayerRow {
  id: string;
  kind: string;
  balance_cents: number;
}

export const PLAY_COLUMNS = `play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
  jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, launched, finished, created_at, pool`;

export const BLOCK_COLUMNS = 'id, stake_cents, pool, file_path, count, next_position, status';

export const PLAYER_COLUMNS = 'id, kind, balance_cents';

export function launchedFromMask(mask: number): Launched {
  return [(mask & 1) !== 0, (mask & 2) !== 0, (mask & 4) !== 0, (mask & 8) !== 0];
}

export function maskFromLaunched(launched: Launched): number {
  return launched.reduce((mask, on, i) => (on ? mask | (1 << i) : mask), 0);
}

export function toPlay(row: PlayRow, unit?: Unit): PlayRecord {
  const stakeCents = row.stake_cents as StakeCents;
  return {
    playId: row.play_id,
    playerId: row.player_id,
    stakeCents,
    blockId: row.block_id,
    position: row.position,
    pool: row.pool as PlayRecord['pool'],
    fixture: Boolean(row.fixture),
    unit: unit ?? decodeUnit(row.unit_code, stakeCents),
    bells: row.bells,
    points: row.points,
    jeu1WinCents: row.jeu1_cents,
    jeu2WinCents: row.jeu2_cents,
    winCents: row.win_cents,
    balanceBeforeCents: row.balance_before_cents,
    balanceAfterCents: row.balance_after_cents,
    launched: launchedFromMask(row.launched),
    finished: Boolean(row.finished),
    createdAt: row.created_at,
  };
}

export function toBlock(row: BlockRow): BlockRecord {
  return {
    id: row.id,
    stakeCents: row.stake_cents as StakeCents,
    pool: row.pool as BlockRecord['pool'],
    filePath: row.file_path,
    count: row.count,
    nextPosition: row.next_position,
    status: row.status as BlockRecord['status'],
  };
}

export function toPlayer(row: PlayerRow): PlayerRecord {
  return { id: row.id, kind: row.kind as PlayerRecord['kind'], balanceCents: row.balance_cents };
}

/** The key of a stake's queue in one pool, as a batch reads and sells them. */
export type QueueKey = `${StakeCents}:${BlockPool}`;

export function queueKey(stakeCents: StakeCents, pool: BlockPool): QueueKey {
  return `${stakeCents}:${pool}`;
}

/**
 * Adds a block on sale to its stake's and pool's list as a batch reads them: the open block
 * first, whatever its place in the queue, then the queued ones in the order they come (by seq).
 */
export function addBlockOnSale(blocks: Map<QueueKey, BlockRecord[]>, row: BlockRow): void {
  const key = queueKey(row.stake_cents as StakeCents, row.pool as BlockPool);
  let list = blocks.get(key);
  if (!list) blocks.set(key, (list = []));
  if (row.status === 'open') list.unshift(toBlock(row));
  else list.push(toBlock(row));
}

/** A ledger entry outside a play batch (a funding, an adjustment) as one statement. */
export function insertEntry(e: LedgerEntry): Statement {
  return [
    'INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [e.txn, e.account, e.amountCents, e.playId, e.kind, e.createdAt],
  ];
}
