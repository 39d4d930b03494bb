import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountResponse, ApiError } from '../contract/api.ts';
import type { BlockLibrary } from './blocks/blockLibrary.ts';
import { auditLedger } from './ops/ledgerAudit.ts';
import { testLibrary } from './testing/blockCache.ts';
import { addTestBlocks, call, demoSession, newPlayId, startTestServer, type TestServer } from './testing/harness.ts';
import { sample, scrape } from './testing/metricsText.ts';
import { runOps } from './testing/opsCli.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from './testing/postgres.ts';
import { storeKinds } from './testing/stores.ts';

/**
 * The demo purge's two ways in, on both databases: the server's timer (its session tokens
 * then get 401 NO_SESSION, the metric counts the players) and `npm run ops -- demo purge`.
 */
const DAY = 86_400_000;
const kinds = await storeKinds();
const postgres = await postgresReachable();

let library: BlockLibrary;
beforeAll(async () => {
  library = await testLibrary();
});

describe.each([
  { name: 'sqlite', available: true },
  { name: 'postgres', available: postgres },
])('the server’s demo purge timer on $name', ({ name, available }) => {
  let server: TestServer | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await server?.close();
    await database?.drop();
    server = undefined;
    database = undefined;
  });

  it.skipIf(!available)(
    'removes an idle demo player: its token gets 401 NO_SESSION, the metric counts it',
    async () => {
      database = name === 'postgres' ? await createTestDatabase() : undefined;
      server = await startTestServer({
        ...(database ? { DATABASE_URL: database.url } : {}),
        METRICS_PORT: '0',
        DEMO_PLAYER_TTL_DAYS: '30',
        DEMO_PURGE_INTERVAL_SECONDS: '1',
        // A session that outlives the purge's delay, never idle: only the purge ends it.
        SESSION_TTL_SECONDS: String(365 * 86_400),
        SESSION_IDLE_SECONDS: '0',
        SESSION_POLL_MS: '50',
      });
      const { url } = server;
      const idle = await demoSession(url);
      const played = await call(url, 'POST', '/api/plays', {
        token: idle.token,
        body: { stakeCents: 200, playId: newPlayId() },
      });
      expect(played.status).toBe(200);
      expect((await call(url, 'GET', '/api/account', { token: idle.token })).status).toBe(200);
      const start = Date.now();
      server.context.clock = () => new Date(Date.now() + 31 * DAY);
      const recent = await demoSession(url);

      let account = await call<ApiError>(url, 'GET', '/api/account', { token: idle.token });
      while (account.status === 200 && Date.now() - start < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        account = await call<ApiError>(url, 'GET', '/api/account', { token: idle.token });
      }
      expect(account.status).toBe(401);
      expect(account.body.error.code).toBe('NO_SESSION');
      expect(account.body.error.message).toMatch(/demo player removed after long disuse/);
      const playAfter = await call<ApiError>(url, 'POST', '/api/plays', {
        token: idle.token,
        body: { stakeCents: 200, playId: newPlayId() },
      });
      expect(playAfter.status).toBe(401);
      expect(playAfter.body.error.code).toBe('NO_SESSION');
      // Its sessions end first, then the player goes (the same run, a moment later).
      while ((await server.store.getPlayer(idle.playerId)) !== null && Date.now() - start < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await server.store.getPlayer(idle.playerId)).toBeNull();

      const kept = await call<AccountResponse>(url, 'GET', '/api/account', { token: recent.token });
      expect(kept.status).toBe(200);
      let purged = sample(await scrape(server), 'spincake_demo_players_purged_total');
      while (purged === 0 && Date.now() - start < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        purged = sample(await scrape(server), 'spincake_demo_players_purged_total');
      }
      expect(purged).toBe(1);
      const report = await server.store.readSnapshot(() => auditLedger(server!.store, library));
      expect(report.problems).toEqual([]);
      expect(report.purgedDemo.plays).toBe(1);
    },
  );
});

describe.each(kinds)('npm run ops -- demo purge on $name', (kind) => {
  it.skipIf(!kind.available)('counts with --dry-run, then removes; the ledger audit passes after', async () => {
    const opened = await kind.open(library);
    try {
      const { store } = opened;
      await addTestBlocks(store, ['demo']);
      const long = new Date(Date.now() - 60 * DAY);
      const idle = await store.createDemoPlayer(10_000, long);
      for (let i = 0; i < 2; i++) {
        const result = await store.buyPlay({
          playerId: idle.id,
          playId: randomUUID(),
          stakeCents: 200,
          pool: 'demo',
          salesOpen: true,
          now: long,
        });
        expect(result.ok).toBe(true);
      }
      const active = await store.createDemoPlayer(10_000, new Date());

      const dry = runOps(opened.env, 'demo', 'purge', '--dry-run');
      expect(dry.stderr).toBe('');
      expect(dry.stdout).toContain('would remove 1 demo players unused for 30 days, with 2 demo plays');
      const tighter = runOps(opened.env, 'demo', 'purge', '--days', '90', '--dry-run');
      expect(tighter.stdout).toContain('would remove 0 demo players unused for 90 days');
      const purged = runOps(opened.env, 'demo', 'purge');
      expect(purged.status).toBe(0);
      expect(purged.stdout).toContain('removed 1 demo players unused for 30 days, with 2 demo plays');
      const audit = runOps(opened.env, 'audit-ledger');
      expect(audit.stdout).toContain('purged demo plays (idle demo players removed; units still sold): 2');
      expect(audit.stdout).toContain('ledger OK');
      expect(audit.status).toBe(0);
      expect(await store.getPlayer(idle.id)).toBeNull();
      expect(await store.getPlayer(active.id)).not.toBeNull();
    } finally {
      await opened.destroy();
    }
  });
});

describe('npm run ops -- demo purge', () => {
  it('refuses a number of days that is not one', () => {
    const bad = runOps({ DATA_DIR: '/nonexistent-spincake' }, 'demo', 'purge', '--days', '0');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--days needs a number of days');
  });
});
