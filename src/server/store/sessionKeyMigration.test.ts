import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { testLibrary } from '../testing/blockCache.ts';
import { tempDataDir } from '../testing/harness.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../testing/postgres.ts';
import { PG_MIGRATIONS } from './postgres/migrations.ts';
import { PostgresStore } from './postgres/postgresStore.ts';
import { migrationsTableSql, POSTGRES_SCHEMA, SQLITE_SCHEMA } from './schema.ts';
import { MIGRATIONS } from './sqlite/migrations.ts';
import { SQLITE_FILE_NAME, SqliteStore } from './sqlite/sqliteStore.ts';

/**
 * Version 5 takes the old session signing key out of the database (sessions are signed
 * with SESSION_KEYS now): a server upgraded from version 4 keeps no key in any table.
 */
const reachable = await postgresReachable();

describe('the session key leaves the database', () => {
  let dir: string | null = null;
  let database: TestDatabase | null = null;
  afterEach(async () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await database?.drop();
    dir = null;
    database = null;
  });

  it('on SQLite', async () => {
    dir = tempDataDir();
    const db = new Database(path.join(dir, SQLITE_FILE_NAME));
    db.exec(migrationsTableSql(SQLITE_SCHEMA));
    for (const migration of MIGRATIONS.filter((m) => m.version <= 4)) {
      db.exec(migration.sql);
      db.prepare(`INSERT INTO schema_migrations VALUES (?, ?, '2026-11-01T00:00:00.000Z')`).run(
        migration.version,
        migration.name,
      );
    }
    db.prepare(`INSERT INTO meta (key, value) VALUES ('session_key', ?)`).run(randomBytes(32));
    db.close();

    const store = SqliteStore.open(dir, await testLibrary());
    try {
      expect(store.db.prepare('SELECT key FROM meta').all()).toEqual([]);
      expect(store.db.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 8 });
    } finally {
      await store.close();
    }
  });

  it.skipIf(!reachable)('on PostgreSQL', async () => {
    database = await createTestDatabase();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(migrationsTableSql(POSTGRES_SCHEMA));
      for (const migration of PG_MIGRATIONS.filter((m) => m.version <= 4)) {
        await admin.query(migration.sql);
        await admin.query(`INSERT INTO schema_migrations VALUES ($1, $2, '2026-11-01T00:00:00.000Z')`, [
          migration.version,
          migration.name,
        ]);
      }
      await admin.query(`INSERT INTO meta (key, value) VALUES ('session_key', $1)`, [randomBytes(32)]);
      const store = await PostgresStore.connect(database.url, await testLibrary());
      await store.close();
      expect((await admin.query('SELECT key FROM meta')).rows).toEqual([]);
    } finally {
      await admin.end();
    }
  });
});
