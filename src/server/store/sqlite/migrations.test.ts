import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../testing/harness.ts';
import { migrationsTableSql, SQLITE_SCHEMA } from '../schema.ts';
import { migrate, MIGRATIONS } from './migrations.ts';

const WALLET_TABLES = { wallet_bets: 'request_id', wallet_outbox: 'request_id', wallet_balances: 'player_id' };

/** A database as a server of schema version 3 left it. */
function databaseAtVersion3(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  db.exec(migrationsTableSql(SQLITE_SCHEMA));
  for (const migration of MIGRATIONS.filter((m) => m.version <= 3)) {
    db.exec(migration.sql);
    db.prepare(`INSERT INTO schema_migrations VALUES (?, ?, '2026-11-01T00:00:00.000Z')`).run(
      migration.version,
      migration.name,
    );
  }
  return db;
}

/** Wallet books in every state: bets sending, sold, refused and cancelled; wins pending and done; a rollback. */
function fillWalletBooks(db: Database.Database): void {
  const at = '2026-11-30T10:00:00.000Z';
  for (const player of ['p1', 'p2']) {
    db.prepare(`INSERT INTO players VALUES (?, 'portal', 0, ?)`).run(player, at);
  }
  const bet = db.prepare(`INSERT INTO wallet_bets VALUES (?, ?, ?, ?, 100, ?, ?, ?, '2026-11-30T10:00:07.000Z', ?)`);
  bet.run('b1', 'play-1', 'p1', 'op-1', 'sold', null, at, at);
  bet.run('b2', 'play-2', 'p1', 'op-1', 'sending', null, at, null);
  bet.run('b3', 'play-3', 'p2', 'op-2', 'refused', 'LIMIT_REACHED', at, at);
  bet.run('b4', 'play-4', 'p2', 'op-2', 'cancelled', null, at, at);
  bet.run('b5', 'play-5', 'p2', 'op-2', 'sold', null, at, at);
  const entry = db.prepare(
    `INSERT INTO wallet_outbox VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '2026-11-30T10:00:05.000Z', ?, ?, ?, ?, ?)`,
  );
  entry.run('w1', 'win', 'b1', 'play-1', 'p1', 'op-1', 250, 'done', 1, null, 'OK', 1150, at, at);
  entry.run('r4', 'rollback', 'b4', 'play-4', 'p2', 'op-2', 100, 'pending', 3, 'timeout', null, null, at, null);
  entry.run('w5', 'win', 'b5', 'play-5', 'p2', 'op-2', 0, 'pending', 0, null, null, null, at, null);
  db.prepare(`INSERT INTO wallet_balances VALUES ('p1', 1150, ?)`).run(at);
}

const rowsOf = (db: Database.Database) =>
  Object.entries(WALLET_TABLES).map(([table, key]) => db.prepare(`SELECT * FROM ${table} ORDER BY ${key}`).all());

describe('SQLite migrations', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('version 4 stores the wallet books by key, with every row, constraint and needed index kept', () => {
    dir = tempDataDir();
    const db = databaseAtVersion3(path.join(dir, 'v3.sqlite'));
    fillWalletBooks(db);
    const before = rowsOf(db);

    expect(migrate(db)).toEqual([4, 5]);

    expect(rowsOf(db)).toEqual(before);
    const tables = db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'wallet%' ORDER BY name`)
      .all() as { name: string; sql: string }[];
    expect(tables.map((t) => t.name)).toEqual(['wallet_balances', 'wallet_bets', 'wallet_outbox']);
    for (const table of tables) expect(table.sql).toMatch(/\) WITHOUT ROWID, STRICT$/);
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'wallet%' AND sql IS NOT NULL ORDER BY name`,
      )
      .all();
    expect(indexes).toEqual([
      { name: 'wallet_bets_by_time' },
      { name: 'wallet_bets_sending' },
      { name: 'wallet_outbox_due' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

    // The constraints still hold: an entry for no bet, a second entry for one bet, a second bet for one play.
    const at = '2026-11-30T11:00:00.000Z';
    expect(() =>
      db
        .prepare(
          `INSERT INTO wallet_outbox VALUES ('x', 'win', 'nope', 'play-9', 'p1', 'op-1', 0, 'pending', 0, ?, NULL, NULL, NULL, ?, NULL)`,
        )
        .run(at, at),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO wallet_outbox VALUES ('y', 'win', 'b1', 'play-1', 'p1', 'op-1', 0, 'pending', 0, ?, NULL, NULL, NULL, ?, NULL)`,
        )
        .run(at, at),
    ).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(`INSERT INTO wallet_bets VALUES ('b9', 'play-1', 'p1', 'op-1', 100, 'sending', NULL, ?, ?, NULL)`)
        .run(at, at),
    ).toThrow(/UNIQUE/);
    // The stale-bet scan and the outbox claim still find their rows through the partial indexes.
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan(`SELECT * FROM wallet_bets WHERE state = 'sending' AND deadline_at < 'z'`)).toMatch(
      /wallet_bets_sending/,
    );
    expect(plan(`SELECT * FROM wallet_outbox WHERE state = 'pending' AND next_attempt_at <= 'z'`)).toMatch(
      /wallet_outbox_due/,
    );
    db.close();
  });

  it('applies nothing twice', () => {
    dir = tempDataDir();
    const db = new Database(path.join(dir, 'new.sqlite'));
    expect(migrate(db)).toEqual([1, 2, 3, 4, 5]);
    expect(migrate(db)).toEqual([]);
    db.close();
  });
});
