import pg from 'pg';
import { isConnectionLoss, isRetryable, MAX_ATTEMPTS, retryDelayMs } from './retry.ts';

/** How the PostgreSQL store talks to its database: the pool, transactions and their retries. */

export interface PostgresStoreOptions {
  /** Connections per instance (default 8): one carries the plays, the others reads and the rest. */
  poolSize?: number;
  /** Most plays in one transaction (default 256). */
  maxBatch?: number;
  /** Extra connection settings, e.g. `-c default_transaction_isolation=serializable` in tests. */
  options?: string;
}

/** Counters for tests and the benchmark: what the retries and the batches did. */
export interface PostgresStoreStats {
  batches: number;
  plays: number;
  retries: number;
  retriedCodes: Record<string, number>;
}

/** BIGINT columns hold cents and counts, all far below 2^53: numbers, not strings. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keeps a URL's password out of messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

export function openPool(url: string, options: PostgresStoreOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 8,
    types,
    options: options.options,
    connectionTimeoutMillis: 10_000,
    // Statements sent together travel together: a play batch takes two round trips.
    pipeline: true,
    application_name: 'spincake',
  });
  // An idle connection that dies (server restart, pg_terminate_backend) is dropped by the
  // pool; without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `work` in a transaction on one connection, retried as a whole on a retryable
 * failure. With `ownsBoundaries`, `work` sends BEGIN and COMMIT itself (pipelined with
 * its statements).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  stats: PostgresStoreStats,
  work: (client: pg.PoolClient) => Promise<T>,
  ownsBoundaries = false,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      if (!ownsBoundaries) await client.query('BEGIN');
      const value = await work(client);
      if (!ownsBoundaries) await client.query('COMMIT');
      client.release();
      return value;
    } catch (error) {
      if (client) {
        if (isConnectionLoss(error)) client.release(true);
        else {
          await client.query('ROLLBACK').then(
            () => client!.release(),
            () => client!.release(true),
          );
        }
      }
      if (!isRetryable(error) || attempt + 1 >= MAX_ATTEMPTS) throw error;
      stats.retries++;
      const code = String((error as { code?: unknown }).code ?? 'connection');
      stats.retriedCodes[code] = (stats.retriedCodes[code] ?? 0) + 1;
      await sleep(retryDelayMs(attempt));
    }
  }
}
