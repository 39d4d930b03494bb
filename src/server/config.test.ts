import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { MIN_SECRET_LENGTH } from '../walletApi/keyring.ts';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('asks PORTAL_SECRET and each wallet key for the one minimum length of a shared secret', () => {
    const atLeast = 'k'.repeat(MIN_SECRET_LENGTH);
    const short = atLeast.slice(1);
    const wallet = (secret: string) => ({ WALLET_URL: 'https://wallet.example', WALLET_SECRET: secret });
    expect(loadConfig({ PORTAL_SECRET: atLeast }).portalSecret).toBe(atLeast);
    expect(loadConfig(wallet(atLeast)).wallet?.keyring.signer.secret).toBe(atLeast);
    const message = `must be at least ${MIN_SECRET_LENGTH} characters long, got ${MIN_SECRET_LENGTH - 1}`;
    expect(() => loadConfig({ PORTAL_SECRET: short })).toThrow(`PORTAL_SECRET ${message}`);
    expect(() => loadConfig(wallet(short))).toThrow(`WALLET_SECRET ${message}`);
  });

  it('checks every URL setting alike, and never repeats one in its message', () => {
    for (const [name, env] of [
      ['WALLET_URL', { WALLET_URL: 'https://u:hunter2@[wallet', WALLET_SECRET: 'k'.repeat(MIN_SECRET_LENGTH) }],
      ['DATABASE_URL', { DATABASE_URL: 'postgres://u:hunter2@[db/spincake' }],
      ['REDIS_URL', { REDIS_URL: 'redis://:hunter2@[redis' }],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(new RegExp(`^${name} must be a URL such as \\w+://`));
      expect(() => loadConfig(env)).not.toThrow(/hunter2/);
    }
    expect(() => loadConfig({ WALLET_URL: 'ftp://wallet', WALLET_SECRET: 'k'.repeat(MIN_SECRET_LENGTH) })).toThrow(
      'WALLET_URL must start with https:// or http://, got "ftp://…"',
    );
  });

  it('has working defaults', () => {
    const c = loadConfig({}, '/srv/game');
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('/srv/game/data'));
    expect(c.clientDir).toBe(path.resolve('/srv/game/dist'));
    expect(c.sales).toEqual({ opensAt: null, closesAt: null, closedMessage: expect.any(String) });
    expect(c.demoMode).toBe(true);
    expect(c.demoBalanceCents).toBe(10_000);
    expect(c.testMode).toBe(false);
    expect(c.portalSecret).toBeNull();
    expect(c.portalOrigins).toEqual([]);
    expect(c.logLevel).toBe('warn');
  });

  it('serves metrics only with METRICS_PORT, on loopback unless told; polls the sales setting every 2 s', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({}).salesPollMs).toBe(2000);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ port: 0, host: '10.0.0.5' });
    expect(loadConfig({ SALES_POLL_MS: '250' }).salesPollMs).toBe(250);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be between 0 and 65535/);
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: 'a b' })).toThrow(/METRICS_HOST/);
    expect(() => loadConfig({ SALES_POLL_MS: '10' })).toThrow(/SALES_POLL_MS must be between 50/);
  });

  it('reads LOG_LEVEL, any case', () => {
    expect(loadConfig({ LOG_LEVEL: 'info' }).logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: 'SILENT' }).logLevel).toBe('silent');
  });

  it('reads every setting', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/spincake',
      SALES_OPENS_AT: '2015-12-14T09:00:00Z',
      SALES_CLOSES_AT: '2016-02-29',
      SALES_CLOSED_MESSAGE: 'Fermé',
      PORTAL_SECRET: 's'.repeat(32),
      PORTAL_ORIGINS: 'https://www.fdj.fr, https://portal.example:8443',
      DEMO_MODE: 'off',
      DEMO_BALANCE_CENTS: '2500',
      SPINCAKE_TEST_MODE: '1',
    });
    expect(c.port).toBe(9000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toBe('/var/spincake');
    expect(c.sales.opensAt?.toISOString()).toBe('2015-12-14T09:00:00.000Z');
    expect(c.sales.closesAt?.toISOString()).toBe('2016-02-29T00:00:00.000Z');
    expect(c.sales.closedMessage).toBe('Fermé');
    expect(c.portalOrigins).toEqual(['https://www.fdj.fr', 'https://portal.example:8443']);
    expect(c.demoMode).toBe(false);
    expect(c.demoBalanceCents).toBe(2500);
    expect(c.testMode).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DEMO_BALANCE_CENTS: '10.5' }, /DEMO_BALANCE_CENTS must be a whole number/],
    [{ DEMO_BALANCE_CENTS: '-1' }, /DEMO_BALANCE_CENTS must be a whole number/],
    [{ SALES_OPENS_AT: 'tomorrow' }, /SALES_OPENS_AT must be an ISO 8601 date/],
    [{ SALES_OPENS_AT: '2016-02-30T00:00:00Z' }, /not a real date|ISO/],
    [{ SALES_OPENS_AT: '2016-03-01', SALES_CLOSES_AT: '2016-02-01' }, /SALES_CLOSES_AT must come after/],
    [{ PORTAL_SECRET: 'short' }, /PORTAL_SECRET must be at least 32/],
    [
      { PORTAL_ORIGINS: 'portal.example' },
      /PORTAL_ORIGINS: "portal.example" must be a URL such as https:\/\/portal.example/,
    ],
    [{ PORTAL_ORIGINS: 'https://portal.example/game' }, /must be a bare origin/],
    [{ DEMO_MODE: 'maybe' }, /DEMO_MODE must be/],
    [{ SPINCAKE_TEST_MODE: '2' }, /SPINCAKE_TEST_MODE must be/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of fatal, error, warn/],
    [{ REQUEST_TIMEOUT_MS: '10s' }, /REQUEST_TIMEOUT_MS must be a whole number/],
    [{ REQUEST_TIMEOUT_MS: '50' }, /REQUEST_TIMEOUT_MS must be between 100/],
    [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS must be between 1/],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, /MAX_CONNECTIONS_PER_ADDRESS must be a whole number/],
    [{ SHUTDOWN_DRAIN_SECONDS: '0' }, /SHUTDOWN_DRAIN_SECONDS must be between 1/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must start with redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL must be a URL/],
    [{ REDIS_KEY_PREFIX: 'a b' }, /REDIS_KEY_PREFIX must be/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('has connection limits and no Redis by default; reads them', () => {
    expect(loadConfig({}).limits).toEqual({
      requestTimeoutMs: 10_000,
      maxConnectionsPerAddress: 256,
      maxConnections: 4096,
      shutdownDrainSeconds: 10,
    });
    expect(loadConfig({}).redis).toBeNull();
    const c = loadConfig({
      REQUEST_TIMEOUT_MS: '2500',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      MAX_CONNECTIONS: '100',
      SHUTDOWN_DRAIN_SECONDS: '30',
      REDIS_URL: 'redis://10.0.0.5:6379/2',
      REDIS_KEY_PREFIX: 'game-a:',
      REDIS_TIMEOUT_MS: '250',
    });
    expect(c.limits).toEqual({
      requestTimeoutMs: 2500,
      maxConnectionsPerAddress: 0,
      maxConnections: 100,
      shutdownDrainSeconds: 30,
    });
    expect(c.redis).toEqual({ url: 'redis://10.0.0.5:6379/2', keyPrefix: 'game-a:', timeoutMs: 250 });
    expect(loadConfig({ REDIS_URL: 'redis://h' }).redis?.timeoutMs).toBe(500);
  });

  it('stops the server with a one-line message on a bad value', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('spincake: configuration error: PORT must be a whole number, got "eighty"');
  });
});
