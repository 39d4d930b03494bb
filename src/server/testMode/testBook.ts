import type { Cents, StakeCents } from '../../rules/index.ts';
import type { Decision, Statement, StoreDialect } from '../store/dialect.ts';
import { adjustmentEntries } from '../store/ledgerRules.ts';
import { insertEntry, PLAYER_COLUMNS, toPlayer, type PlayerRow } from '../store/rows.ts';
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

export function createTestBook(db: StoreDialect): TestBook {
  return {
    setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null> {
      const player: Statement = [`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?${db.forUpdate}`, [playerId]];
      return db.decideInOneTransaction([player], ([rows]): Decision<PlayerRecord | null> => {
        const row = rows![0] as PlayerRow | undefined;
        if (!row) return { writes: [], answer: null };
        const at = now.toISOString();
        const entries = adjustmentEntries(playerId, row.balance_cents, balanceCents, crypto.randomUUID(), at);
        const newBalance: Statement = ['UPDATE players SET balance_cents = ? WHERE id = ?', [balanceCents, playerId]];
        const writes = entries.length === 0 ? [] : [...entries.map(insertEntry), newBalance];
        return { writes, answer: { ...toPlayer(row), balanceCents } };
      });
    },

    async closeBlocksOfStake(stakeCents: StakeCents): Promise<void> {
      await db.write(`UPDATE blocks SET status = 'closed' WHERE stake_cents = ?`, [stakeCents]);
    },

    async forceBlockCursor(blockId: string, nextPosition: number): Promise<void> {
      await db.write('UPDATE blocks SET next_position = ? WHERE id = ?', [nextPosition, blockId]);
    },
  };
}
