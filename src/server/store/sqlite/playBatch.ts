import type Database from 'better-sqlite3';
import type { BatchReads, BatchWrites, Outcome } from '../batchPlan.ts';
import { blockWritesInOrder, emptyReads, planBatch } from '../batchPlan.ts';
import type { BlockRow, PlayerRow, PlayRow } from '../rows.ts';
import { addBlockOnSale, BLOCK_COLUMNS, PLAY_COLUMNS, PLAYER_COLUMNS, queueKey, toPlay } from '../rows.ts';
import type { BuyRequest, PlayerKind, UnitSource, WalletBetState } from '../types.ts';
import { encodeUnit } from '../unitCode.ts';
import { WALLET_BALANCE_UPSERT } from '../walletBooks.ts';
import { BET_STATE_UPDATE, OUTBOX_INSERT, outboxInsertValues } from '../walletRows.ts';

/** The values of one INSERT INTO plays, in column order (launched and finished keep their defaults). */
type PlayInsert = [
  playId: string,
  playerId: string,
  stakeCents: number,
  blockId: string | null,
  position: number | null,
  fixture: 0 | 1,
  unitCode: string,
  bells: number,
  points: number,
  jeu1Cents: number,
  jeu2Cents: number,
  winCents: number,
  balanceBeforeCents: number,
  balanceAfterCents: number,
  createdAt: string,
  pool: string | null,
];

/** The statements of the play batch, prepared once: they run for every play. */
function prepareBatchStatements(db: Database.Database) {
  return {
    playById: db.prepare<[string], PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ?`),
    player: db.prepare<[string], PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?`),
    setBalance: db.prepare<[number, string]>('UPDATE players SET balance_cents = ? WHERE id = ?'),
    setBlock: db.prepare<[number, string, string]>('UPDATE blocks SET next_position = ?, status = ? WHERE id = ?'),
    blocksOnSale: db.prepare<[number, string], BlockRow>(
      `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE stake_cents = ? AND pool = ? AND status IN ('open', 'queued')
       ORDER BY seq`,
    ),
    // Positional parameters: binding by name costs a lookup per column and play.
    insertPlay: db.prepare<PlayInsert>(
      `INSERT INTO plays (play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
       jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, created_at, pool)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertEntry: db.prepare<[string, string, number, string | null, string, string]>(
      'INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    betState: db.prepare<[string], { state: string }>('SELECT state FROM wallet_bets WHERE request_id = ?'),
    setBetState: db.prepare<[string, string, string]>(BET_STATE_UPDATE),
    insertOutbox: db.prepare<ReturnType<typeof outboxInsertValues>>(OUTBOX_INSERT),
    noteBalance: db.prepare<[string, number, string]>(WALLET_BALANCE_UPSERT),
  };
}

/**
 * SQLite's play batch, inside the group commit's transaction: the batch's state read, the
 * plays decided by planBatch (the rules every store shares), then written.
 */
export class SqlitePlayBatch {
  readonly statements: ReturnType<typeof prepareBatchStatements>;

  constructor(
    db: Database.Database,
    private readonly units: UnitSource,
  ) {
    this.statements = prepareBatchStatements(db);
  }

  sell(requests: readonly BuyRequest[]): Outcome[] {
    const { outcomes, writes } = planBatch(requests, this.readForBatch(requests), this.units, encodeUnit);
    this.writeBatch(writes);
    return outcomes;
  }

  /** The batch's state, read inside its transaction (nothing else writes meanwhile: SQLite has one writer). */
  private readForBatch(requests: readonly BuyRequest[]): BatchReads {
    const reads: BatchReads = emptyReads();
    const { betState, playById, player, blocksOnSale } = this.statements;
    for (const { playId, playerId, stakeCents, pool, fixtureUnit, wallet } of requests) {
      if (wallet) {
        const bet = betState.get(wallet.betRequestId);
        if (bet) reads.walletBets.set(wallet.betRequestId, bet.state as WalletBetState);
      }
      if (!reads.existing.has(playId)) {
        const row = playById.get(playId);
        if (row) reads.existing.set(playId, toPlay(row));
      }
      if (!reads.balances.has(playerId)) {
        const found = player.get(playerId);
        if (found) {
          reads.balances.set(playerId, found.balance_cents);
          reads.kinds.set(playerId, found.kind as PlayerKind);
        }
      }
      const queue = queueKey(stakeCents, pool);
      if (!fixtureUnit && !reads.blocks.has(queue)) {
        reads.blocks.set(queue, []);
        for (const row of blocksOnSale.all(stakeCents, pool)) addBlockOnSale(reads.blocks, row);
      }
    }
    return reads;
  }

  private writeBatch(writes: BatchWrites): void {
    const { setBlock, insertPlay, insertEntry, setBalance, setBetState, insertOutbox, noteBalance } = this.statements;
    for (const [id, block] of blockWritesInOrder(writes.blocks)) setBlock.run(block.nextPosition, block.status, id);
    for (const { play, unitCode } of writes.plays) {
      insertPlay.run(
        play.playId,
        play.playerId,
        play.stakeCents,
        play.blockId,
        play.position,
        play.fixture ? 1 : 0,
        unitCode,
        play.bells,
        play.points,
        play.jeu1WinCents,
        play.jeu2WinCents,
        play.winCents,
        play.balanceBeforeCents,
        play.balanceAfterCents,
        play.createdAt,
        play.pool,
      );
    }
    for (const e of writes.entries) insertEntry.run(e.txn, e.account, e.amountCents, e.playId, e.kind, e.createdAt);
    for (const [playerId, balanceCents] of writes.balances) setBalance.run(balanceCents, playerId);
    for (const [requestId, { state, at }] of writes.walletBets) setBetState.run(state, at, requestId);
    for (const row of writes.outbox) insertOutbox.run(...outboxInsertValues(row));
    for (const [playerId, { balanceCents, seenAt }] of writes.walletBalances) {
      noteBalance.run(playerId, balanceCents, seenAt);
    }
  }
}
