import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_TEST_URL, postgresReachable } from '../../testing/postgres.ts';
import { sentTogether, settleInOrder } from './batchSql.ts';

const reachable = await postgresReachable();

describe.skipIf(!reachable)('sentTogether (PostgreSQL)', () => {
  const pool = new pg.Pool({ connectionString: PG_TEST_URL, max: 1, pipeline: true });
  let client: pg.PoolClient;
  let writes: number;

  beforeAll(async () => {
    client = await pool.connect();
    // Every write that reaches the socket, whether one buffer or several gathered.
    const socket = (client as unknown as { connection: { stream: { _write: unknown; _writev: unknown } } }).connection
      .stream as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes++;
        return original(...args);
      };
    }
  });

  afterAll(async () => {
    client.release();
    await pool.end();
  });

  const threeStatements = () => [
    client.query('BEGIN'),
    client.query('SELECT $1::int AS n', [1]),
    client.query('COMMIT'),
  ];

  it('sends a round trip of statements in one write', async () => {
    writes = 0;
    const results = await settleInOrder(sentTogether(client, threeStatements));
    expect(results[1]!.rows).toEqual([{ n: 1 }]);
    expect(writes).toBe(1);
  });

  it('without it, the pipelined connection writes each statement on its own', async () => {
    writes = 0;
    await settleInOrder(threeStatements());
    expect(writes).toBe(3);
  });
});
