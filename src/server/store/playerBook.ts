import { randomUUID } from 'node:crypto';
import type { Cents } from '../../rules/index.ts';
import type { StoreDialect } from './dialect.ts';
import { fundingEntries } from './ledgerRules.ts';
import type { PlayerBook } from './parts.ts';
import { insertEntry, PLAYER_COLUMNS, toPlayer, type PlayerRow } from './rows.ts';
import type { PlayerRecord } from './types.ts';

/** The players: a demo player funded through the ledger, a portal player on first sight. */
export function createPlayerBook(db: StoreDialect): PlayerBook {
  const getPlayer = async (playerId: string): Promise<PlayerRecord | null> => {
    const [row] = await db.all<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?`, [playerId]);
    return db.afterDurable(row ? toPlayer(row) : null);
  };
  return {
    getPlayer,

    async createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord> {
      const id = `demo-${randomUUID()}`;
      const at = now.toISOString();
      await db.writeInOneTransaction([
        [`INSERT INTO players (id, kind, balance_cents, created_at) VALUES (?, 'demo', ?, ?)`, [id, balanceCents, at]],
        ...fundingEntries(id, balanceCents, at).map(insertEntry),
      ]);
      return { id, kind: 'demo', balanceCents };
    },

    async ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord> {
      await db.write(
        `INSERT INTO players (id, kind, balance_cents, created_at) VALUES (?, 'portal', 0, ?) ON CONFLICT (id) DO NOTHING`,
        [playerId, now.toISOString()],
      );
      return (await getPlayer(playerId))!;
    },
  };
}
