import type { ServerConfig } from '../config.ts';
import { PostgresSessionBook } from './postgresSessionBook.ts';
import type { SessionBook } from './sessionBook.ts';
import { SqliteSessionBook } from './sqliteSessionBook.ts';

/** The book the configuration names: beside the store, in PostgreSQL or in DATA_DIR. */
export async function openSessionBook(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<SessionBook> {
  if (config.databaseUrl) return PostgresSessionBook.connect(config.databaseUrl);
  return new SqliteSessionBook(config.dataDir);
}
