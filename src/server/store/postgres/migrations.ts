import type pg from 'pg';
import { migrations, migrationsTableSql, pendingMigrations, POSTGRES_SCHEMA } from '../schema.ts';

/**
 * The schema (schema.ts) as PostgreSQL spells it. Applied under an advisory lock, so that
 * instances starting together never apply a migration twice.
 */
export const PG_MIGRATIONS = migrations(POSTGRES_SCHEMA);

/** Any constant works: it only has to be the same for every instance of this server. */
const MIGRATION_LOCK_KEY = 0x5b1c_ca4e;

export async function migratePostgres(client: pg.ClientBase): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(migrationsTableSql(POSTGRES_SCHEMA));
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const done: number[] = [];
    for (const migration of pendingMigrations(PG_MIGRATIONS, applied)) {
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
