import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { redactUrl } from '../store/postgres/postgresStore.ts';

/** The server the PostgreSQL tests use: trust auth, database `test` (override with PG_TEST_URL). */
export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | null = null;

/**
 * Whether PostgreSQL answers at PG_TEST_URL; when it does not, says so once on the
 * console, so that a skipped PostgreSQL run is never mistaken for a passed one.
 */
export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      console.warn(
        `PostgreSQL not reachable at ${redactUrl(PG_TEST_URL)} (${(error as Error).message}): skipping the PostgreSQL tests`,
      );
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  // The maintenance database: a test database cannot be created or dropped from inside itself.
  const client = new pg.Client({ connectionString: withDatabase(PG_TEST_URL, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file (or one test), dropped afterwards. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `spincake_t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(PG_TEST_URL, name),
    name,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/** Every row of every table, to prove that a refused request changed nothing. */
export async function postgresDump(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: unknown[] = [];
    for (const [table, order] of [
      ['players', 'id'],
      ['blocks', 'seq'],
      ['plays', 'seq'],
      ['entries', 'id'],
      ['meta', 'key'],
      ['wallet_bets', 'request_id'],
      ['wallet_outbox', 'request_id'],
      ['wallet_balances', 'player_id'],
      ['demo_reloads', 'player_id, reload_id'],
      ['purged_plays', 'block_id, win_cents'],
    ]) {
      out.push((await client.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows);
    }
    return JSON.stringify(out);
  } finally {
    await client.end();
  }
}

/** Waits until a backend of a store (application_name spincake) waits on a lock, and returns its pid. */
export async function lockWaiter(admin: pg.Client): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'spincake' AND wait_event_type = 'Lock'`,
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no store transaction ever waited on the lock');
}

/** The tables a store writes. */
const WRITTEN_TABLES =
  'players, blocks, plays, entries, wallet_bets, wallet_outbox, wallet_balances, demo_reloads, purged_plays';

/**
 * Runs `act` while the store's next write fails as a whole: it waits on a lock held here,
 * and its connection is killed while it waits. Then writes go through again.
 */
export async function whileWritesFail<T>(url: string, act: () => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('BEGIN');
    // EXCLUSIVE: reads go on, every write waits.
    await admin.query(`LOCK TABLE ${WRITTEN_TABLES} IN EXCLUSIVE MODE`);
    const acting = act();
    // Its failure is awaited below, after the lock is let go.
    acting.catch(() => {});
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [await lockWaiter(admin)]);
    } finally {
      await admin.query('ROLLBACK');
    }
    return await acting;
  } finally {
    await admin.end();
  }
}
