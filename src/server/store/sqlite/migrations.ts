import type Database from 'better-sqlite3';

/**
 * Versioned schema. A migration is applied once, in its own transaction, and
 * recorded in schema_migrations; never edit one that has shipped — add the next.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'players, blocks, plays, ledger',
    sql: `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value BLOB NOT NULL
      ) STRICT;

      CREATE TABLE players (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('demo', 'portal')),
        balance_cents INTEGER NOT NULL CHECK (balance_cents >= 0),
        created_at    TEXT NOT NULL
      ) STRICT;

      CREATE TABLE blocks (
        id            TEXT PRIMARY KEY,
        seq           INTEGER NOT NULL UNIQUE,
        stake_cents   INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        file_path     TEXT NOT NULL,
        count         INTEGER NOT NULL CHECK (count > 0),
        next_position INTEGER NOT NULL DEFAULT 0 CHECK (next_position >= 0 AND next_position <= count),
        status        TEXT NOT NULL CHECK (status IN ('open', 'queued', 'closed')),
        loaded_at     TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX blocks_one_open_per_stake ON blocks (stake_cents) WHERE status = 'open';
      CREATE INDEX blocks_queue ON blocks (stake_cents, status, seq);

      CREATE TABLE plays (
        seq                  INTEGER PRIMARY KEY,
        play_id              TEXT NOT NULL UNIQUE,
        player_id            TEXT NOT NULL REFERENCES players (id),
        stake_cents          INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        block_id             TEXT REFERENCES blocks (id),
        position             INTEGER,
        fixture              INTEGER NOT NULL CHECK (fixture IN (0, 1)),
        unit_code            TEXT NOT NULL,
        bells                INTEGER NOT NULL,
        points               INTEGER NOT NULL,
        jeu1_cents           INTEGER NOT NULL CHECK (jeu1_cents >= 0),
        jeu2_cents           INTEGER NOT NULL CHECK (jeu2_cents >= 0),
        win_cents            INTEGER NOT NULL CHECK (win_cents = jeu1_cents + jeu2_cents),
        balance_before_cents INTEGER NOT NULL,
        balance_after_cents  INTEGER NOT NULL CHECK (balance_after_cents = balance_before_cents - stake_cents + win_cents),
        launched             INTEGER NOT NULL DEFAULT 0 CHECK (launched BETWEEN 0 AND 15),
        finished             INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
        created_at           TEXT NOT NULL,
        UNIQUE (block_id, position),
        CHECK ((fixture = 1 AND block_id IS NULL AND position IS NULL)
            OR (fixture = 0 AND block_id IS NOT NULL AND position IS NOT NULL))
      ) STRICT;
      CREATE INDEX plays_by_player ON plays (player_id, seq);
      CREATE INDEX plays_unfinished ON plays (player_id, seq) WHERE finished = 0;

      -- Double-entry ledger: every transaction's entries sum to zero.
      CREATE TABLE entries (
        id           INTEGER PRIMARY KEY,
        txn          TEXT NOT NULL,
        account      TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        play_id      TEXT,
        kind         TEXT NOT NULL CHECK (kind IN ('stake', 'prize', 'funding', 'adjustment')),
        created_at   TEXT NOT NULL
      ) STRICT;
    `,
  },
];

export function migrate(db: Database.Database): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const known = Math.max(...MIGRATIONS.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new Error(`the database has schema version ${newest}, newer than this server knows (${known})`);
  }
  const done: number[] = [];
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
    done.push(migration.version);
  }
  return done;
}
