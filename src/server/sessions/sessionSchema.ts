/**
 * The sessions' tables, versioned apart from the store's schema (store/schema.ts) so that
 * each grows on its own; recorded in session_schema_migrations. Never edit a shipped one.
 */
export interface SessionMigration {
  version: number;
  name: string;
  sql: string;
}

export const SESSION_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS session_schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

export function sessionMigrations(tableEnd: string): SessionMigration[] {
  return [
    {
      version: 1,
      name: 'sessions ended or idle, launch tokens used',
      sql: `
        CREATE TABLE sessions (
          session_id   TEXT PRIMARY KEY,
          player_id    TEXT NOT NULL,
          created_at   TEXT NOT NULL,
          last_seen_at TEXT NOT NULL,
          expires_at   TEXT NOT NULL,
          revoked_at   TEXT
        )${tableEnd};
        CREATE INDEX sessions_revoked ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
        CREATE INDEX sessions_expiry ON sessions (expires_at);
        CREATE TABLE launch_tokens_used (
          jti        TEXT PRIMARY KEY,
          expires_at TEXT NOT NULL
        )${tableEnd};
        CREATE INDEX launch_tokens_expiry ON launch_tokens_used (expires_at);
      `,
    },
  ];
}
