import type { Launched } from '../../contract/api.ts';
import type { StoreDialect } from './dialect.ts';
import type { PlayBook } from './parts.ts';
import { maskFromLaunched, PLAY_COLUMNS, toPlay, type PlayRow } from './rows.ts';
import type { PlayRecord, PlaysQuery } from './types.ts';

/** A play as the player follows it: read, its wheels launched, finished. Selling it is the database's batch. */
export type PlayReads = Omit<PlayBook, 'buyPlay' | 'observePlayBatches'>;

export function createPlayReads(db: StoreDialect): PlayReads {
  const changedPlay = async (text: string, params: readonly unknown[]): Promise<PlayRecord | null> => {
    // A write waits for its own commit to be on disk, which covers the batch that sold the play.
    const { rows } = await db.write<PlayRow>(`${text} RETURNING ${PLAY_COLUMNS}`, params);
    return rows[0] ? toPlay(rows[0]) : null;
  };
  return {
    async getPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
      const [row] = await db.all<PlayRow>(`SELECT ${PLAY_COLUMNS} FROM plays WHERE play_id = ? AND player_id = ?`, [
        playId,
        playerId,
      ]);
      return db.afterDurable(row ? toPlay(row) : null);
    },

    async listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }> {
      let beforeSeq = Number.MAX_SAFE_INTEGER;
      if (query.beforePlayId !== undefined) {
        const [found] = await db.all<{ seq: number }>('SELECT seq FROM plays WHERE player_id = ? AND play_id = ?', [
          query.playerId,
          query.beforePlayId,
        ]);
        if (!found) return db.afterDurable({ plays: [], more: false });
        beforeSeq = found.seq;
      }
      const rows = await db.all<PlayRow>(
        `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
        [query.playerId, beforeSeq, query.limit + 1],
      );
      const plays = rows.slice(0, query.limit).map((row) => toPlay(row));
      return db.afterDurable({ plays, more: rows.length > query.limit });
    },

    async latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null> {
      const [row] = await db.all<PlayRow>(
        `SELECT ${PLAY_COLUMNS} FROM plays WHERE player_id = ? AND ${db.unfinished} ORDER BY seq DESC LIMIT 1`,
        [playerId],
      );
      return db.afterDurable(row ? toPlay(row) : null);
    },

    recordProgress(playerId: string, playId: string, launched: Launched): Promise<PlayRecord | null> {
      return changedPlay('UPDATE plays SET launched = launched | ? WHERE play_id = ? AND player_id = ?', [
        maskFromLaunched(launched),
        playId,
        playerId,
      ]);
    },

    finishPlay(playerId: string, playId: string): Promise<PlayRecord | null> {
      return changedPlay('UPDATE plays SET finished = TRUE, launched = 15 WHERE play_id = ? AND player_id = ?', [
        playId,
        playerId,
      ]);
    },
  };
}
