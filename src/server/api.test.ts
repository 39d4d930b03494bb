import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../rules/index.ts';
import type { AccountResponse, ApiError, PlayResponse, PlaysPage } from '../contract/api.ts';
import { signLaunchToken, signSession } from './tokens.ts';
import { build, call, databaseDump, demoSession, newPlayId, type TestApp } from './testing/harness.ts';
import { testBook } from './testing/testBook.ts';

const PORTAL_SECRET = 'portal-secret-for-tests-0123456789abcdef';

let server: TestApp;
let api: TestApp['app'];

beforeAll(async () => {
  server = await build({ PORTAL_SECRET, PORTAL_ORIGINS: 'https://portal.example,https://other.example' });
  api = server.app;
});
afterAll(async () => {
  await server?.close();
});

async function play(token: string, stakeCents: unknown, playId: unknown = newPlayId()) {
  return call<PlayResponse & ApiError>(api, 'POST', '/api/plays', { token, body: { stakeCents, playId } });
}

describe('sessions', () => {
  it('opens a demo player with the demo balance', async () => {
    const session = await demoSession(api);
    expect(session.balanceCents).toBe(10_000);
    const account = await call<AccountResponse>(api, 'GET', '/api/account', { token: session.token });
    expect(account.status).toBe(200);
    expect(account.body.playerId).toBe(session.playerId);
    expect(account.body.balanceCents).toBe(10_000);
    expect(account.body.stakes).toEqual([100, 200, 300, 500].map((stakeCents) => ({ stakeCents, onSale: true })));
    expect(account.body.sales).toEqual({ open: true, opensAt: null, closesAt: null, message: '' });
    expect(account.body.unfinishedPlay).toBeNull();
  });

  it('opens the portal player named by a signed launch token, once per player', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const first = await call<{ token: string; playerId: string; balanceCents: number }>(api, 'POST', '/api/session', {
      body: { launchToken: signLaunchToken({ playerId: 'alice_42', exp }, PORTAL_SECRET) },
    });
    expect(first.status).toBe(200);
    expect(first.body.playerId).toBe('portal-alice_42');
    expect(first.body.balanceCents).toBe(0);
    const again = await call<{ playerId: string }>(api, 'POST', '/api/session', {
      body: { launchToken: signLaunchToken({ playerId: 'alice_42', exp }, PORTAL_SECRET) },
    });
    expect(again.body.playerId).toBe('portal-alice_42');
  });

  it.each([
    ['forged', signLaunchToken({ playerId: 'mallory', exp: Math.floor(Date.now() / 1000) + 60 }, 'x'.repeat(40))],
    ['expired', signLaunchToken({ playerId: 'alice_42', exp: Math.floor(Date.now() / 1000) - 1 }, PORTAL_SECRET)],
    ['bad player id', signLaunchToken({ playerId: 'a b', exp: Math.floor(Date.now() / 1000) + 60 }, PORTAL_SECRET)],
    ['garbage', 'not-a-token'],
  ])('refuses a %s launch token and creates no player', async (_label, launchToken) => {
    const before = databaseDump(server.sqlite);
    const reply = await call<ApiError>(api, 'POST', '/api/session', { body: { launchToken } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('NO_SESSION');
    expect(databaseDump(server.sqlite)).toBe(before);
  });

  it.each([
    ['no token', undefined],
    ['a garbage token', 'abc.def'],
    [
      'a token signed with another key',
      signSession(
        { sessionId: 's', playerId: 'x', iat: Math.floor(Date.now() / 1000), exp: 4_000_000_000 },
        { signing: { id: 'other', key: Buffer.alloc(32, 7) }, byId: new Map() },
      ),
    ],
  ])('refuses the account with %s', async (_label, token) => {
    const reply = await call<ApiError>(api, 'GET', '/api/account', { token });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('NO_SESSION');
  });

  it('refuses an expired session token', async () => {
    const session = await demoSession(api);
    const now = Math.floor(Date.now() / 1000);
    const expired = signSession(
      { sessionId: 'expired', playerId: session.playerId, iat: now - 65, exp: now - 5 },
      server.context.sessionKeys,
    );
    const reply = await call<ApiError>(api, 'GET', '/api/account', { token: expired });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('NO_SESSION');
  });
});

describe('a play', () => {
  it('debits the stake, sells the next unit and credits exactly its lot', async () => {
    const { token } = await demoSession(api);
    const reply = await play(token, 200);
    expect(reply.status).toBe(200);
    const p = reply.body.play;
    const lot = evaluate({ stakeCents: 200, wheels: p.wheels }).winCents;
    expect(p.winCents).toBe(lot);
    expect(p.jeu1.winCents + p.jeu2.winCents).toBe(lot);
    expect(p.balanceBeforeCents).toBe(10_000);
    expect(p.balanceAfterCents).toBe(10_000 - 200 + lot);
    expect(reply.body.balanceCents).toBe(p.balanceAfterCents);
    expect(p.launched).toEqual([false, false, false, false]);
    expect(p.finished).toBe(false);
    expect(Object.keys(p).sort()).toEqual(
      [
        'balanceAfterCents',
        'balanceBeforeCents',
        'createdAt',
        'finished',
        'jeu1',
        'jeu2',
        'launched',
        'playId',
        'stakeCents',
        'wheels',
        'winCents',
      ].sort(),
    );
  });

  it('records progress and finish, and the account resumes the unfinished play', async () => {
    const { token } = await demoSession(api);
    const { play: p } = (await play(token, 100)).body;
    let account = await call<AccountResponse>(api, 'GET', '/api/account', { token });
    expect(account.body.unfinishedPlay?.playId).toBe(p.playId);

    const progress = await call<PlayResponse>(api, 'POST', `/api/plays/${p.playId}/progress`, {
      token,
      body: { launched: [false, true, false, false] },
    });
    expect(progress.status).toBe(200);
    expect(progress.body.play.launched).toEqual([false, true, false, false]);
    // Progress never un-launches a wheel.
    const more = await call<PlayResponse>(api, 'POST', `/api/plays/${p.playId}/progress`, {
      token,
      body: { launched: [true, false, false, false] },
    });
    expect(more.body.play.launched).toEqual([true, true, false, false]);
    account = await call<AccountResponse>(api, 'GET', '/api/account', { token });
    expect(account.body.unfinishedPlay?.launched).toEqual([true, true, false, false]);

    const finish = await call<PlayResponse>(api, 'POST', `/api/plays/${p.playId}/finish`, { token });
    expect(finish.status).toBe(200);
    expect(finish.body.play.finished).toBe(true);
    expect(finish.body.play.launched).toEqual([true, true, true, true]);
    account = await call<AccountResponse>(api, 'GET', '/api/account', { token });
    expect(account.body.unfinishedPlay).toBeNull();
  });

  it('lists the history newest first, in pages, and shows one play', async () => {
    const { token } = await demoSession(api);
    const ids: string[] = [];
    for (let i = 0; i < 13; i++) {
      const r = await play(token, 100);
      ids.push(r.body.play.playId);
    }
    const first = await call<PlaysPage>(api, 'GET', '/api/plays?limit=10', { token });
    expect(first.status).toBe(200);
    expect(first.body.plays.map((p) => p.playId)).toEqual(ids.slice(3).reverse());
    expect(first.body.nextBefore).toBe(ids[3]);
    const second = await call<PlaysPage>(api, 'GET', `/api/plays?limit=10&before=${first.body.nextBefore}`, { token });
    expect(second.body.plays.map((p) => p.playId)).toEqual(ids.slice(0, 3).reverse());
    expect(second.body.nextBefore).toBeNull();
    const defaults = await call<PlaysPage>(api, 'GET', '/api/plays', { token });
    expect(defaults.body.plays).toHaveLength(13);

    const one = await call<PlayResponse>(api, 'GET', `/api/plays/${ids[5]}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.play).toEqual(first.body.plays.find((p) => p.playId === ids[5]));
  });

  it('never shows a player another player’s plays', async () => {
    const alice = await demoSession(api);
    const bob = await demoSession(api);
    const { play: p } = (await play(alice.token, 100)).body;
    const before = databaseDump(server.sqlite);
    for (const [method, path, body] of [
      ['GET', `/api/plays/${p.playId}`, undefined],
      ['POST', `/api/plays/${p.playId}/progress`, { launched: [true, true, true, true] }],
      ['POST', `/api/plays/${p.playId}/finish`, undefined],
      ['GET', `/api/plays?before=${p.playId}`, undefined],
    ] as const) {
      const reply = await call<ApiError>(api, method, path, { token: bob.token, body });
      expect(reply.status, path).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
    const reuse = await play(bob.token, 100, p.playId);
    expect(reuse.status).toBe(409);
    expect(reuse.body.error.code).toBe('PLAY_ID_REUSED');
    expect(databaseDump(server.sqlite)).toBe(before);
    const bobs = await call<PlaysPage>(api, 'GET', '/api/plays', { token: bob.token });
    expect(bobs.body.plays).toEqual([]);
  });

  it('refuses a stake the balance cannot pay, before any debit', async () => {
    const { token, playerId } = await demoSession(api);
    await testBook(server.store).setBalance(playerId, 150, new Date());
    const before = databaseDump(server.sqlite);
    const reply = await play(token, 200);
    expect(reply.status).toBe(402);
    expect(reply.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(databaseDump(server.sqlite)).toBe(before);
  });
});

describe('idempotency', () => {
  it('the same playId twice in sequence is one play and one debit', async () => {
    const { token } = await demoSession(api);
    const playId = newPlayId();
    const first = await play(token, 100, playId);
    const dump = databaseDump(server.sqlite);
    const second = await play(token, 100, playId);
    expect(second.status).toBe(200);
    expect(second.body.play).toEqual(first.body.play);
    expect(second.body.balanceCents).toBe(first.body.balanceCents);
    expect(databaseDump(server.sqlite)).toBe(dump);
    // Upper-case spelling of the same UUID is the same play.
    const upper = await play(token, 100, playId.toUpperCase());
    expect(upper.body.play.playId).toBe(playId);
    expect(databaseDump(server.sqlite)).toBe(dump);
  });

  it('the same playId sent concurrently is one play and one debit', async () => {
    const { token } = await demoSession(api);
    const playId = newPlayId();
    const replies = await Promise.all(Array.from({ length: 20 }, () => play(token, 500, playId)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const plays = new Set(replies.map((r) => JSON.stringify(r.body.play)));
    expect(plays.size).toBe(1);
    const history = await call<PlaysPage>(api, 'GET', '/api/plays', { token });
    expect(history.body.plays).toHaveLength(1);
    const debits = server.sqlite.db
      .prepare(`SELECT COUNT(*) AS n FROM entries WHERE play_id = ? AND kind = 'stake' AND amount_cents < 0`)
      .get(playId) as { n: number };
    expect(debits.n).toBe(1);
  });

  it('the same playId with another stake is PLAY_ID_REUSED and changes nothing', async () => {
    const { token } = await demoSession(api);
    const playId = newPlayId();
    await play(token, 100, playId);
    const before = databaseDump(server.sqlite);
    const reply = await play(token, 200, playId);
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('PLAY_ID_REUSED');
    expect(databaseDump(server.sqlite)).toBe(before);
  });
});

describe('bad input changes nothing', () => {
  let token: string;
  beforeAll(async () => {
    token = (await demoSession(api)).token;
  });

  async function expectRefused(
    request: () => Promise<{ status: number; body: unknown }>,
    status: number,
    code: string,
  ): Promise<void> {
    const before = databaseDump(server.sqlite);
    const reply = await request();
    expect(reply.status).toBe(status);
    expect((reply.body as ApiError).error.code).toBe(code);
    expect(typeof (reply.body as ApiError).error.message).toBe('string');
    expect(databaseDump(server.sqlite)).toBe(before);
  }

  it.each([
    ['-1', -1],
    ['0', 0],
    ['4', 4],
    ['1.5', 1.5],
    ['"100"', '100'],
    ['null', null],
    ['an array', [100]],
    ['an object', { cents: 100 }],
  ])('stake %s', async (_label, stake) => {
    await expectRefused(() => play(token, stake), 400, 'INVALID_INPUT');
  });

  it('stake 1e309 (Infinity once parsed)', async () => {
    const playId = newPlayId();
    await expectRefused(
      () => call(api, 'POST', '/api/plays', { token, raw: `{"stakeCents":1e309,"playId":"${playId}"}` }),
      400,
      'INVALID_INPUT',
    );
  });

  it('missing stake, missing playId, empty body', async () => {
    await expectRefused(
      () => call(api, 'POST', '/api/plays', { token, body: { playId: newPlayId() } }),
      400,
      'INVALID_INPUT',
    );
    await expectRefused(
      () => call(api, 'POST', '/api/plays', { token, body: { stakeCents: 100 } }),
      400,
      'INVALID_INPUT',
    );
    await expectRefused(() => call(api, 'POST', '/api/plays', { token, raw: '' }), 400, 'INVALID_INPUT');
    await expectRefused(() => call(api, 'POST', '/api/plays', { token, body: null }), 400, 'INVALID_INPUT');
  });

  it('extra fields', async () => {
    await expectRefused(
      () =>
        call(api, 'POST', '/api/plays', { token, body: { stakeCents: 100, playId: newPlayId(), winCents: 2_000_000 } }),
      400,
      'INVALID_INPUT',
    );
    await expectRefused(() => call(api, 'POST', '/api/session', { body: { balanceCents: 1e6 } }), 400, 'INVALID_INPUT');
  });

  it('a 1 MB body', async () => {
    const big = JSON.stringify({ stakeCents: 100, playId: newPlayId(), pad: 'x'.repeat(1024 * 1024) });
    await expectRefused(() => call(api, 'POST', '/api/plays', { token, raw: big }), 413, 'INVALID_INPUT');
  });

  it('malformed JSON', async () => {
    await expectRefused(
      () => call(api, 'POST', '/api/plays', { token, raw: '{"stakeCents": 100,' }),
      400,
      'INVALID_INPUT',
    );
  });

  it('wrong content type', async () => {
    const body = JSON.stringify({ stakeCents: 100, playId: newPlayId() });
    await expectRefused(
      () => call(api, 'POST', '/api/plays', { token, raw: body, contentType: 'text/plain' }),
      415,
      'INVALID_INPUT',
    );
    await expectRefused(
      () =>
        call(api, 'POST', '/api/plays', {
          token,
          raw: 'stakeCents=100',
          contentType: 'application/x-www-form-urlencoded',
        }),
      415,
      'INVALID_INPUT',
    );
  });

  it.each([
    ['no', undefined],
    ['a forged', 'eyJwIjoiZGVtby14IiwieCI6NDAwMDAwMDAwMH0.AAAA'],
    ['an expired', 'expired'],
  ])('%s token', async (_label, given) => {
    const t =
      given === 'expired'
        ? signSession(
            {
              sessionId: 'x',
              playerId: 'demo-x',
              iat: Math.floor(Date.now() / 1000) - 61,
              exp: Math.floor(Date.now() / 1000) - 1,
            },
            server.context.sessionKeys,
          )
        : given;
    await expectRefused(() => play(t as string, 100), 401, 'NO_SESSION');
  });

  it.each(['not-a-uuid', '12345', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '', 42])('play id %s', async (playId) => {
    await expectRefused(() => play(token, 100, playId), 400, 'INVALID_INPUT');
  });

  it('a non-UUID play id in the path', async () => {
    await expectRefused(() => call(api, 'GET', '/api/plays/not-a-uuid', { token }), 400, 'INVALID_INPUT');
    await expectRefused(
      () => call(api, 'POST', '/api/plays/1234/progress', { token, body: { launched: [true, true, true, true] } }),
      400,
      'INVALID_INPUT',
    );
  });

  it('bad progress and paging', async () => {
    const { play: p } = (await play(token, 100)).body;
    for (const launched of [[true], [true, true, true, 'yes'], 'all', [1, 0, 0, 0], [true, true, true, true, true]]) {
      await expectRefused(
        () => call(api, 'POST', `/api/plays/${p.playId}/progress`, { token, body: { launched } }),
        400,
        'INVALID_INPUT',
      );
    }
    await expectRefused(
      () => call(api, 'POST', `/api/plays/${p.playId}/finish`, { token, body: { x: 1 } }),
      400,
      'INVALID_INPUT',
    );
    for (const q of ['limit=0', 'limit=101', 'limit=ten', 'limit=1.5', 'before=abc', 'order=asc']) {
      await expectRefused(() => call(api, 'GET', `/api/plays?${q}`, { token }), 400, 'INVALID_INPUT');
    }
  });

  it('an unknown route', async () => {
    await expectRefused(() => call(api, 'GET', '/api/nothing-here', { token }), 404, 'NOT_FOUND');
  });
});

describe('security', () => {
  it('sends the CSP with the portal origins as frame ancestors, and no-store on the API', async () => {
    const reply = await call(api, 'GET', '/api/health');
    expect(reply.status).toBe(200);
    const csp = reply.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self' https://portal.example https://other.example");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('has no test routes without SPINCAKE_TEST_MODE', async () => {
    const { token } = await demoSession(api);
    const before = databaseDump(server.sqlite);
    for (const [path, body] of [
      ['/api/test/fixture', { pair: 'x20000' }],
      ['/api/test/exhaust', { stakeCents: 100 }],
      ['/api/test/balance', { balanceCents: 1_000_000 }],
      ['/api/test/sales', { open: false }],
    ] as const) {
      const reply = await call<ApiError>(api, 'POST', path, { token, body });
      expect(reply.status, path).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
    expect(databaseDump(server.sqlite)).toBe(before);
  });
});
