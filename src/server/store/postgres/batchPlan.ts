import { evaluate, type StakeCents, type Unit } from '../../../rules/index.ts';
import { encodeUnit } from '../../unitCode.ts';
import type { BuyRequest, BuyResult, UnitSource } from '../types.ts';
import { toPlay, type BlockRow, type PlayerRow, type PlayRow } from './rows.ts';

/** What one batch transaction read, under row locks, before deciding. */
export interface BatchReads {
  /** Plays already stored under one of the batch's playIds. */
  existing: Map<string, PlayRow>;
  /** The batch's players, locked. */
  players: Map<string, PlayerRow>;
  /** Per stake: its open and queued blocks, locked, the open one first, then the queue in order. */
  blocks: Map<StakeCents, BlockRow[]>;
}

export interface EntryRow {
  txn: string;
  account: string;
  amountCents: number;
  playId: string;
  kind: 'stake' | 'prize';
  createdAt: string;
}

/** Everything the batch writes, decided in memory; one statement stores it. */
export interface BatchWrites {
  plays: PlayRow[];
  entries: EntryRow[];
  /** Final balance of each player whose money moved. */
  balances: Map<string, number>;
  /** Final cursor and status of each block that sold or changed status. */
  blocks: Map<string, { nextPosition: number; status: string; wasOpen: boolean }>;
}

export type Outcome = { result: BuyResult } | { error: unknown };

/**
 * Decides a batch of plays exactly as SQLite decides them one after another: the same
 * checks in the same order, each play seeing the balances and cursors the earlier ones
 * left. Units are taken from the locked cursors in memory, so the batch holds the block
 * row once, whatever its size; the store writes the result in the same transaction.
 */
export function planBatch(
  requests: readonly BuyRequest[],
  reads: BatchReads,
  units: UnitSource,
): {
  outcomes: Outcome[];
  writes: BatchWrites;
} {
  const writes: BatchWrites = { plays: [], entries: [], balances: new Map(), blocks: new Map() };
  const known = new Map(reads.existing);
  const balances = new Map([...reads.players].map(([id, row]) => [id, row.balance_cents]));
  const blocks = new Map([...reads.blocks].map(([stake, rows]) => [stake, rows.map((row) => ({ ...row }))]));
  const wasOpen = new Map([...reads.blocks.values()].flat().map((row) => [row.id, row.status === 'open']));

  const touch = (block: BlockRow) =>
    writes.blocks.set(block.id, {
      nextPosition: block.next_position,
      status: block.status,
      wasOpen: wasOpen.get(block.id) ?? false,
    });

  /** Opens the next queued block that still holds units, as the SQLite store does. */
  const openNext = (queue: BlockRow[]): BlockRow | undefined => {
    const next = queue.find((b) => b.status === 'queued' && b.next_position < b.count);
    if (next) {
      next.status = 'open';
      touch(next);
    }
    return next;
  };

  const blockToSell = (stake: StakeCents): BlockRow | undefined => {
    const queue = blocks.get(stake) ?? [];
    const open = queue.find((b) => b.status === 'open');
    if (open && open.next_position < open.count) return open;
    if (open) {
      open.status = 'closed';
      touch(open);
    }
    return openNext(queue);
  };

  const decide = (request: BuyRequest): BuyResult => {
    const { playerId, playId, stakeCents } = request;
    const existing = known.get(playId);
    if (existing) {
      if (existing.player_id !== playerId || existing.stake_cents !== stakeCents) {
        return { ok: false, code: 'PLAY_ID_REUSED' };
      }
      const balanceCents = balances.get(playerId) ?? existing.balance_after_cents;
      return { ok: true, play: toPlay(existing), balanceCents, replayed: true };
    }
    if (!request.salesOpen) return { ok: false, code: 'SALES_CLOSED' };
    const before = balances.get(playerId);
    if (before === undefined) return { ok: false, code: 'NOT_FOUND' };
    if (before < stakeCents) return { ok: false, code: 'INSUFFICIENT_BALANCE' };

    let unit: Unit;
    let block: BlockRow | undefined;
    let position: number | null = null;
    if (request.fixtureUnit) {
      unit = request.fixtureUnit;
    } else {
      block = blockToSell(stakeCents);
      if (!block) return { ok: false, code: 'SOLD_OUT' };
      position = block.next_position;
      unit = units.unitAt({ id: block.id, filePath: block.file_path }, position);
    }
    if (unit.stakeCents !== stakeCents) throw new Error(`unit of ${unit.stakeCents} cents sold at ${stakeCents}`);
    const result = evaluate(unit);
    // Nothing above may fail once the cursor moves: a refused play takes no unit.
    if (block) {
      block.next_position += 1;
      if (block.next_position === block.count) {
        // Change-over now, so the stake shows as on sale only while a unit is left.
        block.status = 'closed';
        touch(block);
        openNext(blocks.get(stakeCents) ?? []);
      }
      touch(block);
    }
    const after = before - stakeCents + result.winCents;
    balances.set(playerId, after);
    writes.balances.set(playerId, after);
    const at = request.now.toISOString();
    const row: PlayRow = {
      play_id: playId,
      player_id: playerId,
      stake_cents: stakeCents,
      block_id: block?.id ?? null,
      position,
      fixture: request.fixtureUnit !== undefined,
      unit_code: encodeUnit(unit),
      bells: result.bells,
      points: result.points,
      jeu1_cents: result.jeu1WinCents,
      jeu2_cents: result.jeu2WinCents,
      win_cents: result.winCents,
      balance_before_cents: before,
      balance_after_cents: after,
      launched: 0,
      finished: false,
      created_at: at,
    };
    writes.plays.push(row);
    known.set(playId, row);
    const account = `player:${playerId}`;
    const entry = (txn: string, acc: string, amountCents: number, kind: EntryRow['kind']) =>
      writes.entries.push({ txn, account: acc, amountCents, playId, kind, createdAt: at });
    entry(`stake:${playId}`, account, -stakeCents, 'stake');
    entry(`stake:${playId}`, 'house:sales', stakeCents, 'stake');
    if (result.winCents > 0) {
      entry(`prize:${playId}`, 'house:prizes', -result.winCents, 'prize');
      entry(`prize:${playId}`, account, result.winCents, 'prize');
    }
    return { ok: true, play: toPlay(row, unit), balanceCents: after, replayed: false };
  };

  const outcomes = requests.map((request): Outcome => {
    try {
      return { result: decide(request) };
    } catch (error) {
      return { error };
    }
  });
  return { outcomes, writes };
}
