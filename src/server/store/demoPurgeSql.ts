import { HOUSE_ADJUSTMENTS, HOUSE_DEMO_FUNDING, PLAYER_ACCOUNT_PREFIX } from './ledgerRules.ts';

/**
 * The purge of idle demo players (demoPurge.ts), written once for both stores: which players
 * may go, and the statements that remove them. `idsMatch` is how the dialect matches an id against
 * a list bound as one parameter (SQLite: a JSON array; PostgreSQL: a text[]).
 *
 * A player may go only if it is a demo player created before the cutoff, with no play since,
 * and every play of theirs sold from a demo block: a play from before pools (pool NULL) took a
 * unit of a block that is real now, and a fixture comes from no block; neither is ever deleted,
 * so their player stays. No wallet row may name them (demo players never have one).
 */
export function purgeableDemoPlayers(idsMatch: string | null): string {
  // A page walks players_demo_by_age: the old demo players only, oldest first.
  const which = idsMatch === null ? ' AND (p.created_at, p.id) > (?, ?)' : ` AND p.id ${idsMatch}`;
  return `SELECT p.id AS id, p.created_at AS created_at,
      (SELECT COUNT(*) FROM plays x WHERE x.player_id = p.id) AS plays
    FROM players p
    WHERE p.kind = 'demo' AND p.created_at < ?${which}
      AND NOT EXISTS (SELECT 1 FROM plays x WHERE x.player_id = p.id
        AND (x.created_at >= ? OR x.pool IS NULL OR x.pool <> 'demo'))
      AND NOT EXISTS (SELECT 1 FROM wallet_bets w WHERE w.player_id = p.id)
      AND NOT EXISTS (SELECT 1 FROM wallet_balances w WHERE w.player_id = p.id)
    ORDER BY p.created_at, p.id${idsMatch === null ? ' LIMIT ?' : ''}`;
}

/** Where a page of purgeable players starts: after this player (by age, then id); null: the oldest. */
export interface PurgePageStart {
  createdAt: string;
  playerId: string;
}

/** Its parameters: the cutoff twice (created before; no play since) around the ids (or the page's start and size). */
export function purgeableParams(
  cutoff: string,
  ids: unknown,
  page?: { after: PurgePageStart | null; limit: number },
): unknown[] {
  if (page === undefined) return [cutoff, ids, cutoff];
  return [cutoff, page.after?.createdAt ?? '', page.after?.playerId ?? '', cutoff, page.limit];
}

/** How a store finds the ledger rows of the players it removes. */
export type EntriesLookup = 'scan' | 'indexed';

/**
 * The removal, in one transaction, of players already found purgeable (each statement binds
 * the same list): first their plays counted per block and lot into purged_plays (so that the
 * audit still balances each block's cursor and lots), then every ledger transaction that
 * touched their account (fundings, reloads, stakes, prizes, adjustments: each sums to zero, so
 * the ledger still does), their plays, their demo reloads' ids, and the players. Counts are written in block and lot order,
 * so that two purges at once (two instances) take those rows' locks in the same order.
 *
 * The ledger rows: SQLite's entries have no index but their rowid (each play appends to them;
 * an index would cost every play), so it reads them once per purge transaction (`scan`).
 * PostgreSQL's are indexed by play and by account (`indexed`): a play's rows are found by its
 * id, a funding's or adjustment's by the player's account and then the house account's.
 */
export function purgeStatements(idsMatch: string, entries: EntriesLookup): string[] {
  const accounts = `SELECT '${PLAYER_ACCOUNT_PREFIX}' || id FROM players WHERE id ${idsMatch}`;
  const entryStatements =
    entries === 'scan'
      ? [`DELETE FROM entries WHERE txn IN (SELECT txn FROM entries WHERE account IN (${accounts}))`]
      : [
          `DELETE FROM entries WHERE play_id IS NOT NULL
             AND play_id IN (SELECT play_id FROM plays WHERE player_id ${idsMatch})`,
          `DELETE FROM entries WHERE account IN ('${HOUSE_DEMO_FUNDING}', '${HOUSE_ADJUSTMENTS}')
             AND txn IN (SELECT txn FROM entries WHERE account IN (${accounts}) AND play_id IS NULL)`,
          `DELETE FROM entries WHERE account IN (${accounts})`,
        ];
  return [
    `INSERT INTO purged_plays (block_id, win_cents, plays, position_sum)
     SELECT block_id, win_cents, COUNT(*), SUM(position) FROM plays WHERE player_id ${idsMatch}
     GROUP BY block_id, win_cents ORDER BY block_id, win_cents
     ON CONFLICT (block_id, win_cents) DO UPDATE
       SET plays = purged_plays.plays + excluded.plays, position_sum = purged_plays.position_sum + excluded.position_sum`,
    ...entryStatements,
    `DELETE FROM plays WHERE player_id ${idsMatch}`,
    // « Recharger la démo »'s request ids: their money moved in the ledger, deleted above.
    `DELETE FROM demo_reloads WHERE player_id ${idsMatch}`,
    `DELETE FROM players WHERE id ${idsMatch}`,
  ];
}
