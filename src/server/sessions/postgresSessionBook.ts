import pg from 'pg';
import type { RevokedSession, SessionBook, SessionState } from './sessionBook.ts';
import { SESSION_MIGRATIONS_TABLE, sessionMigrations } from './sessionSchema.ts';

/** Its own constant: the store's migrations take another lock, and neither waits for the other. */
const SESSION_MIGRATION_LOCK_KEY = 0x5e55_1045;

type StateRow = { player_id: string; last_seen_at: string; revoked_at: string | null };

/**
 * The sessions' book in the PostgreSQL database the instances share: a pool of its own
 * (two connections), so that a session's row never waits behind a play batch.
 */
export class PostgresSessionBook implements SessionBook {
  private constructor(private readonly pool: pg.Pool) {}

  static async connect(url: string): Promise<PostgresSessionBook> {
    const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'spincake-sessions' });
    pool.on('error', () => {});
    const book = new PostgresSessionBook(pool);
    try {
      await book.migrate();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return book;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SESSION_MIGRATION_LOCK_KEY]);
      try {
        await client.query(SESSION_MIGRATIONS_TABLE);
        const applied = new Set(
          (await client.query<{ version: number }>('SELECT version FROM session_schema_migrations')).rows.map(
            (r) => r.version,
          ),
        );
        for (const migration of sessionMigrations('')) {
          if (applied.has(migration.version)) continue;
          await client.query('BEGIN');
          try {
            await client.query(migration.sql);
            await client.query(
              'INSERT INTO session_schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
              [migration.version, migration.name, new Date().toISOString()],
            );
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [SESSION_MIGRATION_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  }

  async openSession(session: { sessionId: string; playerId: string; createdAt: string; expiresAt: string }) {
    await this.pool.query(
      'INSERT INTO sessions (session_id, player_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)',
      [session.sessionId, session.playerId, session.createdAt, session.expiresAt],
    );
  }

  async useLaunchToken(jti: string, expiresAt: string): Promise<boolean> {
    const result = await this.pool.query(
      'INSERT INTO launch_tokens_used (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING',
      [jti, expiresAt],
    );
    return result.rowCount === 1;
  }

  async revoke(sessionId: string, now: string): Promise<void> {
    await this.pool.query('UPDATE sessions SET revoked_at = $1 WHERE session_id = $2 AND revoked_at IS NULL', [
      now,
      sessionId,
    ]);
  }

  async touch(uses: readonly { sessionId: string; lastSeenAt: string }[]): Promise<void> {
    if (uses.length === 0) return;
    // One statement for the whole batch: every instance flushes its sessions' uses together.
    await this.pool.query(
      `UPDATE sessions AS s SET last_seen_at = GREATEST(s.last_seen_at, u.seen)
       FROM unnest($1::text[], $2::text[]) AS u (id, seen) WHERE s.session_id = u.id`,
      [uses.map((u) => u.sessionId), uses.map((u) => u.lastSeenAt)],
    );
  }

  async state(sessionId: string): Promise<SessionState | null> {
    const { rows } = await this.pool.query<StateRow>(
      'SELECT player_id, last_seen_at, revoked_at FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    const row = rows[0];
    return row ? { playerId: row.player_id, lastSeenAt: row.last_seen_at, revokedAt: row.revoked_at } : null;
  }

  async revokedSince(since: string, now: string): Promise<RevokedSession[]> {
    const { rows } = await this.pool.query<{ session_id: string; expires_at: string }>(
      'SELECT session_id, expires_at FROM sessions WHERE revoked_at >= $1 AND expires_at > $2',
      [since, now],
    );
    return rows.map((r) => ({ sessionId: r.session_id, expiresAt: r.expires_at }));
  }

  async playersSeenSince(playerIds: readonly string[], since: string): Promise<Set<string>> {
    if (playerIds.length === 0) return new Set();
    const { rows } = await this.pool.query<{ player_id: string }>(
      'SELECT DISTINCT player_id FROM sessions WHERE player_id = ANY($1) AND last_seen_at >= $2',
      [[...playerIds], since],
    );
    return new Set(rows.map((r) => r.player_id));
  }

  async revokePlayers(playerIds: readonly string[], now: string): Promise<void> {
    if (playerIds.length === 0) return;
    await this.pool.query('UPDATE sessions SET revoked_at = $1 WHERE player_id = ANY($2) AND revoked_at IS NULL', [
      now,
      [...playerIds],
    ]);
  }

  async purgeExpired(now: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE expires_at <= $1', [now]);
    await this.pool.query('DELETE FROM launch_tokens_used WHERE expires_at <= $1', [now]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
