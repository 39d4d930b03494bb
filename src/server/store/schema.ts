/**
 * The versioned schema, written once for both databases: same tables, same columns, same
 * checks; a dialect only names its types and how it spells a boolean. Each store applies
 * the migrations in its own way (SQLite in a transaction, PostgreSQL also under an
 * advisory lock). A migration is applied once and recorded in schema_migrations; never
 * edit one that has shipped (each dialect's text must stay what it was): add the next.
 * Times are ISO 8601 text in both, so that both stores return the same strings.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface SchemaDialect {
  /** Cents and sequence numbers. */
  bigint: string;
  /** Bytes (meta's values). */
  bytes: string;
  /** The launched-wheels mask. */
  smallint: string;
  /** What ends a CREATE TABLE (SQLite's tables are STRICT). */
  tableEnd: string;
  /**
   * What ends a CREATE TABLE of a table keyed by text where the database can store the rows
   * in their key's b-tree (SQLite's WITHOUT ROWID), instead of by rowid beside an index of
   * that key; null where every table is a heap with its indexes beside it (PostgreSQL).
   */
  keyedTableEnd: string | null;
  /** A sequence number that the database assigns: the primary key of plays and entries. */
  serialKey: string;
  /** The blocks' sequence number (their load order): assigned by the store in SQLite. */
  blockSeq: string;
  /** A boolean column's type, default and check. */
  boolean(column: string, defaultFalse: boolean): string;
  /** A condition that a boolean column is true (or false). */
  is(column: string, value: boolean): string;
  /** What PostgreSQL adds (a comment on blocks, indexes on entries); empty for SQLite. */
  blocksComment: string;
  entriesIndexes: string;
}

function version1(d: SchemaDialect): string {
  return `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value ${d.bytes} NOT NULL
      )${d.tableEnd};

      CREATE TABLE players (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('demo', 'portal')),
        balance_cents ${d.bigint} NOT NULL CHECK (balance_cents >= 0),
        created_at    TEXT NOT NULL
      )${d.tableEnd};
${d.blocksComment}
      CREATE TABLE blocks (
        id            TEXT PRIMARY KEY,
        seq           ${d.blockSeq},
        stake_cents   INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        file_path     TEXT NOT NULL,
        count         INTEGER NOT NULL CHECK (count > 0),
        next_position INTEGER NOT NULL DEFAULT 0 CHECK (next_position >= 0 AND next_position <= count),
        status        TEXT NOT NULL CHECK (status IN ('open', 'queued', 'closed')),
        loaded_at     TEXT NOT NULL
      )${d.tableEnd};
      CREATE UNIQUE INDEX blocks_one_open_per_stake ON blocks (stake_cents) WHERE status = 'open';
      CREATE INDEX blocks_queue ON blocks (stake_cents, status, seq);

      CREATE TABLE plays (
        seq                  ${d.serialKey},
        play_id              TEXT NOT NULL UNIQUE,
        player_id            TEXT NOT NULL REFERENCES players (id),
        stake_cents          INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        block_id             TEXT REFERENCES blocks (id),
        position             INTEGER,
        fixture              ${d.boolean('fixture', false)},
        unit_code            TEXT NOT NULL,
        bells                INTEGER NOT NULL,
        points               INTEGER NOT NULL,
        jeu1_cents           ${d.bigint} NOT NULL CHECK (jeu1_cents >= 0),
        jeu2_cents           ${d.bigint} NOT NULL CHECK (jeu2_cents >= 0),
        win_cents            ${d.bigint} NOT NULL CHECK (win_cents = jeu1_cents + jeu2_cents),
        balance_before_cents ${d.bigint} NOT NULL,
        balance_after_cents  ${d.bigint} NOT NULL CHECK (balance_after_cents = balance_before_cents - stake_cents + win_cents),
        launched             ${d.smallint} NOT NULL DEFAULT 0 CHECK (launched BETWEEN 0 AND 15),
        finished             ${d.boolean('finished', true)},
        created_at           TEXT NOT NULL,
        UNIQUE (block_id, position),
        CHECK ((${d.is('fixture', true)} AND block_id IS NULL AND position IS NULL)
            OR (${d.is('fixture', false)} AND block_id IS NOT NULL AND position IS NOT NULL))
      )${d.tableEnd};
      CREATE INDEX plays_by_player ON plays (player_id, seq);
      CREATE INDEX plays_unfinished ON plays (player_id, seq) WHERE ${d.is('finished', false)};

      -- Double-entry ledger: every transaction's entries sum to zero.
      CREATE TABLE entries (
        id           ${d.serialKey},
        txn          TEXT NOT NULL,
        account      TEXT NOT NULL,
        amount_cents ${d.bigint} NOT NULL,
        play_id      TEXT,
        kind         TEXT NOT NULL CHECK (kind IN ('stake', 'prize', 'funding', 'adjustment')),
        created_at   TEXT NOT NULL
      )${d.tableEnd};${d.entriesIndexes}
    `;
}

/** The wallet's three tables as version 2 made them, ending each with `end`. */
function walletTables(d: SchemaDialect, end: string) {
  return {
    bets: `
      CREATE TABLE wallet_bets (
        request_id    TEXT PRIMARY KEY,
        play_id       TEXT NOT NULL UNIQUE,
        player_id     TEXT NOT NULL REFERENCES players (id),
        wallet_player TEXT NOT NULL,
        stake_cents   INTEGER NOT NULL CHECK (stake_cents IN (100, 200, 300, 500)),
        state         TEXT NOT NULL CHECK (state IN ('sending', 'sold', 'refused', 'cancelled')),
        refusal       TEXT,
        created_at    TEXT NOT NULL,
        deadline_at   TEXT NOT NULL,
        resolved_at   TEXT
      )${end};`,
    outbox: `
      CREATE TABLE wallet_outbox (
        request_id      TEXT PRIMARY KEY,
        kind            TEXT NOT NULL CHECK (kind IN ('win', 'rollback')),
        bet_request_id  TEXT NOT NULL UNIQUE REFERENCES wallet_bets (request_id),
        play_id         TEXT NOT NULL,
        player_id       TEXT NOT NULL,
        wallet_player   TEXT NOT NULL,
        amount_cents    ${d.bigint} NOT NULL CHECK (amount_cents >= 0),
        state           TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        last_error      TEXT,
        answer_status   TEXT,
        balance_cents   ${d.bigint},
        created_at      TEXT NOT NULL,
        settled_at      TEXT
      )${end};`,
    balances: `
      CREATE TABLE wallet_balances (
        player_id     TEXT PRIMARY KEY REFERENCES players (id),
        balance_cents ${d.bigint} NOT NULL CHECK (balance_cents >= 0),
        seen_at       TEXT NOT NULL
      )${end};`,
  };
}

const WALLET_BETS_INDEXES = `
      CREATE INDEX wallet_bets_sending ON wallet_bets (deadline_at) WHERE state = 'sending';
      CREATE INDEX wallet_bets_by_time ON wallet_bets (created_at);`;
const WALLET_OUTBOX_DUE_INDEX = `
      CREATE INDEX wallet_outbox_due ON wallet_outbox (next_attempt_at) WHERE state = 'pending';`;

/**
 * The operator's wallet (portal players' money): each bet recorded before it is sent, the
 * win or rollback owed on it (the outbox, written in the transaction that sells or refuses
 * the unit), and each player's balance as the wallet last said it.
 */
function version2(d: SchemaDialect): string {
  const tables = walletTables(d, d.tableEnd);
  return `${tables.bets}${WALLET_BETS_INDEXES}
${tables.outbox}${WALLET_OUTBOX_DUE_INDEX}
      CREATE INDEX wallet_outbox_by_time ON wallet_outbox (created_at);
${tables.balances}
    `;
}

/**
 * The operator's hand on Article 1's sales window (`npm run ops -- sales open|close`): at
 * most one row; none means the configured dates decide. Every instance polls it.
 */
function version3(d: SchemaDialect): string {
  return `
      CREATE TABLE sales_control (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        mode    TEXT NOT NULL CHECK (mode IN ('open', 'closed')),
        message TEXT,
        set_at  TEXT NOT NULL
      )${d.tableEnd};
    `;
}

/**
 * The wallet's books with fewer b-trees to write per wallet play. In SQLite, bets, outbox
 * entries and balances are rebuilt as tables stored in their key's b-tree (each row was
 * written twice: by rowid, and in the index of its key); both databases lose the outbox's
 * by-time index, which no query needs (reports select by the bet's time). A group commit
 * of wallet plays then dirties fewer pages. Rows, keys and constraints are kept as they were.
 */
function version4(d: SchemaDialect): string {
  if (d.keyedTableEnd === null) {
    return `
      DROP INDEX wallet_outbox_by_time;
    `;
  }
  const tables = walletTables(d, d.keyedTableEnd);
  // Renamed first: the outbox's reference follows its bets to wallet_bets_v2, so that the
  // old tables can be dropped (children first) once their rows are copied.
  return `
      ALTER TABLE wallet_outbox RENAME TO wallet_outbox_v2;
      ALTER TABLE wallet_bets RENAME TO wallet_bets_v2;
      ALTER TABLE wallet_balances RENAME TO wallet_balances_v2;
${tables.bets}${tables.outbox}${tables.balances}
      INSERT INTO wallet_bets SELECT * FROM wallet_bets_v2;
      INSERT INTO wallet_outbox SELECT * FROM wallet_outbox_v2;
      INSERT INTO wallet_balances SELECT * FROM wallet_balances_v2;
      DROP TABLE wallet_outbox_v2;
      DROP TABLE wallet_bets_v2;
      DROP TABLE wallet_balances_v2;
${WALLET_BETS_INDEXES}${WALLET_OUTBOX_DUE_INDEX}
    `;
}

/**
 * The session signing key leaves the database (it is SESSION_KEYS now, sessions/sessionKeys.ts):
 * a copy of the data must mint no session. Every session signed with it ends.
 */
function version5(): string {
  return `
      DELETE FROM meta WHERE key = 'session_key';
    `;
}

/**
 * Pools: every block is sold for real money or for demo play money, never both. Blocks
 * loaded before keep selling as `real` (they were loaded by `ops load` or as starter blocks
 * sold to everyone); each pool has its own open block per stake. A play records the pool
 * of its block; plays sold before this version keep NULL there (demo players' among them
 * took units of real blocks: they stay readable, and the ledger audit counts them apart).
 */
function version6(): string {
  return `
      ALTER TABLE blocks ADD COLUMN pool TEXT NOT NULL DEFAULT 'real' CHECK (pool IN ('real', 'demo'));
      DROP INDEX blocks_one_open_per_stake;
      CREATE UNIQUE INDEX blocks_one_open_per_pool ON blocks (stake_cents, pool) WHERE status = 'open';
      DROP INDEX blocks_queue;
      CREATE INDEX blocks_queue ON blocks (stake_cents, pool, status, seq);
      ALTER TABLE plays ADD COLUMN pool TEXT CHECK (pool IN ('real', 'demo'));
    `;
}

/**
 * Demo players unused for DEMO_PLAYER_TTL_DAYS are purged with their plays (demoPurge.ts).
 * Their units stay sold: per demo block and lot, how many plays were purged and the sum of
 * their positions, written in the purge's transaction, so that the ledger audit still proves
 * each block's cursor (plays kept + plays purged) and its lots against the block's table.
 * Deleting a player looks for bets naming it (the foreign key): without an index by player
 * each deleted player would read every bet. The purge finds demo players by age (an index
 * written once per new demo player, never per play), not by reading every player.
 */
function version7(d: SchemaDialect): string {
  return `
      CREATE INDEX wallet_bets_by_player ON wallet_bets (player_id);
      CREATE INDEX players_demo_by_age ON players (created_at, id) WHERE kind = 'demo';
      CREATE TABLE purged_plays (
        block_id     TEXT NOT NULL REFERENCES blocks (id),
        win_cents    ${d.bigint} NOT NULL CHECK (win_cents >= 0),
        plays        ${d.bigint} NOT NULL CHECK (plays > 0),
        position_sum ${d.bigint} NOT NULL CHECK (position_sum >= 0),
        PRIMARY KEY (block_id, win_cents)
      )${d.tableEnd};
    `;
}

/**
 * « Recharger la démo »: each reload of a demo player's play money under the id its client
 * made, so that a retry finds its reload instead of making another. The money itself moves
 * in the ledger (a funding from house:demo-funding); this row keys the request.
 */
function version8(d: SchemaDialect): string {
  return `
      CREATE TABLE demo_reloads (
        player_id            TEXT NOT NULL REFERENCES players (id),
        reload_id            TEXT NOT NULL,
        balance_before_cents ${d.bigint} NOT NULL,
        balance_after_cents  ${d.bigint} NOT NULL,
        created_at           TEXT NOT NULL,
        PRIMARY KEY (player_id, reload_id)
      )${d.keyedTableEnd ?? d.tableEnd};
    `;
}

/** Every migration, in order, as this dialect spells it. */
export function migrations(d: SchemaDialect): readonly Migration[] {
  return [
    { version: 1, name: 'players, blocks, plays, ledger', sql: version1(d) },
    { version: 2, name: 'operator wallet: bets, outbox, balances', sql: version2(d) },
    { version: 3, name: 'sales window set by the operator', sql: version3(d) },
    { version: 4, name: 'operator wallet: books stored by key, one index fewer', sql: version4(d) },
    { version: 5, name: 'no session key in the database', sql: version5() },
    { version: 6, name: 'blocks in pools: real and demo', sql: version6() },
    { version: 7, name: 'demo plays purged, counted per block and lot', sql: version7(d) },
    { version: 8, name: 'demo reloads by request id', sql: version8(d) },
  ];
}

/** The table that records applied migrations (its own statement, run before them); the log keeps its own. */
export function migrationsTableSql(d: Pick<SchemaDialect, 'tableEnd'>, table = 'schema_migrations'): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )${d.tableEnd}`;
}

/**
 * The migrations still to apply, given the versions already applied; throws when the
 * database is newer than this server.
 */
export function pendingMigrations(all: readonly Migration[], applied: ReadonlySet<number>): Migration[] {
  const known = Math.max(...all.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new Error(`the database has schema version ${newest}, newer than this server knows (${known})`);
  }
  return all.filter((m) => !applied.has(m.version));
}

export const SQLITE_SCHEMA: SchemaDialect = {
  bigint: 'INTEGER',
  bytes: 'BLOB',
  smallint: 'INTEGER',
  tableEnd: ' STRICT',
  keyedTableEnd: ' WITHOUT ROWID, STRICT',
  serialKey: 'INTEGER PRIMARY KEY',
  blockSeq: 'INTEGER NOT NULL UNIQUE',
  boolean: (column, defaultFalse) => `INTEGER NOT NULL${defaultFalse ? ' DEFAULT 0' : ''} CHECK (${column} IN (0, 1))`,
  is: (column, value) => `${column} = ${value ? 1 : 0}`,
  blocksComment: '',
  entriesIndexes: '',
};

export const POSTGRES_SCHEMA: SchemaDialect = {
  bigint: 'BIGINT',
  bytes: 'BYTEA',
  smallint: 'SMALLINT',
  tableEnd: '',
  keyedTableEnd: null,
  serialKey: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  blockSeq: 'BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE',
  boolean: (column, defaultFalse) => `BOOLEAN NOT NULL${defaultFalse ? ' DEFAULT FALSE' : ''}`,
  is: (column, value) => (value ? column : `NOT ${column}`),
  blocksComment: '\n      -- The block cursor: next_position is the one row every instance updates to take a unit.',
  entriesIndexes: `
      CREATE INDEX entries_by_account ON entries (account);
      CREATE INDEX entries_by_play ON entries (play_id) WHERE play_id IS NOT NULL;`,
};
