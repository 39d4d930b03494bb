import { randomUUID } from 'node:crypto';
import type { Cents } from '../../rules/index.ts';
import type { Decision, Statement, StoreDialect } from './dialect.ts';
import type { DemoReloadRequest, DemoReloadResult } from './demoReload.ts';
import {
  DEMO_RELOAD_FOUND,
  DEMO_RELOAD_INSERT,
  decideDemoReload,
  demoReloadEntries,
  demoReloadResult,
} from './demoReload.ts';
import { fundingEntries } from './ledgerRules.ts';
import type { PlayerBook } from './parts.ts';
import { insertEntry, PLAYER_COLUMNS, toPlayer, type PlayerRow } from './rows.ts';
import type { PlayerRecord } from './types.ts';

/** The players: a demo player funded through the ledger (and reloaded), a portal player on first sight. */
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

    reloadDemo(request: DemoReloadRequest): Promise<DemoReloadResult> {
      const { playerId, reloadId } = request;
      const reads: Statement[] = [
        // The player's row locked first, as a play batch does: a retry sent at once waits here, then finds the reload.
        [`SELECT ${PLAYER_COLUMNS} FROM players WHERE id = ?${db.forUpdate}`, [playerId]],
        [DEMO_RELOAD_FOUND, [playerId, reloadId]],
      ];
      return db.decideInOneTransaction(reads, ([players, found]): Decision<DemoReloadResult> => {
        const row = players![0] as PlayerRow | undefined;
        const decided = decideDemoReload(row ? toPlayer(row) : null, found!.length > 0, request);
        if (decided.kind !== 'reload') return { writes: [], answer: demoReloadResult(decided) };
        const at = request.now.toISOString();
        const { fromCents, toCents } = decided;
        return {
          writes: [
            [DEMO_RELOAD_INSERT, [playerId, reloadId, fromCents, toCents, at]],
            ...demoReloadEntries(playerId, reloadId, fromCents, toCents, at).map(insertEntry),
            ['UPDATE players SET balance_cents = ? WHERE id = ?', [toCents, playerId]],
          ],
          answer: demoReloadResult(decided),
        };
      });
    },
  };
}
