/**
 * The log's tables, in the database that holds the blocks, with migrations of their own
 * (`transparency_migrations`), so that the log's schema moves apart from the store's.
 * Entries are written once and never changed: their index is their place in the tree. At
 * most one commitment and one seed per block (the unique key makes a second instance's
 * append of the same entry a no-op). Heads are kept, each with its signature.
 */
import type { Migration } from '../store/schema.ts';

export interface LogDialect {
  bigint: string;
  bytes: string;
  tableEnd: string;
}

export const SQLITE_LOG: LogDialect = { bigint: 'INTEGER', bytes: 'BLOB', tableEnd: ' STRICT' };
export const POSTGRES_LOG: LogDialect = { bigint: 'BIGINT', bytes: 'BYTEA', tableEnd: '' };

function version1(d: LogDialect): string {
  return `
      CREATE TABLE transparency_entries (
        idx          ${d.bigint} PRIMARY KEY CHECK (idx >= 0),
        kind         TEXT NOT NULL CHECK (kind IN ('commitment', 'seed')),
        block_id     TEXT NOT NULL,
        data         TEXT NOT NULL,
        leaf_hash    ${d.bytes} NOT NULL,
        timestamp_ms ${d.bigint} NOT NULL,
        UNIQUE (kind, block_id)
      )${d.tableEnd};

      CREATE TABLE transparency_heads (
        timestamp_ms ${d.bigint} PRIMARY KEY,
        tree_size    ${d.bigint} NOT NULL CHECK (tree_size >= 0),
        root_hash    TEXT NOT NULL,
        signature    TEXT NOT NULL
      )${d.tableEnd};

      -- The key that signs this log: a server with another key refuses to sign.
      CREATE TABLE transparency_key (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        public_key TEXT NOT NULL
      )${d.tableEnd};
    `;
}

export function logMigrations(d: LogDialect): readonly Migration[] {
  return [{ version: 1, name: 'transparency log: entries, heads, key', sql: version1(d) }];
}

/** Where the log records its applied migrations (the store has schema_migrations). */
export const LOG_MIGRATIONS_TABLE = 'transparency_migrations';
