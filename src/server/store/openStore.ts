import type { ServerConfig } from '../config.ts';
import { PostgresStore } from './postgres/postgresStore.ts';
import { SqliteStore, type SqliteStoreOptions } from './sqlite/sqliteStore.ts';
import type { Store, UnitSource } from './types.ts';

/** The store the configuration names: PostgreSQL when DATABASE_URL is set, else the embedded SQLite file. */
export async function openStore(
  config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>,
  units: UnitSource,
  options: SqliteStoreOptions = {},
): Promise<Store> {
  if (config.databaseUrl) return PostgresStore.connect(config.databaseUrl, units);
  return SqliteStore.open(config.dataDir, units, options);
}
