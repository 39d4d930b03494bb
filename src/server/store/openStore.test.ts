import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockLibrary } from '../blocks/blockLibrary.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { tempDataDir } from '../testing/harness.ts';
import { createTestDatabase, postgresReachable } from '../testing/postgres.ts';
import { openStore } from './openStore.ts';
import { PostgresDialect } from './postgres/postgresDialect.ts';
import { SqliteDialect } from './sqlite/sqliteDialect.ts';

const reachable = await postgresReachable();

describe('DATABASE_URL', () => {
  it('is optional: unset or blank means SQLite', () => {
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeNull();
  });

  it.each([['postgres://u@h:5432/db'], ['postgresql://user:pw@db.example/spincake?sslmode=require']])(
    'accepts %s',
    (url) => {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    },
  );

  it.each([
    ['mysql://u@h/db', /must start with postgres:\/\/ or postgresql:\/\//],
    ['not a url', /must be a URL such as postgres:\/\//],
    ['postgres://u@h:5432', /must name a database/],
    ['postgres://u@h:5432/', /must name a database/],
  ])('refuses %s with a clear message', (url, message) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(message);
  });
});

describe('openStore', () => {
  const dataDir = tempDataDir();
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!reachable) console.warn('openStore on PostgreSQL skipped: PostgreSQL not reachable');
  });

  it('opens SQLite in DATA_DIR without DATABASE_URL', async () => {
    const store = await openStore(loadConfig({ DATA_DIR: dataDir }), new BlockLibrary());
    expect(store.dialect).toBeInstanceOf(SqliteDialect);
    await store.close();
  });

  it.skipIf(!reachable)('opens PostgreSQL when DATABASE_URL names it', async () => {
    const database = await createTestDatabase();
    try {
      const store = await openStore(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url }), new BlockLibrary());
      expect(store.dialect).toBeInstanceOf(PostgresDialect);
      expect(await store.listBlocks()).toEqual([]);
      await store.close();
    } finally {
      await database.drop();
    }
  });
});
