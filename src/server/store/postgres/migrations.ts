import type pg from 'pg';
import { migrations, migrationsTableSql, pendingMigrations, POSTGRES_SCHEMA, type Migration } from '../schema.ts';

/**
 * The schema (schema.ts) as PostgreSQL spells it. Applied under an advisory lock, so that
 * instances starting together never apply a migration twice.
 */
export const PG_MIGRATIONS = migrations(POSTGRES_SCHEMA);

/** Any constant works: it only has to be the same for every instance of this server. */
const MIGRATION_LOCK_KEY = 0x5b1c_ca4e;

export function migratePostgres(client: pg.ClientBase): Promise<number[]> {
  return applyPostgresMigrations(client, PG_MIGRATIONS, {
    lockKey: MIGRATION_LOCK_KEY,
    table: 'schema_migrations',
    tableSql: migrationsTableSql(POSTGRES_SCHEMA),
  });
}

/** Applies the migrations not yet recorded in `table`, each in a transaction, under the advisory lock `lockKey`. */
export async function applyPostgresMigrations(
  client: pg.ClientBase,
  all: readonly Migration[],
  options: { lockKey: number; table: string; tableSql: string },
): Promise<number[]> {
  const { lockKey, table } = options;
  await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
  try {
    await client.query(options.tableSql);
    const applied = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${table}`)).rows.map((r) => r.version),
    );
    const done: number[] = [];
    for (const migration of pendingMigrations(all, applied)) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${table} (version, name, applied_at) VALUES ($1, $2, $3)`, [
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
    await client.query('SELECT pg_advisory_unlock($1)', [lockKey]);
  }
}
