import type pg from 'pg';

/**
 * Versioned schema, the PostgreSQL twin of the SQLite one (same tables, same checks).
 * A migration is applied once, in its own transaction, under an advisory lock so that
 * instances starting together never apply it twice; never edit one that has shipped —
 * add the next. Times are ISO 8601 text, as in SQLite, so that both stores return the
 * same strings.
 */
export const PG_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'players, blocks, plays, ledger',
    sql: `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value BYTEA NOT NULL
      );

      CREATE TABLE players (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('demo', 'portal')),
        balance_cents BIGINT NOT NULL CHECK (balance_cents >= 0),
        created_at    TEXT NOT NULL
      );

      -- The block cursor: next_position is the one row every instance updates to take a unit.
      CREATE TABLE blocks (
        id            TEXT PRIMARY KEY,
        seq           BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        stake_cents   INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        file_path     TEXT NOT NULL,
        count         INTEGER NOT NULL CHECK (count > 0),
        next_position INTEGER NOT NULL DEFAULT 0 CHECK (next_position >= 0 AND next_position <= count),
        status        TEXT NOT NULL CHECK (status IN ('open', 'queued', 'closed')),
        loaded_at     TEXT NOT NULL
      );
      CREATE UNIQUE INDEX blocks_one_open_per_stake ON blocks (stake_cents) WHERE status = 'open';
      CREATE INDEX blocks_queue ON blocks (stake_cents, status, seq);

      CREATE TABLE plays (
        seq                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        play_id              TEXT NOT NULL UNIQUE,
        player_id            TEXT NOT NULL REFERENCES players (id),
        stake_cents          INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        block_id             TEXT REFERENCES blocks (id),
        position             INTEGER,
        fixture              BOOLEAN NOT NULL,
        unit_code            TEXT NOT NULL,
        bells                INTEGER NOT NULL,
        points               INTEGER NOT NULL,
        jeu1_cents           BIGINT NOT NULL CHECK (jeu1_cents >= 0),
        jeu2_cents           BIGINT NOT NULL CHECK (jeu2_cents >= 0),
        win_cents            BIGINT NOT NULL CHECK (win_cents = jeu1_cents + jeu2_cents),
        balance_before_cents BIGINT NOT NULL,
        balance_after_cents  BIGINT NOT NULL CHECK (balance_after_cents = balance_before_cents - stake_cents + win_cents),
        launched             SMALLINT NOT NULL DEFAULT 0 CHECK (launched BETWEEN 0 AND 15),
        finished             BOOLEAN NOT NULL DEFAULT FALSE,
        created_at           TEXT NOT NULL,
        UNIQUE (block_id, position),
        CHECK ((fixture AND block_id IS NULL AND position IS NULL)
            OR (NOT fixture AND block_id IS NOT NULL AND position IS NOT NULL))
      );
      CREATE INDEX plays_by_player ON plays (player_id, seq);
      CREATE INDEX plays_unfinished ON plays (player_id, seq) WHERE NOT finished;

      -- Double-entry ledger: every transaction's entries sum to zero.
      CREATE TABLE entries (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        txn          TEXT NOT NULL,
        account      TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        play_id      TEXT,
        kind         TEXT NOT NULL CHECK (kind IN ('stake', 'prize', 'funding', 'adjustment')),
        created_at   TEXT NOT NULL
      );
      CREATE INDEX entries_by_account ON entries (account);
      CREATE INDEX entries_by_play ON entries (play_id) WHERE play_id IS NOT NULL;
    `,
  },
];

/** Any constant works: it only has to be the same for every instance of this server. */
const MIGRATION_LOCK_KEY = 0x5b1c_ca4e;

export async function migratePostgres(client: pg.ClientBase): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const known = Math.max(...PG_MIGRATIONS.map((m) => m.version));
    const newest = Math.max(0, ...applied);
    if (newest > known) {
      throw new Error(`the database has schema version ${newest}, newer than this server knows (${known})`);
    }
    const done: number[] = [];
    for (const migration of PG_MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      done.push(migration.version);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}
