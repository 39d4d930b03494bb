import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import type { SessionResponse } from '../contract/api.ts';
import Fastify from 'fastify';
import { loggableUrl, loggerOptions } from './http/requestLog.ts';
import { SqliteStore } from './store/sqlite/sqliteStore.ts';
import { testLibrary } from './testing/blockCache.ts';
import { spawnServer } from './testing/child.ts';
import { addTestBlocks, call, newPlayId, tempDataDir } from './testing/harness.ts';
import { signLaunchToken } from './tokens.ts';

const dataDir = tempDataDir();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PORTAL_SECRET = 'portal-secret-for-the-log-test-0123456789';

it('a real server logs JSON lines with the request id, and no token or secret', async () => {
  const store = SqliteStore.open(dataDir, await testLibrary());
  await addTestBlocks(store);
  await store.close();
  const server = await spawnServer({ DATA_DIR: dataDir, CLIENT_DIR: dataDir, LOG_LEVEL: 'info', PORTAL_SECRET });
  try {
    const launchToken = signLaunchToken(
      { playerId: 'alice_42', exp: Math.floor(Date.now() / 1000) + 300 },
      PORTAL_SECRET,
    );
    const session = await call<SessionResponse>(server.url, 'POST', '/api/session', { body: { launchToken } });
    expect(session.status).toBe(200);
    const { token } = session.body;
    const traced = await call(server.url, 'GET', '/api/account', {
      token,
      headers: { 'x-request-id': 'trace-abc-1', cookie: 'sid=cookie-secret-value' },
    });
    expect(traced.status).toBe(200);
    expect(traced.headers.get('x-request-id')).toBe('trace-abc-1');
    const inUrl = await call(server.url, 'GET', `/api/account?launchToken=${launchToken}&x=1`, { token });
    expect(inUrl.status).toBe(400);
    const play = await call(server.url, 'POST', '/api/plays', {
      token,
      body: { stakeCents: 100, playId: newPlayId() },
    });
    expect(play.status).toBe(402); // a portal player starts at 0 €

    server.process.kill('SIGTERM');
    await server.exited;
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((e) => e.msg === 'request');
    expect(requests.map((e) => [e.method, e.route, e.status])).toEqual([
      ['POST', '/api/session', 200],
      ['GET', '/api/account', 200],
      ['GET', '/api/account', 400],
      ['POST', '/api/plays', 402],
    ]);
    for (const e of requests) {
      expect(typeof e.reqId).toBe('string');
      expect(e.level).toBe(30);
      expect(typeof e.time).toBe('number');
    }
    expect(requests[1]!.reqId).toBe('trace-abc-1');
    expect(requests[3]!.reqId).toBe(play.headers.get('x-request-id'));
    expect(requests[2]!.url).toBe('/api/account?launchToken=[REDACTED]&x=1');

    const output = server.output();
    for (const secret of [launchToken, token, token.split('.')[1]!, PORTAL_SECRET, 'cookie-secret-value']) {
      expect(output).not.toContain(secret);
    }
  } finally {
    server.process.kill('SIGKILL');
  }
});

it('keeps secret-looking query values out of a logged URL', () => {
  expect(loggableUrl('/api/plays')).toBe('/api/plays');
  expect(loggableUrl('/?launchToken=abc&renderer=canvas')).toBe('/?launchToken=[REDACTED]&renderer=canvas');
  expect(loggableUrl('/x?access_token=1&api%5Fkey=2&password=3&flag')).toBe(
    '/x?access_token=[REDACTED]&api%5Fkey=[REDACTED]&password=[REDACTED]&flag',
  );
  expect(loggableUrl('/x?%zz=1&Token=2')).toBe('/x?%zz=1&Token=[REDACTED]');
});

it('redacts credentials wherever a log call would include them', async () => {
  let written = '';
  const app = Fastify({
    logger: {
      ...loggerOptions('info'),
      stream: {
        write: (line: string) => {
          written += line;
        },
      },
    },
  });
  app.log.warn(
    {
      req: { headers: { authorization: 'Bearer sess.abc', cookie: 'a=b' } },
      headers: { authorization: 'Bearer other' },
      body: { launchToken: 'lt.xyz', stakeCents: 100 },
      wallet: { secret: 'wallet-secret' },
    },
    'something',
  );
  await app.close();
  const entry = JSON.parse(written) as Record<string, Record<string, Record<string, unknown>>>;
  // A request logged as `req` shows its method and URL only.
  expect(entry.req).toEqual({ url: '' });
  for (const secret of ['sess.abc', 'a=b', 'other', 'lt.xyz', 'wallet-secret']) expect(written).not.toContain(secret);
  expect(entry.headers!.authorization).toBe('[REDACTED]');
  expect(entry.body).toEqual({ launchToken: '[REDACTED]', stakeCents: 100 });
  expect(entry.wallet!.secret).toBe('[REDACTED]');
});
