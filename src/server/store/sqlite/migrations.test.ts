import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluate } from '../../../rules/index.ts';
import { auditLedger } from '../../ops/ledgerAudit.ts';
import { testBlocks, testLibrary } from '../../testing/blockCache.ts';
import { tempDataDir } from '../../testing/harness.ts';
import { fundingEntries, playerAccount, pushPlayEntries, type LedgerEntry } from '../ledgerRules.ts';
import { migrationsTableSql, SQLITE_SCHEMA } from '../schema.ts';
import { encodeUnit } from '../unitCode.ts';
import { migrate, MIGRATIONS } from './migrations.ts';
import { SQLITE_FILE_NAME, SqliteStore } from './sqliteStore.ts';

const WALLET_TABLES = { wallet_bets: 'request_id', wallet_outbox: 'request_id', wallet_balances: 'player_id' };

/** A database as a server of schema version 3 left it. */
function databaseAtVersion3(file: string): Database.Database {
  return databaseAtVersion(file, 3);
}

/** A database as a server of that schema version left it. */
function databaseAtVersion(file: string, version: number): Database.Database {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  db.exec(migrationsTableSql(SQLITE_SCHEMA));
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
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

    expect(migrate(db)).toEqual([4, 5, 6, 7, 8]);

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
    // Version 7 adds bets by player (a purged demo player's delete looks there).
    expect(indexes).toEqual([
      { name: 'wallet_bets_by_player' },
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
    expect(migrate(db)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(migrate(db)).toEqual([]);
    db.close();
  });

  it('version 6 keeps the blocks of before as real, and demo players’ past plays readable and counted apart', async () => {
    dir = tempDataDir();
    const library = await testLibrary();
    const { file, block } = (await testBlocks())[0]!;
    const db = databaseAtVersion(path.join(dir, SQLITE_FILE_NAME), 5);
    // Before pools: a demo player bought unit 0 of the one block, sold to everyone then.
    const at = '2026-11-30T10:00:00.000Z';
    db.prepare(`INSERT INTO players VALUES ('demo-old', 'demo', ?, ?)`).run(0, at);
    db.prepare(`INSERT INTO blocks VALUES (?, 1, 100, ?, ?, 1, 'open', ?)`).run(block.id, file, block.header.count, at);
    const unit = block.unitAt(0);
    const { winCents, jeu1WinCents, jeu2WinCents, bells, points } = evaluate(unit);
    const balance = 10_000 - 100 + winCents;
    db.prepare(`UPDATE players SET balance_cents = ? WHERE id = 'demo-old'`).run(balance);
    db.prepare(
      `INSERT INTO plays (play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
         jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, created_at)
       VALUES ('play-old', 'demo-old', 100, ?, 0, 0, ?, ?, ?, ?, ?, ?, 10000, ?, ?)`,
    ).run(block.id, encodeUnit(unit), bells, points, jeu1WinCents, jeu2WinCents, winCents, balance, at);
    const playEntries: LedgerEntry<'stake' | 'prize'>[] = [];
    pushPlayEntries(playEntries, 'play-old', playerAccount('demo-old'), 100, winCents, at);
    const entries: LedgerEntry[] = [...fundingEntries('demo-old', 10_000, at), ...playEntries];
    const insert = db.prepare(
      'INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const e of entries) insert.run(e.txn, e.account, e.amountCents, e.playId, e.kind, e.createdAt);
    db.close();

    const store = SqliteStore.open(dir, library);
    try {
      expect((await store.listBlocks()).map((b) => [b.id, b.pool, b.nextPosition])).toEqual([[block.id, 'real', 1]]);
      expect(await store.getPlay('demo-old', 'play-old')).toMatchObject({ pool: null, position: 0, winCents });
      const report = await store.readSnapshot(() => auditLedger(store, library));
      expect(report.problems).toEqual([]);
      expect(report.beforePools).toEqual({ plays: 1, demoPlays: 1 });
      expect(report.pools.real.plays).toBe(0);
      // From now on no demo player buys a real block's unit: the demo pool has none yet.
      const demo = await store.createDemoPlayer(1000, new Date());
      const next = { playerId: demo.id, playId: 'play-new', stakeCents: 100, pool: 'demo', salesOpen: true } as const;
      expect(await store.buyPlay({ ...next, now: new Date() })).toEqual({ ok: false, code: 'SOLD_OUT' });
    } finally {
      await store.close();
    }
  });
});
