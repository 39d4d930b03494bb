import type Database from 'better-sqlite3';
import { migrations, migrationsTableSql, pendingMigrations, SQLITE_SCHEMA, type Migration } from '../schema.ts';

/** The schema (schema.ts) as SQLite spells it. */
export const MIGRATIONS = migrations(SQLITE_SCHEMA);

export function migrate(db: Database.Database): number[] {
  return applySqliteMigrations(db, MIGRATIONS, {
    table: 'schema_migrations',
    tableSql: migrationsTableSql(SQLITE_SCHEMA),
  });
}

/** Applies the migrations not yet recorded in `table`, each in a transaction. */
export function applySqliteMigrations(
  db: Database.Database,
  all: readonly Migration[],
  options: { table: string; tableSql: string },
): number[] {
  db.exec(options.tableSql);
  const applied = new Set(
    (db.prepare(`SELECT version FROM ${options.table}`).all() as { version: number }[]).map((r) => r.version),
  );
  const done: number[] = [];
  for (const migration of pendingMigrations(all, applied)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare(`INSERT INTO ${options.table} (version, name, applied_at) VALUES (?, ?, ?)`).run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
    done.push(migration.version);
  }
  return done;
}
