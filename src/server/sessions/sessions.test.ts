import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, SessionResponse } from '../../contract/api.ts';
import type { BlockLibrary } from '../blocks/blockLibrary.ts';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { TEST_SESSION_LIMITS } from '../testing/child.ts';
import { addTestBlocks, call, tempDataDir } from '../testing/harness.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../testing/postgres.ts';
import { signLaunchToken } from '../tokens.ts';

/**
 * Sessions as every instance sees them: a logout ends the session on all of them, an
 * unused session ends after SESSION_IDLE_SECONDS, a launch token opens one session only,
 * on SQLite (instances sharing DATA_DIR) and on PostgreSQL (instances sharing the database).
 */
const reachable = await postgresReachable();
const PORTAL_SECRET = 'Zq3v8R1pXw2LmN9tYb4Kc7Hd0Fs6Gj5A-sessions';

let library: BlockLibrary;
const running: RunningServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  library = await testLibrary();
});

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(() => {
  if (!reachable) console.warn('sessions on PostgreSQL skipped: PostgreSQL not reachable');
});

type Kind = 'sqlite' | 'postgres';

/** Two instances on one set of data (a data directory, or a database too). */
async function twoInstances(kind: Kind, env: Record<string, string> = {}): Promise<[RunningServer, RunningServer]> {
  const dataDir = tempDataDir();
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  let database: TestDatabase | null = null;
  if (kind === 'postgres') {
    database = await createTestDatabase();
    cleanups.push(() => database!.drop());
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    CLIENT_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PORTAL_SECRET,
    SESSION_POLL_MS: '50',
    ...TEST_SESSION_LIMITS,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const first = await startServer(config, { library, log: () => {}, prepare: addTestBlocks });
  running.push(first);
  const second = await startServer(config, { library, log: () => {} });
  running.push(second);
  return [first, second];
}

const account = (server: RunningServer, token: string) => call<ApiError>(server.url, 'GET', '/api/account', { token });

async function openDemo(server: RunningServer): Promise<string> {
  const reply = await call<SessionResponse>(server.url, 'POST', '/api/session', { body: {} });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.token;
}

/** Polls until `check` passes (the test's timeout bounds it). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

describe.each<Kind>(['sqlite', 'postgres'])('sessions on %s', (kind) => {
  const skip = kind === 'postgres' && !reachable;

  it.skipIf(skip)('a logout ends the session at once here and on every other instance', async () => {
    const [a, b] = await twoInstances(kind);
    const token = await openDemo(a);
    const other = await openDemo(b);
    expect((await account(b, token)).status).toBe(200);
    const out = await call<{ loggedOut: boolean }>(a.url, 'POST', '/api/session/logout', { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ loggedOut: true });
    const here = await account(a, token);
    expect(here.status).toBe(401);
    expect(here.body.error).toEqual({ code: 'NO_SESSION', message: expect.stringMatching(/logged out/) });
    await eventually(async () => (await account(b, token)).status === 401);
    expect((await account(b, token)).body.error.message).toMatch(/logged out/);
    // Only that session: the other player plays on.
    expect((await account(a, other)).status).toBe(200);
    // An instance started after the logout knows it too.
    const late = await startServer(a.context.config, { library, log: () => {} });
    running.push(late);
    expect((await account(late, token)).status).toBe(401);
    // Logging out twice, or without a session, is refused as having no session.
    expect((await call<ApiError>(a.url, 'POST', '/api/session/logout', { token })).status).toBe(401);
    expect((await call<ApiError>(a.url, 'POST', '/api/session/logout', {})).status).toBe(401);
  });

  it.skipIf(skip)('a session unused for SESSION_IDLE_SECONDS ends; one in use lasts its lifetime', async () => {
    const [a, b] = await twoInstances(kind, { SESSION_IDLE_SECONDS: '600', SESSION_TTL_SECONDS: '3600' });
    let now = Date.now();
    for (const server of [a, b]) server.context.clock = () => new Date(now);
    const idle = await openDemo(a);
    const busy = await openDemo(a);
    // The busy session is used every 5 minutes, on the other instance: the first one learns of it.
    for (let step = 0; step < 3; step++) {
      now += 300_000;
      expect((await account(b, busy)).status).toBe(200);
      await b.context.sessions.sync();
    }
    const refused = await account(a, idle);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: 'NO_SESSION', message: expect.stringMatching(/without use/) });
    expect((await account(a, busy)).status).toBe(200);
    // Used again at once, it stays ended.
    expect((await account(b, idle)).status).toBe(401);
    // Use does not extend the absolute lifetime: the busy session ends at its hour.
    for (let minutes = 20; minutes < 60; minutes += 5) {
      now += 300_000;
      expect((await account(a, busy)).status).toBe(200);
    }
    now += 300_000;
    expect((await account(a, busy)).status).toBe(401);
  });

  it.skipIf(skip)('a launch token opens one session, on any instance, and is refused ever after', async () => {
    const [a, b] = await twoInstances(kind);
    const launchToken = signLaunchToken({ playerId: 'alice', exp: Math.floor(Date.now() / 1000) + 120 }, PORTAL_SECRET);
    const first = await call<SessionResponse>(a.url, 'POST', '/api/session', { body: { launchToken } });
    expect(first.status).toBe(200);
    for (const server of [a, b]) {
      const again = await call<ApiError>(server.url, 'POST', '/api/session', { body: { launchToken } });
      expect(again.status).toBe(401);
      expect(again.body.error).toEqual({ code: 'NO_SESSION', message: expect.stringMatching(/already used/) });
    }
    // Two at once: one session, one refusal.
    const fresh = signLaunchToken({ playerId: 'alice', exp: Math.floor(Date.now() / 1000) + 120 }, PORTAL_SECRET);
    const both = await Promise.all(
      [a, b].map((s) => call(s.url, 'POST', '/api/session', { body: { launchToken: fresh } })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    // A token valid for too long, or for another game, opens nothing.
    const long = signLaunchToken({ playerId: 'alice', exp: 4_102_444_800 }, PORTAL_SECRET);
    const elsewhere = signLaunchToken(
      { playerId: 'alice', exp: Math.floor(Date.now() / 1000) + 60, aud: 'another-game' },
      PORTAL_SECRET,
    );
    for (const token of [long, elsewhere]) {
      expect((await call(a.url, 'POST', '/api/session', { body: { launchToken: token } })).status).toBe(401);
    }
  });
});
