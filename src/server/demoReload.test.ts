import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountResponse, ApiError, DemoReloadResponse, SessionResponse } from '../contract/api.ts';
import { auditLedger } from './ops/ledgerAudit.ts';
import { testLibrary } from './testing/blockCache.ts';
import { databaseDump, startTestServer, type TestServer } from './testing/harness.ts';
import { signLaunchToken } from './tokens.ts';
import { testBook } from './testing/testBook.ts';

/** « Recharger la démo » through the API, without sockets (app.inject). */

const PORTAL_SECRET = 'portal-secret-for-tests-0123456789abcdef';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PORTAL_SECRET, DEMO_BALANCE_CENTS: '10000' });
});
afterAll(async () => {
  await server?.close();
});

async function inject<T>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) {
  const reply = await server.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  return { status: reply.statusCode, body: reply.json<T>() };
}

async function demoPlayer(balanceCents: number): Promise<SessionResponse> {
  const session = await inject<SessionResponse>('POST', '/api/session', undefined, {});
  expect(session.status).toBe(200);
  await testBook(server.store).setBalance(session.body.playerId, balanceCents, new Date());
  return session.body;
}

const reload = (token: string, reloadId: string = randomUUID()) =>
  inject<DemoReloadResponse & ApiError>('POST', '/api/account/demo-reload', token, { reloadId });

const reloadEntries = (playerId: string) =>
  server.sqlite.db
    .prepare(`SELECT account, amount_cents, kind FROM entries WHERE txn LIKE ? ORDER BY id`)
    .all(`reload:${playerId}:%`);

describe('POST /api/account/demo-reload', () => {
  it('puts a demo player at 0 € back to the demo balance, as a funding in the ledger', async () => {
    const player = await demoPlayer(0);
    const account = await inject<AccountResponse>('GET', '/api/account', player.token);
    expect(account.body.demo).toBe(true);
    const reply = await reload(player.token);
    expect(reply).toEqual({ status: 200, body: { balanceCents: 10_000 } });
    expect((await inject<AccountResponse>('GET', '/api/account', player.token)).body.balanceCents).toBe(10_000);
    expect(reloadEntries(player.playerId)).toEqual([
      { account: 'house:demo-funding', amount_cents: -10_000, kind: 'funding' },
      { account: `player:${player.playerId}`, amount_cents: 10_000, kind: 'funding' },
    ]);
    const report = await auditLedger(server.store, await testLibrary());
    expect(report.problems).toEqual([]);
  });

  it('tops up a balance below the smallest stake by the difference', async () => {
    const player = await demoPlayer(40);
    expect((await reload(player.token)).body.balanceCents).toBe(10_000);
    expect(reloadEntries(player.playerId)).toEqual([
      { account: 'house:demo-funding', amount_cents: -9_960, kind: 'funding' },
      { account: `player:${player.playerId}`, amount_cents: 9_960, kind: 'funding' },
    ]);
  });

  it('answers a retry of the same reloadId again, and reloads once', async () => {
    const player = await demoPlayer(0);
    const reloadId = randomUUID();
    const [first, concurrent] = await Promise.all([reload(player.token, reloadId), reload(player.token, reloadId)]);
    const later = await reload(player.token, reloadId.toUpperCase());
    for (const reply of [first, concurrent, later])
      expect(reply).toEqual({ status: 200, body: { balanceCents: 10_000 } });
    expect(reloadEntries(player.playerId)).toHaveLength(2);
    expect((await inject<AccountResponse>('GET', '/api/account', player.token)).body.balanceCents).toBe(10_000);
  });

  it('refuses a balance that still pays the smallest stake with BALANCE_NOT_LOW, and changes nothing', async () => {
    const player = await demoPlayer(100);
    const before = databaseDump(server.sqlite);
    const reply = await reload(player.token);
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('BALANCE_NOT_LOW');
    expect(databaseDump(server.sqlite)).toBe(before);
  });

  it('refuses a real-money (portal) player with DEMO_ONLY, and changes nothing', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const launchToken = signLaunchToken({ playerId: 'bob_7', exp }, PORTAL_SECRET);
    const session = await inject<SessionResponse>('POST', '/api/session', undefined, { launchToken });
    expect(session.body.balanceCents).toBe(0);
    const account = await inject<AccountResponse>('GET', '/api/account', session.body.token);
    expect(account.body.demo).toBe(false);
    const before = databaseDump(server.sqlite);
    const reply = await reload(session.body.token);
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('DEMO_ONLY');
    expect(databaseDump(server.sqlite)).toBe(before);
  });

  it('refuses a request without a session, or without a UUID, and changes nothing', async () => {
    const player = await demoPlayer(0);
    const before = databaseDump(server.sqlite);
    expect(
      (await inject<ApiError>('POST', '/api/account/demo-reload', undefined, { reloadId: randomUUID() })).body,
    ).toMatchObject({ error: { code: 'NO_SESSION' } });
    for (const body of [{}, { reloadId: 'nope' }, { reloadId: randomUUID(), balanceCents: 1 }]) {
      const reply = await inject<ApiError>('POST', '/api/account/demo-reload', player.token, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('INVALID_INPUT');
    }
    expect(databaseDump(server.sqlite)).toBe(before);
  });
});
