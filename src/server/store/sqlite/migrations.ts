import type Database from 'better-sqlite3';
import { migrations, migrationsTableSql, pendingMigrations, SQLITE_SCHEMA } from '../schema.ts';

/** The schema (schema.ts) as SQLite spells it. */
export const MIGRATIONS = migrations(SQLITE_SCHEMA);

export function migrate(db: Database.Database): number[] {
  db.exec(migrationsTableSql(SQLITE_SCHEMA));
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const done: number[] = [];
  for (const migration of pendingMigrations(MIGRATIONS, applied)) {
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
