import { randomUUID } from 'node:crypto';
import type { Cents, StakeCents } from '../../rules/index.ts';
import type { Statement, StoreDialect } from '../store/dialect.ts';
import { adjustmentEntries } from '../store/ledgerRules.ts';
import { PLAYER_COLUMNS, toPlayer, type PlayerRow } from '../store/rows.ts';
import type { PlayerRecord } from '../store/types.ts';

/**
 * The writes only tests make, built on a store's dialect: no production store has them,
 * and nothing outside test mode (and the test harness) can reach this file.
 */
export interface TestBook {
  /** A ledger adjustment against house:adjustments; null: no such player. */
  setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null>;
  /** Closes every block of a stake. */
  closeBlocksOfStake(stakeCents: StakeCents): Promise<void>;
  /** Moves a block's cursor (real blocks always sell from 0 to the end). */
  forceBlockCursor(blockId: string, nextPosition: number): Promise<void>;
}

/** An adjustment's entry, written only while the player's balance is still the one it was computed from. */
const GUARDED_ENTRY = `INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at)
  SELECT ?, ?, CAST(? AS BIGINT), ?, ?, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ? AND balance_cents = ?)`;

export function createTestBook(db: StoreDialect): TestBook {
  return {
    async setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null> {
      for (;;) {
        const [row] = await db.all<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?`, [playerId]);
        if (!row) return db.afterDurable(null);
        const from = row.balance_cents;
        const entries = adjustmentEntries(playerId, from, balanceCents, randomUUID(), now.toISOString());
        if (entries.length === 0) return db.afterDurable({ ...toPlayer(row), balanceCents });
        // The row locked first (PostgreSQL), then written only if the balance is still the one
        // read: a play sold in between would make the adjustment wrong, so it is read again.
        const unchanged = [playerId, from];
        await db.writeInOneTransaction([
          ['UPDATE players SET balance_cents = balance_cents WHERE id = ?', [playerId]],
          ...entries.map((e): Statement => [
            GUARDED_ENTRY,
            [e.txn, e.account, e.amountCents, e.playId, e.kind, e.createdAt, ...unchanged],
          ]),
          ['UPDATE players SET balance_cents = ? WHERE id = ? AND balance_cents = ?', [balanceCents, ...unchanged]],
        ]);
        const [after] = await db.all<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?`, [playerId]);
        if (after?.balance_cents === balanceCents) return db.afterDurable(toPlayer(after));
      }
    },

    async closeBlocksOfStake(stakeCents: StakeCents): Promise<void> {
      await db.write(`UPDATE blocks SET status = 'closed' WHERE stake_cents = ?`, [stakeCents]);
    },

    async forceBlockCursor(blockId: string, nextPosition: number): Promise<void> {
      await db.write('UPDATE blocks SET next_position = ? WHERE id = ?', [nextPosition, blockId]);
    },
  };
}
