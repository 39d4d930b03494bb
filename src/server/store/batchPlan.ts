import { evaluate, type StakeCents, type Unit } from '../../rules/index.ts';
import { playerAccount, pushPlayEntries, walletAccount, type LedgerEntry } from './ledgerRules.ts';
import { queueKey, type QueueKey } from './rows.ts';
import {
  poolOfPlayer,
  type BlockPool,
  type BlockRecord,
  type BlockStatus,
  type BuyRefusal,
  type BuyRequest,
  type BuyResult,
  type OutboxEntry,
  type PlayerKind,
  type PlayRecord,
  type UnitSource,
  type WalletBetState,
} from './types.ts';

/**
 * How a batch of plays is decided, the same for every store: SQLite and PostgreSQL read
 * the batch's state in their transaction, call planBatch, and write what it decided.
 * The entries each play writes come from ledgerRules.
 */

/** What one batch transaction read (under row locks where the database has them) before deciding. */
export interface BatchReads {
  /** Plays already stored under one of the batch's playIds. */
  existing: Map<string, PlayRecord>;
  /** Balance of each of the batch's players that exists. */
  balances: Map<string, number>;
  /** Kind of each of the batch's players that exists: it decides the pool that may sell to them. */
  kinds: Map<string, PlayerKind>;
  /** Per stake and pool: its open and queued blocks, the open one first, then the queue in order. */
  blocks: Map<QueueKey, BlockRecord[]>;
  /** The state of each wallet bet the batch settles (locked with the players). */
  walletBets: Map<string, WalletBetState>;
}

/** A win or rollback the batch owes the wallet: the outbox row it inserts. */
export type OutboxInsert = Pick<
  OutboxEntry,
  | 'requestId'
  | 'kind'
  | 'betRequestId'
  | 'playId'
  | 'playerId'
  | 'walletPlayerId'
  | 'amountCents'
  | 'nextAttemptAt'
  | 'createdAt'
>;

/** A play's ledger entry (built by ledgerRules). */
export type EntryWrite = LedgerEntry<'stake' | 'prize'>;

export interface BlockWrite {
  nextPosition: number;
  status: BlockStatus;
  /** Whether it was the open block before the batch: a block that opens is written after those that close. */
  wasOpen: boolean;
}

/** Everything the batch writes, decided in memory. */
export interface BatchWrites {
  /** New plays, each with its unit encoded for storage. */
  plays: { play: PlayRecord; unitCode: string }[];
  entries: EntryWrite[];
  /** Final balance of each player whose money moved. */
  balances: Map<string, number>;
  /** Final cursor and status of each block that sold or changed status. */
  blocks: Map<string, BlockWrite>;
  /** Wallet bets the batch settles: sold (a win owed) or cancelled (a rollback owed). */
  walletBets: Map<string, { state: 'sold' | 'cancelled'; at: string }>;
  outbox: OutboxInsert[];
  /** The wallet's latest balance per player, from the bets' answers. */
  walletBalances: Map<string, { balanceCents: number; seenAt: string }>;
}

/** An empty BatchReads, for stores and tests that fill it. */
export function emptyReads(): BatchReads {
  return { existing: new Map(), balances: new Map(), kinds: new Map(), blocks: new Map(), walletBets: new Map() };
}

/** What one call of a group-committed batch came to: its result, or the error it fails alone with. */
export type Settled<T> = { result: T } | { error: unknown };

export type Outcome = Settled<BuyResult>;

/** A call waiting in a store's queue for its batch. */
export interface Waiting<T> {
  resolve: (result: T) => void;
  reject: (error: unknown) => void;
}

/** A play waiting in a store's queue for its batch. */
export interface PendingPlay extends Waiting<BuyResult> {
  request: BuyRequest;
}

/**
 * Answers each call of a committed batch with its outcome once `durable` says the batch is
 * on disk; if it cannot be made durable, its fate is unknown and every call fails (clients
 * retry under the same playIds, which replays what was stored).
 */
export function answerWhenDurable<T>(
  batch: readonly Waiting<T>[],
  outcomes: readonly Settled<T>[],
  durable: Promise<void>,
): void {
  durable.then(
    () =>
      outcomes.forEach((outcome, i) => {
        if ('result' in outcome) batch[i]!.resolve(outcome.result);
        else batch[i]!.reject(outcome.error);
      }),
    (error: unknown) => {
      for (const item of batch) item.reject(error);
    },
  );
}

/**
 * Decides a batch of plays in order, each play seeing the balances and cursors the
 * earlier ones left: replay of a known playId, sales window, player, balance, then the
 * next unit of the stake's open block (closing it on its last unit and opening the next
 * queued one), the lot, the new balance and the ledger entries. A play that throws fails
 * alone and writes nothing. Units are taken from the cursors in memory, so a batch moves
 * each block row once, whatever its size.
 */
export function planBatch(
  requests: readonly BuyRequest[],
  reads: BatchReads,
  units: UnitSource,
  encodeUnit: (unit: Unit) => string,
): { outcomes: Outcome[]; writes: BatchWrites } {
  const writes: BatchWrites = {
    plays: [],
    entries: [],
    balances: new Map(),
    blocks: new Map(),
    walletBets: new Map(),
    outbox: [],
    walletBalances: new Map(),
  };
  const known = new Map(reads.existing);
  const kinds = reads.kinds;
  const betStates = new Map(reads.walletBets);
  const balances = new Map(reads.balances);
  const blocks = new Map([...reads.blocks].map(([stake, list]) => [stake, list.map((block) => ({ ...block }))]));
  const wasOpen = new Map([...reads.blocks.values()].flat().map((block) => [block.id, block.status === 'open']));

  const touch = (block: BlockRecord) =>
    writes.blocks.set(block.id, {
      nextPosition: block.nextPosition,
      status: block.status,
      wasOpen: wasOpen.get(block.id) ?? false,
    });

  /** Opens the next queued block that still holds units. */
  const openNext = (queue: BlockRecord[]): BlockRecord | undefined => {
    const next = queue.find((b) => b.status === 'queued' && b.nextPosition < b.count);
    if (next) {
      next.status = 'open';
      touch(next);
    }
    return next;
  };

  const blockToSell = (stake: StakeCents, pool: BlockPool): BlockRecord | undefined => {
    const queue = blocks.get(queueKey(stake, pool)) ?? [];
    const open = queue.find((b) => b.status === 'open');
    if (open && open.nextPosition < open.count) return open;
    if (open) {
      open.status = 'closed';
      touch(open);
    }
    return openNext(queue);
  };

  /** A wallet bet that answered OK but sells nothing is reversed: its rollback is owed. */
  const cancelBet = (request: BuyRequest): void => {
    const sale = request.wallet;
    if (!sale) return;
    const at = request.now.toISOString();
    betStates.set(sale.betRequestId, 'cancelled');
    writes.walletBets.set(sale.betRequestId, { state: 'cancelled', at });
    writes.outbox.push({
      requestId: sale.settlementRequestId,
      kind: 'rollback',
      betRequestId: sale.betRequestId,
      playId: request.playId,
      playerId: request.playerId,
      walletPlayerId: sale.walletPlayerId,
      amountCents: request.stakeCents,
      nextAttemptAt: sale.heldUntil.toISOString(),
      createdAt: at,
    });
  };

  const decide = (request: BuyRequest): BuyResult => {
    const { playerId, playId, stakeCents, pool, wallet } = request;
    const existing = known.get(playId);
    // A wallet bet is settled once, whatever else happens to its play: if another request
    // settled it (or a stale bet was rolled back), this one sells nothing.
    if (wallet && betStates.get(wallet.betRequestId) !== 'sending') return { ok: false, code: 'WALLET_UNAVAILABLE' };
    if (existing) {
      if (wallet) {
        cancelBet(request);
        return { ok: false, code: 'PLAY_ID_REUSED' };
      }
      if (existing.playerId !== playerId || existing.stakeCents !== stakeCents) {
        return { ok: false, code: 'PLAY_ID_REUSED' };
      }
      const balanceCents = balances.get(playerId) ?? existing.balanceAfterCents;
      return { ok: true, play: existing, balanceCents, replayed: true };
    }
    const refuse = (code: BuyRefusal): BuyResult => {
      cancelBet(request);
      return { ok: false, code };
    };
    if (!request.salesOpen) return refuse('SALES_CLOSED');
    const gameBalance = balances.get(playerId);
    if (gameBalance === undefined) return refuse('NOT_FOUND');
    // Real money is never play money: whatever the caller asked, a player buys only from
    // the pool of their kind (the play fails alone, nothing taken).
    const kind = kinds.get(playerId);
    if (kind === undefined || poolOfPlayer(kind) !== pool) {
      throw new Error(`play ${playId}: a ${kind ?? 'unknown'} player may not buy from the ${pool} pool`);
    }
    // At the wallet the bet took the stake already: its answer is the balance after it.
    const before = wallet ? wallet.betBalanceCents + stakeCents : gameBalance;
    if (!wallet && before < stakeCents) return { ok: false, code: 'INSUFFICIENT_BALANCE' };

    let unit: Unit;
    let block: BlockRecord | undefined;
    let position: number | null = null;
    if (request.fixtureUnit) {
      unit = request.fixtureUnit;
    } else {
      block = blockToSell(stakeCents, pool);
      if (!block) return refuse('SOLD_OUT');
      if (block.pool !== pool) throw new Error(`block ${block.id} of the ${block.pool} pool sold to the ${pool} pool`);
      if (!units.isPublished(block, request.now)) {
        cancelBet(request);
        return { ok: false, code: 'ROOT_PENDING', block: { ...block } };
      }
      position = block.nextPosition;
      unit = units.unitAt(block, position, request.now);
    }
    if (unit.stakeCents !== stakeCents) throw new Error(`unit of ${unit.stakeCents} cents sold at ${stakeCents}`);
    const result = evaluate(unit);
    const unitCode = encodeUnit(unit);
    // Nothing above may fail once the cursor moves: a refused play takes no unit.
    if (block) {
      block.nextPosition += 1;
      if (block.nextPosition === block.count) {
        // Change-over now, so the stake shows as on sale only while a unit is left.
        block.status = 'closed';
        touch(block);
        openNext(blocks.get(queueKey(stakeCents, pool)) ?? []);
      }
      touch(block);
    }
    const after = before - stakeCents + result.winCents;
    const at = request.now.toISOString();
    if (wallet) {
      // The game's balance of the player does not move: the money is at the wallet.
      betStates.set(wallet.betRequestId, 'sold');
      writes.walletBets.set(wallet.betRequestId, { state: 'sold', at });
      writes.outbox.push({
        requestId: wallet.settlementRequestId,
        kind: 'win',
        betRequestId: wallet.betRequestId,
        playId,
        playerId,
        walletPlayerId: wallet.walletPlayerId,
        amountCents: result.winCents,
        nextAttemptAt: wallet.heldUntil.toISOString(),
        createdAt: at,
      });
      writes.walletBalances.set(playerId, { balanceCents: wallet.betBalanceCents, seenAt: at });
    } else {
      balances.set(playerId, after);
      writes.balances.set(playerId, after);
    }
    const play: PlayRecord = {
      playId,
      playerId,
      stakeCents,
      blockId: block?.id ?? null,
      position,
      pool: block?.pool ?? null,
      fixture: request.fixtureUnit !== undefined,
      unit,
      bells: result.bells,
      points: result.points,
      jeu1WinCents: result.jeu1WinCents,
      jeu2WinCents: result.jeu2WinCents,
      winCents: result.winCents,
      balanceBeforeCents: before,
      balanceAfterCents: after,
      launched: [false, false, false, false],
      finished: false,
      createdAt: at,
    };
    writes.plays.push({ play, unitCode });
    known.set(playId, play);
    const account = wallet ? walletAccount(playerId) : playerAccount(playerId);
    pushPlayEntries(writes.entries, playId, account, stakeCents, result.winCents, at);
    return { ok: true, play, balanceCents: after, replayed: false };
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

/**
 * The block updates split for a safe order: those that close or only move first, then
 * those that open, so that a stake never has two open blocks at any row.
 */
export function splitBlockWrites(blocks: Map<string, BlockWrite>): {
  first: [string, BlockWrite][];
  opening: [string, BlockWrite][];
} {
  const all = [...blocks];
  const opens = ([, b]: [string, BlockWrite]) => b.status === 'open' && !b.wasOpen;
  return { first: all.filter((b) => !opens(b)), opening: all.filter(opens) };
}

/** The block updates in that safe order, as one list. */
export function blockWritesInOrder(blocks: Map<string, BlockWrite>): [string, BlockWrite][] {
  const { first, opening } = splitBlockWrites(blocks);
  return [...first, ...opening];
}
