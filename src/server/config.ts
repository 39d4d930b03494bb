import path from 'node:path';
import { isCents, type Cents } from '../rules/index.ts';
import { integerSetting, readSetting as read, type Env } from '../common/envSettings.ts';

/** Everything the server reads from its environment, validated once at start. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Where the built client lives (served at /). */
  clientDir: string;
  sales: { opensAt: Date | null; closesAt: Date | null; closedMessage: string };
  /** Shared with the portal to sign launch tokens; null disables portal sessions. */
  portalSecret: string | null;
  /** Origins allowed to frame the game (CSP frame-ancestors) and to talk to it. */
  portalOrigins: string[];
  demoMode: boolean;
  demoBalanceCents: Cents;
  /** With demo play on: below this many demo units left in a stake, the server makes a fresh demo block (0: never). */
  demoRefillUnits: number;
  /** Enables the /api/test/* routes. Never in production. */
  testMode: boolean;
  /** Requests per minute and per session (or per address without a session). */
  rateLimitPerMinute: number;
  /** Lifetime of a session token. */
  sessionTtlSeconds: number;
  /** postgres://… to keep the data in PostgreSQL (several instances may share it); unset: SQLite in dataDir. */
  databaseUrl?: string | null;
  /** The server log's threshold (pino's levels); requests are never logged one by one. */
  logLevel: LogLevel;
  /** The operator's wallet for portal players' money; null: portal players play on the game's own ledger. */
  wallet: WalletSettings | null;
  /** Prometheus metrics on a port of their own (never the players'); null: no metrics. */
  metrics: { port: number; host: string } | null;
  /** How often each instance reads the operator's sales setting (`npm run ops -- sales`). */
  salesPollMs: number;
  /** Connection caps, the time to receive a request, the drain time of a shutdown. */
  limits: ConnectionSettings;
  /** Redis shared by every instance for the rate limit; null: each instance counts in memory. */
  redis: RedisSettings | null;
}

export interface ConnectionSettings {
  /** The most time to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** Open connections from one address; 0: no cap (behind a proxy, where every connection is the proxy's). */
  maxConnectionsPerAddress: number;
  /** Open connections in all. */
  maxConnections: number;
  /** On SIGTERM, how long requests in flight may take before their connections are cut. */
  shutdownDrainSeconds: number;
}

export interface RedisSettings {
  url: string;
  /** Prefix of every key this game writes (several games, or test runs, may share one Redis). */
  keyPrefix: string;
  /** How long a request waits for Redis before it is counted in memory instead. */
  timeoutMs: number;
}

export interface WalletSettings {
  url: string;
  /** Signs every call and checks every answer (shared with the operator). */
  secret: string;
  /** The most one call may take (the spec's WALLET_TIMEOUT_MS). */
  timeoutMs: number;
  /** First retry delay of an unanswered win or rollback; doubled per attempt up to `retryCapMs`. */
  retryBaseMs: number;
  retryCapMs: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

const DEFAULT_CLOSED_MESSAGE = 'Les ventes de SPINCAKE sont fermées pour le moment.';

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  return integerSetting(env, name, { fallback, min, max }, (message) => new ConfigError(message));
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(lower)) return true;
  if (['0', 'false', 'off', 'no'].includes(lower)) return false;
  throw new ConfigError(`${name} must be 1/0, true/false, on/off or yes/no, got "${raw}"`);
}

function date(env: Env, name: string): Date | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  // An ISO 8601 date or date-time; a bare date means midnight UTC.
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)) {
    throw new ConfigError(`${name} must be an ISO 8601 date such as 2026-12-14T09:00:00Z, got "${raw}"`);
  }
  const value = new Date(raw);
  // Date() rolls 30 February over to 1 March: check the calendar day itself.
  const [y, m, d] = raw.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (Number.isNaN(value.getTime()) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
    throw new ConfigError(`${name} is not a real date: "${raw}"`);
  }
  return value;
}

function origins(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      let url: URL;
      try {
        url = new URL(s);
      } catch {
        throw new ConfigError(`${name}: "${s}" is not an origin such as https://portal.example`);
      }
      if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== s.replace(/\/$/, '')) {
        throw new ConfigError(`${name}: "${s}" must be a bare origin such as https://portal.example`);
      }
      return url.origin;
    });
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = values.find((v) => v === raw.toLowerCase());
  if (value === undefined) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return value;
}

function databaseUrl(env: Env, name: string): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL such as postgres://user@host:5432/spincake`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must start with postgres:// or postgresql://, got "${url.protocol}//…"`);
  }
  if (url.pathname.length <= 1) throw new ConfigError(`${name} must name a database, as in postgres://host/spincake`);
  return raw;
}

/** The wallet's secret, like the portal's, is a shared key: long enough not to be guessed. */
const MIN_WALLET_SECRET_LENGTH = 32;

function wallet(env: Env): WalletSettings | null {
  const url = read(env, 'WALLET_URL');
  const secret = read(env, 'WALLET_SECRET');
  if (url === undefined && secret === undefined) return null;
  if (url === undefined) throw new ConfigError('WALLET_SECRET is set but WALLET_URL is not: set both, or neither');
  if (secret === undefined) throw new ConfigError('WALLET_URL is set but WALLET_SECRET is not: set both, or neither');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`WALLET_URL must be a URL such as https://wallet.operator.example, got "${url}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError(`WALLET_URL must start with https:// or http://, got "${parsed.protocol}//…"`);
  }
  if (secret.length < MIN_WALLET_SECRET_LENGTH) {
    throw new ConfigError(`WALLET_SECRET must be at least ${MIN_WALLET_SECRET_LENGTH} characters long`);
  }
  const retryBaseMs = integer(env, 'WALLET_RETRY_BASE_MS', 500, 10, 600_000);
  const retryCapMs = integer(env, 'WALLET_RETRY_CAP_MS', 60_000, 10, 3_600_000);
  if (retryCapMs < retryBaseMs) throw new ConfigError('WALLET_RETRY_CAP_MS must be at least WALLET_RETRY_BASE_MS');
  return {
    url: url.replace(/\/+$/, ''),
    secret,
    timeoutMs: integer(env, 'WALLET_TIMEOUT_MS', 2000, 10, 60_000),
    retryBaseMs,
    retryCapMs,
  };
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): ServerConfig {
  const opensAt = date(env, 'SALES_OPENS_AT');
  const closesAt = date(env, 'SALES_CLOSES_AT');
  if (opensAt && closesAt && closesAt <= opensAt) {
    throw new ConfigError('SALES_CLOSES_AT must come after SALES_OPENS_AT');
  }
  const portalSecret = read(env, 'PORTAL_SECRET') ?? null;
  if (portalSecret !== null && portalSecret.length < 32) {
    throw new ConfigError('PORTAL_SECRET must be at least 32 characters long');
  }
  const demoBalanceCents = integer(env, 'DEMO_BALANCE_CENTS', 10_000, 0, 100_000_000);
  if (!isCents(demoBalanceCents)) throw new ConfigError('DEMO_BALANCE_CENTS must be whole cents');
  const host = read(env, 'HOST') ?? '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) throw new ConfigError(`HOST is not a host name or address: "${host}"`);
  return {
    port: integer(env, 'PORT', 8080, 0, 65_535),
    host,
    dataDir: path.resolve(cwd, read(env, 'DATA_DIR') ?? './data'),
    clientDir: path.resolve(cwd, read(env, 'CLIENT_DIR') ?? './dist'),
    sales: { opensAt, closesAt, closedMessage: read(env, 'SALES_CLOSED_MESSAGE') ?? DEFAULT_CLOSED_MESSAGE },
    portalSecret,
    portalOrigins: origins(env, 'PORTAL_ORIGINS'),
    demoMode: flag(env, 'DEMO_MODE', true),
    demoBalanceCents,
    demoRefillUnits: integer(env, 'DEMO_REFILL_UNITS', 200_000, 0, 1_000_000),
    testMode: flag(env, 'SPINCAKE_TEST_MODE', false),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    sessionTtlSeconds: integer(env, 'SESSION_TTL_SECONDS', 24 * 3600, 60, 365 * 24 * 3600),
    databaseUrl: databaseUrl(env, 'DATABASE_URL'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'warn'),
    wallet: wallet(env),
    metrics: metrics(env),
    salesPollMs: integer(env, 'SALES_POLL_MS', 2000, 50, 600_000),
    limits: connectionLimits(env),
    redis: redis(env),
  };
}

function metrics(env: Env): ServerConfig['metrics'] {
  if (read(env, 'METRICS_PORT') === undefined) return null;
  const port = integer(env, 'METRICS_PORT', 9464, 0, 65_535);
  // Loopback by default: a scraper on the same host, or a private interface named on purpose.
  const host = read(env, 'METRICS_HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host))
    throw new ConfigError(`METRICS_HOST is not a host name or address: "${host}"`);
  return { port, host };
}

function connectionLimits(env: Env): ConnectionSettings {
  return {
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 100, 600_000),
    maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 4096, 1, 1_000_000),
    shutdownDrainSeconds: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 10, 1, 3600),
  };
}

function redis(env: Env): RedisSettings | null {
  const raw = read(env, 'REDIS_URL');
  const keyPrefix = read(env, 'REDIS_KEY_PREFIX') ?? 'spincake:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(keyPrefix)) {
    throw new ConfigError(`REDIS_KEY_PREFIX must be 1–64 letters, digits or : _ . -, got "${keyPrefix}"`);
  }
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL must be a URL such as redis://127.0.0.1:6379');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${url.protocol}//…"`);
  }
  return { url: raw, keyPrefix, timeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 500, 10, 60_000) };
}
