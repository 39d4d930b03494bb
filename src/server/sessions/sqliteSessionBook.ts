import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createPrivateFile } from '../dataFiles.ts';
import type { RevokedSession, SessionBook, SessionState } from './sessionBook.ts';
import { SESSION_MIGRATIONS_TABLE, sessionMigrations } from './sessionSchema.ts';

export const SESSIONS_FILE_NAME = 'sessions.sqlite';

type StateRow = { player_id: string; last_seen_at: string; revoked_at: string | null };

/**
 * The sessions' book in a SQLite file of its own beside the store's (DATA_DIR/sessions.sqlite):
 * every process on this data directory reads and writes it, and its writes never wait for
 * (nor hold up) the store's group commit. synchronous=FULL: a used launch token, a new session
 * and a logout are on disk before they are answered, so a crash cannot make a token usable
 * again. Last uses (written every SESSION_POLL_MS) go through a second connection that does
 * not fsync: they ride the next fsync of the first, and losing one costs a session some idle time.
 */
export class SqliteSessionBook implements SessionBook {
  private readonly db: Database.Database;
  private readonly usesDb: Database.Database;
  private readonly s;

  constructor(dataDir: string) {
    const file = path.join(dataDir, SESSIONS_FILE_NAME);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    createPrivateFile(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.migrate();
    this.usesDb = new Database(file);
    this.usesDb.pragma('synchronous = OFF');
    this.usesDb.pragma('busy_timeout = 5000');
    const db = this.db;
    this.s = {
      open: db.prepare(
        'INSERT INTO sessions (session_id, player_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      ),
      useJti: db.prepare('INSERT INTO launch_tokens_used (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING'),
      revoke: db.prepare('UPDATE sessions SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL'),
      touch: this.usesDb.prepare('UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE session_id = ?'),
      state: db.prepare<[string], StateRow>(
        'SELECT player_id, last_seen_at, revoked_at FROM sessions WHERE session_id = ?',
      ),
      revokedSince: db.prepare<[string, string], { session_id: string; expires_at: string }>(
        'SELECT session_id, expires_at FROM sessions WHERE revoked_at >= ? AND expires_at > ?',
      ),
      seenSince: db.prepare<[string, string], { player_id: string }>(
        'SELECT DISTINCT player_id FROM sessions WHERE player_id IN (SELECT value FROM json_each(?)) AND last_seen_at >= ?',
      ),
      revokePlayers: db.prepare(
        'UPDATE sessions SET revoked_at = ? WHERE player_id IN (SELECT value FROM json_each(?)) AND revoked_at IS NULL',
      ),
      purgeSessions: db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
      purgeJtis: db.prepare('DELETE FROM launch_tokens_used WHERE expires_at <= ?'),
    };
  }

  private migrate(): void {
    this.db.exec(SESSION_MIGRATIONS_TABLE + ' STRICT');
    const applied = new Set(
      (this.db.prepare('SELECT version FROM session_schema_migrations').all() as { version: number }[]).map(
        (r) => r.version,
      ),
    );
    for (const migration of sessionMigrations(' STRICT')) {
      if (applied.has(migration.version)) continue;
      this.db
        .transaction(() => {
          this.db.exec(migration.sql);
          this.db
            .prepare('INSERT INTO session_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
            .run(migration.version, migration.name, new Date().toISOString());
        })
        .immediate();
    }
  }

  async openSession(session: { sessionId: string; playerId: string; createdAt: string; expiresAt: string }) {
    this.s.open.run(session.sessionId, session.playerId, session.createdAt, session.createdAt, session.expiresAt);
  }

  async useLaunchToken(jti: string, expiresAt: string): Promise<boolean> {
    return this.s.useJti.run(jti, expiresAt).changes === 1;
  }

  async revoke(sessionId: string, now: string): Promise<void> {
    this.s.revoke.run(now, sessionId);
  }

  async touch(uses: readonly { sessionId: string; lastSeenAt: string }[]): Promise<void> {
    if (uses.length === 0) return;
    this.usesDb.transaction(() => {
      for (const use of uses) this.s.touch.run(use.lastSeenAt, use.sessionId);
    })();
  }

  async state(sessionId: string): Promise<SessionState | null> {
    const row = this.s.state.get(sessionId);
    return row ? { playerId: row.player_id, lastSeenAt: row.last_seen_at, revokedAt: row.revoked_at } : null;
  }

  async revokedSince(since: string, now: string): Promise<RevokedSession[]> {
    return this.s.revokedSince.all(since, now).map((r) => ({ sessionId: r.session_id, expiresAt: r.expires_at }));
  }

  async playersSeenSince(playerIds: readonly string[], since: string): Promise<Set<string>> {
    if (playerIds.length === 0) return new Set();
    return new Set(this.s.seenSince.all(JSON.stringify(playerIds), since).map((r) => r.player_id));
  }

  async revokePlayers(playerIds: readonly string[], now: string): Promise<void> {
    if (playerIds.length > 0) this.s.revokePlayers.run(now, JSON.stringify(playerIds));
  }

  async purgeExpired(now: string): Promise<void> {
    this.s.purgeSessions.run(now);
    this.s.purgeJtis.run(now);
  }

  async close(): Promise<void> {
    this.usesDb.close();
    this.db.close();
  }
}
