import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionResponse } from '../contract/api.ts';
import { loadConfig } from './config.ts';
import { startServer, type RunningServer } from './server.ts';
import { PostgresStore } from './store/postgres/postgresStore.ts';
import { testLibrary } from './testing/blockCache.ts';
import { addTestBlocks, call, startTestServer, tempDataDir } from './testing/harness.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from './testing/postgres.ts';
import { deleteKeys, REDIS_TEST_URL, redisReachable, uniqueKeyPrefix } from './testing/redis.ts';

/**
 * The rate limit with REDIS_URL: two real instances on one database and one Redis count a
 * player's requests once in all; without Redis each counts its own (the control); with
 * Redis unreachable the game still sells and each instance still limits.
 */
const redisUp = await redisReachable();
const postgresUp = await postgresReachable();
/** In CI Redis must be there (`.ci/run` starts it): its absence fails, never skips. */
const mustRun = redisUp || process.env.CI !== undefined;

const LIMIT = 6;
const prefix = uniqueKeyPrefix();
const dataDir = tempDataDir();
const running: RunningServer[] = [];
let database: TestDatabase | null = null;

afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await database?.drop();
  if (redisUp) await deleteKeys(prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (!mustRun) console.warn(`shared rate limit tests skipped: Redis not reachable at ${REDIS_TEST_URL}`);
});

async function instances(env: Record<string, string>): Promise<[RunningServer, RunningServer]> {
  const library = await testLibrary();
  const config = loadConfig({
    DATABASE_URL: database!.url,
    DATA_DIR: dataDir,
    CLIENT_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    ...env,
  });
  const started = await Promise.all([0, 1].map(() => startServer(config, { library, log: () => {} })));
  running.push(...started);
  return started as [RunningServer, RunningServer];
}

/** One player's requests, alternating between the two instances, until both refuse: how many passed. */
async function acceptedInAll([a, b]: [RunningServer, RunningServer]): Promise<number> {
  const { token } = (await call<SessionResponse>(a.url, 'POST', '/api/session', { body: {} })).body;
  let accepted = 0;
  let refusedInARow = 0;
  for (let i = 0; refusedInARow < 2 && i < 4 * LIMIT; i++) {
    const reply = await call<{ error?: { code: string } }>(i % 2 === 0 ? a.url : b.url, 'GET', '/api/account', {
      token,
    });
    if (reply.status === 200) {
      accepted++;
      refusedInARow = 0;
    } else {
      expect(reply.status).toBe(429);
      expect(reply.body.error?.code).toBe('RATE_LIMITED');
      refusedInARow++;
    }
  }
  return accepted;
}

describe.skipIf(!mustRun || !postgresUp)('two instances on one database', () => {
  it('share the limit through Redis: a player gets it once in all (each instance alone would give it twice)', async () => {
    if (!redisUp) throw new Error(`Redis is not reachable at ${REDIS_TEST_URL}: .ci/run should have started it`);
    database = await createTestDatabase();
    const prepared = await PostgresStore.connect(database.url, await testLibrary());
    await addTestBlocks(prepared);
    await prepared.close();

    // A generous timeout: a busy test machine must not make a request fall back to memory.
    const shared = await instances({ REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: prefix, REDIS_TIMEOUT_MS: '10000' });
    // (The session request is counted under the address: no player yet.)
    expect(await acceptedInAll(shared)).toBe(LIMIT);
    const separate = await instances({});
    expect(await acceptedInAll(separate)).toBe(2 * LIMIT);
  });
});

it('keeps selling with Redis unreachable, each instance limiting in its memory', async () => {
  // Port 1 refuses connections: Redis is "down" from the start.
  const server = await startTestServer({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  try {
    const { token } = (await call<SessionResponse>(server.url, 'POST', '/api/session', { body: {} })).body;
    const play = await call(server.url, 'POST', '/api/plays', {
      token,
      body: { stakeCents: 100, playId: crypto.randomUUID() },
    });
    expect(play.status, JSON.stringify(play.body)).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await call(server.url, 'GET', '/api/account', { token })).status);
    expect(statuses).toEqual([...Array<number>(LIMIT - 1).fill(200), 429]);
  } finally {
    await server.close();
  }
});
