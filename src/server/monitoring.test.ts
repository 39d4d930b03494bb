import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlayResponse, SessionResponse } from '../contract/api.ts';
import { loadConfig } from './config.ts';
import { writeLedgerAuditRecord } from './ops/ledgerAuditRecord.ts';
import { startServer, type RunningServer } from './server.ts';
import { PostgresStore } from './store/postgres/postgresStore.ts';
import { testLibrary } from './testing/blockCache.ts';
import { addTestBlocks, call, newPlayId } from './testing/harness.ts';
import { spawnWallet, type SpawnedWallet } from './testing/operatorWallet.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from './testing/postgres.ts';
import {
  freePort,
  metricNamesIn,
  prometheusBinary,
  startPrometheus,
  type ActiveAlert,
  type RunningPrometheus,
} from './testing/prometheus.ts';
import { signLaunchToken } from './tokens.ts';
import { testBook } from './testing/testBook.ts';

/**
 * A real Prometheus (Debian's) scraping two game instances on one PostgreSQL database and the
 * reference wallet, every second, with ops/prometheus/alerts.yml loaded: alerts fire from real
 * series (a block sold low; the wallet stopped, its outbox backing up) and clear when the
 * wallet is back; every query of ops/grafana/spincake.json names series the scrapes have.
 *
 * The rules are loaded as shipped but for their `for:` (shortened to 1 s, so the test takes
 * seconds, not the quarter-hours an on-call wants): promtool's tests (alerts.test.yml) hold
 * the durations; this one holds the expressions to the series the service really exports.
 */
const prometheus = prometheusBinary();
const postgres = await postgresReachable();
const ROOT = path.resolve(import.meta.dirname, '../..');
const PORTAL_SECRET = 'portal-secret-for-the-monitoring-test-0123';
/** 2 € units left in the only 2 € block: a small block, sold low. */
const LEFT_IN_BLOCK = 300;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (!prometheus) {
    console.warn(
      '!'.repeat(78) +
        '\n!!! monitoring test SKIPPED: no `prometheus` binary on PATH (apt-get install prometheus;' +
        ' .ci/run installs it)\n' +
        '!'.repeat(78),
    );
  }
});

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('monitoring with a real Prometheus', () => {
  it('finds every dashboard query’s series names in a PromQL expression', () => {
    expect(
      metricNamesIn(
        'sum by (stake_cents) (rate(spincake_prizes_cents_total{job="spincake"}[1h])) / on (x) group_left max(up) * 1e3 > bool $threshold',
      ).sort(),
    ).toEqual(['spincake_prizes_cents_total', 'up']);
  });

  it.skipIf(!prometheus || !postgres)(
    'fires supply and wallet alerts from real scrapes of two instances and the wallet, then clears them',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-monitoring-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const dataDir = path.join(dir, 'data');
      fs.mkdirSync(dataDir);

      // One database, its 2 € block nearly sold.
      const database: TestDatabase = await createTestDatabase();
      cleanups.push(() => database.drop());
      const library = await testLibrary();
      const prepared = await PostgresStore.connect(database.url, library);
      // Real blocks for the portal player's money: these servers sell no demo play.
      await addTestBlocks(prepared, ['real']);
      const twoEuro = (await prepared.listBlocks()).find((b) => b.stakeCents === 200 && b.pool === 'real')!;
      await testBook(prepared).forceBlockCursor(twoEuro.id, twoEuro.count - LEFT_IN_BLOCK);
      await prepared.close();

      // The wallet on a port of its own that a restart keeps (the game's WALLET_URL names it).
      const walletPort = await freePort();
      const walletDir = path.join(dir, 'wallet');
      fs.mkdirSync(walletDir);
      let wallet: SpawnedWallet = await spawnWallet({ WALLET_PORT: String(walletPort) }, walletDir);
      cleanups.push(() => wallet.stop());
      await wallet.admin.createAccount('watcher', { balanceCents: 1_000_000 });

      const servers: RunningServer[] = [];
      cleanups.push(async () => {
        for (const server of servers) await server.close();
      });
      for (let i = 0; i < 2; i++) {
        const config = loadConfig({
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          CLIENT_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          METRICS_PORT: '0',
          PORTAL_SECRET,
          DEMO_MODE: '0',
          ...wallet.gameEnv,
          WALLET_TIMEOUT_MS: '300',
          WALLET_RETRY_BASE_MS: '50',
          WALLET_RETRY_CAP_MS: '300',
          RATE_LIMIT_PER_MINUTE: '100000',
        });
        servers.push(await startServer(config, { library: await testLibrary(), log: () => {} }));
      }
      // An audit ran beside the data: its metrics are there for the dashboard.
      const now = new Date();
      writeLedgerAuditRecord(
        dataDir,
        'postgresql',
        { ok: true, problems: [], plays: 0, blocks: 5, players: 0 },
        now,
        now,
      );

      const hostOf = (url: string) => new URL(url).host;
      const rules = fs
        .readFileSync(path.join(ROOT, 'ops/prometheus/alerts.yml'), 'utf8')
        .replace(/^(\s+)for: .+$/gm, '$1for: 1s');
      fs.writeFileSync(path.join(dir, 'alerts.yml'), rules);
      const server: RunningPrometheus = await startPrometheus(
        prometheus!,
        dir,
        [
          'global: { scrape_interval: 1s, evaluation_interval: 1s, scrape_timeout: 900ms }',
          'rule_files: [alerts.yml]',
          'scrape_configs:',
          '  - job_name: spincake',
          `    static_configs: [{ targets: [${servers.map((s) => `'${hostOf(s.metricsUrl!)}'`).join(', ')}] }]`,
          '  - job_name: spincake-wallet',
          `    static_configs: [{ targets: ['127.0.0.1:${walletPort}'] }]`,
          '',
        ].join('\n'),
      );
      cleanups.push(() => server.stop());
      const value = async (query: string): Promise<number | null> => {
        const data = await server.api<{ result: { value: [number, string] }[] }>('query', { query });
        return data.result.length === 0 ? null : Number(data.result[0]!.value[1]);
      };
      const alerts = async () => (await server.api<{ alerts: ActiveAlert[] }>('alerts')).alerts;
      const firing = async (name: string, labels: Record<string, string> = {}) =>
        (await alerts()).find(
          (a) =>
            a.state === 'firing' &&
            a.labels.alertname === name &&
            Object.entries(labels).every(([k, v]) => a.labels[k] === v),
        );

      await until('both instances and the wallet up, both ready', async () => {
        return (await value('count(up == 1)')) === 3 && (await value('min(spincake_ready)')) === 1;
      });
      expect(await firing('SpincakeSupplyCritical')).toBeUndefined();

      // A portal player sells 2 € units on both instances: the small block runs low.
      const launchToken = signLaunchToken(
        { playerId: 'watcher', exp: Math.floor(Date.now() / 1000) + 300 },
        PORTAL_SECRET,
      );
      const session = await call<SessionResponse>(servers[0]!.url, 'POST', '/api/session', { body: { launchToken } });
      expect(session.status, JSON.stringify(session.body)).toBe(200);
      const play = (at: RunningServer, stakeCents: number) =>
        call<PlayResponse>(at.url, 'POST', '/api/plays', {
          token: session.body.token,
          body: { stakeCents, playId: newPlayId() },
        });
      for (let i = 0; i < 20; i++) expect((await play(servers[i % 2]!, 200)).status).toBe(200);

      const supply = await until('SpincakeSupplyCritical firing for 2 €', () =>
        firing('SpincakeSupplyCritical', { stake_cents: '200', pool: 'real' }),
      );
      expect(Number(supply.value)).toBeLessThan(6);
      expect(await firing('SpincakeSupplyCritical', { stake_cents: '100' })).toBeUndefined();
      await until('the units on sale scraped after the last play', async () => {
        return (await value('max(spincake_units_on_sale{stake_cents="200"})')) === LEFT_IN_BLOCK - 20;
      });

      // The wallet stops: bets go unanswered, their rollbacks back up in the outbox.
      await wallet.stop();
      const refused = await Promise.all([play(servers[0]!, 100), play(servers[1]!, 100), play(servers[0]!, 200)]);
      for (const reply of refused) expect(reply.status).toBe(503);
      await until('SpincakeReferenceWalletDown firing', () => firing('SpincakeReferenceWalletDown'));
      await until('three rollbacks owed', async () => (await value('max(spincake_wallet_outbox_pending)')) === 3);
      await until('SpincakeWalletOutboxBacklog firing', () => firing('SpincakeWalletOutboxBacklog'));

      // Back on the same port: the rollbacks go out, the alerts clear.
      wallet = await spawnWallet({ WALLET_PORT: String(walletPort) }, walletDir);
      await until('the outbox empty and its alert gone', async () => {
        const pending = await value('max(spincake_wallet_outbox_pending)');
        const active = (await alerts()).some((a) => a.labels.alertname === 'SpincakeWalletOutboxBacklog');
        return pending === 0 && !active;
      });
      await until('SpincakeReferenceWalletDown gone', async () =>
        (await alerts()).every((a) => a.labels.alertname !== 'SpincakeReferenceWalletDown'),
      );

      // No dead panel: every name a dashboard query reads is a series the scrapes have (the
      // refusals above included).
      const names = new Set(await server.api<string[]>('label/__name__/values'));
      const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'ops/grafana/spincake.json'), 'utf8')) as {
        panels: { title: string; targets?: { expr: string }[] }[];
      };
      const dead: string[] = [];
      let queries = 0;
      for (const panel of dashboard.panels) {
        for (const target of panel.targets ?? []) {
          queries++;
          const read = metricNamesIn(target.expr);
          expect(read.length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
          for (const name of read) if (!names.has(name)) dead.push(`${panel.title}: ${name}`);
        }
      }
      expect(queries).toBeGreaterThan(20);
      expect(dead).toEqual([]);
    },
    240_000,
  );
});
