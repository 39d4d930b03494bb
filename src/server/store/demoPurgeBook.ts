import type { Statement, StoreDialect } from './dialect.ts';
import { purgeableDemoPlayers, purgeableParams, purgeStatements, type EntriesLookup } from './demoPurgeSql.ts';
import type { DemoPurgeBook } from './parts.ts';
import type { DemoPurge, IdleDemoPlayer } from './types.ts';

/** How a database binds a list of ids as one parameter, and finds a purged player's ledger rows. */
export interface IdList {
  /** What follows `id` to match it against the bound list. */
  match: string;
  bind(ids: readonly string[]): unknown;
  entries: EntriesLookup;
}

export function createDemoPurgeBook(db: StoreDialect, ids: IdList): DemoPurgeBook {
  return {
    async idleDemoPlayers(
      cutoff: Date,
      page: { after: IdleDemoPlayer | null; limit: number },
    ): Promise<IdleDemoPlayer[]> {
      const rows = await db.all<{ id: string; created_at: string; plays: number }>(
        purgeableDemoPlayers(null),
        purgeableParams(cutoff.toISOString(), null, { after: page.after, limit: page.limit }),
      );
      return db.afterDurable(rows.map((r) => ({ playerId: r.id, createdAt: r.created_at, plays: Number(r.plays) })));
    },

    async purgeDemoPlayers(playerIds: readonly string[], cutoff: Date): Promise<DemoPurge> {
      if (playerIds.length === 0) return { playerIds: [], plays: 0 };
      const asked = ids.bind(playerIds);
      const reads: Statement[] = [[purgeableDemoPlayers(ids.match), purgeableParams(cutoff.toISOString(), asked)]];
      // Locked in id order first, as a play batch locks its players: a batch in flight for one of
      // them ends first, and the check (a statement of its own) sees its play. SQLite has one
      // writer: nothing sells between the check and the deletes.
      if (db.forUpdate)
        reads.unshift([`SELECT id FROM players WHERE id ${ids.match} ORDER BY id${db.forUpdate}`, [asked]]);
      return db.decideInOneTransaction(reads, (rows) => {
        const found = rows[rows.length - 1] as { id: string; plays: number }[];
        if (found.length === 0) return { writes: [], answer: { playerIds: [], plays: 0 } };
        const gone = found.map((r) => r.id);
        const bound = [ids.bind(gone)];
        return {
          writes: purgeStatements(ids.match, ids.entries).map((text): Statement => [text, bound]),
          answer: { playerIds: gone, plays: found.reduce((n, r) => n + Number(r.plays), 0) },
        };
      });
    },
  };
}
