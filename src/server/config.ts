import { isIP } from 'node:net';
import path from 'node:path';
import { isCents, type Cents } from '../rules/index.ts';
import { integerSetting, parseUrlSetting, readSetting as read, urlSetting, type Env } from '../common/envSettings.ts';
import { keyringFromEnv, KeyringError, shortSecretProblem, type WalletKeyring } from '../walletApi/keyring.ts';
import { DEFAULT_CONNECTIONS } from '../walletApi/transport.ts';

export const PROFILES = ['demo', 'production'] as const;
/** `production` refuses an unsafe setup (profile.ts); `demo` (what `npm start` runs) warns. */
export type Profile = (typeof PROFILES)[number];

/** Everything the server reads from its environment, validated once at start. */
export interface ServerConfig {
  profile: Profile;
  port: number;
  host: string;
  /** Whether HOST was set (production binds only where it is told to). */
  hostExplicit: boolean;
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
  /** A demo player unused this many days is purged with its demo plays (demoPurge.ts); 0: never. */
  demoPlayerTtlDays: number;
  /** How often each instance runs that purge. */
  demoPurgeIntervalSeconds: number;
  /** Enables the /api/test/* routes. Never in production. */
  testMode: boolean;
  /** Requests per minute and per session (or per address without a session). */
  rateLimitPerMinute: number;
  /** Lifetime of a session token (absolute: use does not extend it). */
  sessionTtlSeconds: number;
  /** A session unused that long ends; 0: no idle limit. */
  sessionIdleSeconds: number;
  /** Where the session signing keys come from (sessions/sessionKeys.ts reads them at start). */
  sessionKeys: { inline: string | null; file: string | null };
  /** How often each instance reads the sessions ended elsewhere (logouts) and writes its sessions' last use. */
  sessionPollMs: number;
  /** The audience a launch token must name (GAME_ID). */
  gameId: string;
  /** The longest a launch token may be valid (exp − iat). */
  launchTokenMaxSeconds: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs); empty: the socket's address. */
  trustProxy: string[];
  /** Sessions opened per minute from one address, and in all (per instance). */
  sessionCreatePerMinute: number;
  sessionCreateTotalPerMinute: number;
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
  /** The transparency log's signing key and how often a head is signed (docs/fairness.md, "The log"). */
  transparency: TransparencySettings;
}

export interface TransparencySettings {
  /** TRANSPARENCY_KEY: an Ed25519 private key (PKCS#8 PEM, or its 32-byte seed in hex); null: from a file. */
  key: string | null;
  /** TRANSPARENCY_KEY_FILE: where the key is; null: DATA_DIR/transparency-key.pem, created on first start. */
  keyFile: string | null;
  /** LOG_HEAD_SECONDS: a new signed head at least this often (and after every entry). */
  headSeconds: number;
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
  /** Shared with the operator (WALLET_SECRETS or WALLET_SECRET): its first key signs every call, any checks an answer. */
  keyring: WalletKeyring;
  /** The most one call may take (the spec's WALLET_TIMEOUT_MS). */
  timeoutMs: number;
  /** The most connections open to the wallet at once (WALLET_CONNECTIONS). */
  connections: number;
  /** First retry delay of an unanswered win or rollback; doubled per attempt up to `retryCapMs`. */
  retryBaseMs: number;
  retryCapMs: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

const DEFAULT_CLOSED_MESSAGE = 'Les ventes de SPINCAKE sont fermées pour le moment.';

const refuse = (message: string) => new ConfigError(message);
/** The schemes of a web address: a portal's origin, the wallet. */
const WEB = ['https:', 'http:'] as const;

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

/** Host names that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A comma-separated setting's entries, trimmed, blanks dropped; none when unset. */
function entries(env: Env, name: string): string[] {
  return (read(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function origins(env: Env, name: string, profile: Profile): string[] {
  return entries(env, name).map((s) => {
    const url = parseUrlSetting(`${name}: "${s}"`, s, { protocols: WEB, example: 'https://portal.example' }, refuse);
    if (url.origin !== s.replace(/\/$/, '')) {
      throw new ConfigError(`${name}: "${s}" must be a bare origin such as https://portal.example`);
    }
    // A portal page served in clear can be rewritten on its way: only a developer's own machine
    // may, in the demo profile (the production profile refuses any http://: security/profile.ts).
    if (url.protocol === 'http:' && profile === 'demo' && !isLoopbackHost(url.hostname)) {
      throw new ConfigError(`${name}: "${s}" must be https:// (http:// only for localhost in the demo profile)`);
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
  const rule = { protocols: ['postgres:', 'postgresql:'], example: 'postgres://user@host:5432/spincake' };
  const url = urlSetting(env, name, rule, refuse);
  if (url === undefined) return null;
  if (url.pathname.length <= 1) throw new ConfigError(`${name} must name a database, as in postgres://host/spincake`);
  return read(env, name)!;
}

/** The wallet's secrets (WALLET_SECRETS, or WALLET_SECRET alone), each one checked by the contract's rules. */
function walletKeyring(env: Env): WalletKeyring | undefined {
  try {
    return keyringFromEnv(env);
  } catch (error) {
    if (error instanceof KeyringError) throw new ConfigError(error.message);
    throw error;
  }
}

function wallet(env: Env): WalletSettings | null {
  const url = read(env, 'WALLET_URL');
  const keyring = walletKeyring(env);
  if (url === undefined && keyring === undefined) return null;
  if (url === undefined)
    throw new ConfigError('WALLET_SECRETS or WALLET_SECRET is set but WALLET_URL is not: set both, or neither');
  if (keyring === undefined) {
    throw new ConfigError('WALLET_URL is set but neither WALLET_SECRETS nor WALLET_SECRET is: set both, or neither');
  }
  parseUrlSetting('WALLET_URL', url, { protocols: WEB, example: 'https://wallet.operator.example' }, refuse);
  const retryBaseMs = integer(env, 'WALLET_RETRY_BASE_MS', 500, 10, 600_000);
  const retryCapMs = integer(env, 'WALLET_RETRY_CAP_MS', 60_000, 10, 3_600_000);
  if (retryCapMs < retryBaseMs) throw new ConfigError('WALLET_RETRY_CAP_MS must be at least WALLET_RETRY_BASE_MS');
  return {
    url: url.replace(/\/+$/, ''),
    keyring,
    timeoutMs: integer(env, 'WALLET_TIMEOUT_MS', 2000, 10, 60_000),
    connections: integer(env, 'WALLET_CONNECTIONS', DEFAULT_CONNECTIONS, 1, 1024),
    retryBaseMs,
    retryCapMs,
  };
}

/** Addresses or CIDRs, as Fastify's trustProxy takes them. */
function proxies(env: Env): string[] {
  return entries(env, 'TRUST_PROXY').map((entry) => {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !validBits || extra !== undefined) {
      throw new ConfigError(`TRUST_PROXY: "${entry}" is not an address or CIDR such as 10.0.0.0/8 or 127.0.0.1`);
    }
    return entry;
  });
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): ServerConfig {
  const profile = oneOf(env, 'SPINCAKE_PROFILE', PROFILES, 'demo');
  const opensAt = date(env, 'SALES_OPENS_AT');
  const closesAt = date(env, 'SALES_CLOSES_AT');
  if (opensAt && closesAt && closesAt <= opensAt) {
    throw new ConfigError('SALES_CLOSES_AT must come after SALES_OPENS_AT');
  }
  const portalSecret = read(env, 'PORTAL_SECRET') ?? null;
  const shortPortalSecret = portalSecret === null ? null : shortSecretProblem('PORTAL_SECRET', portalSecret);
  if (shortPortalSecret !== null) throw new ConfigError(shortPortalSecret);
  const demoBalanceCents = integer(env, 'DEMO_BALANCE_CENTS', 10_000, 0, 100_000_000);
  if (!isCents(demoBalanceCents)) throw new ConfigError('DEMO_BALANCE_CENTS must be whole cents');
  const explicitHost = read(env, 'HOST');
  const host = explicitHost ?? '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) throw new ConfigError(`HOST is not a host name or address: "${host}"`);
  const gameId = read(env, 'GAME_ID') ?? 'spincake';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(gameId)) throw new ConfigError(`GAME_ID must be 1–64 of A–Z a–z 0–9 _ . -`);
  return {
    profile,
    port: integer(env, 'PORT', 8080, 0, 65_535),
    host,
    hostExplicit: explicitHost !== undefined,
    dataDir: path.resolve(cwd, read(env, 'DATA_DIR') ?? './data'),
    clientDir: path.resolve(cwd, read(env, 'CLIENT_DIR') ?? './dist'),
    sales: { opensAt, closesAt, closedMessage: read(env, 'SALES_CLOSED_MESSAGE') ?? DEFAULT_CLOSED_MESSAGE },
    portalSecret,
    portalOrigins: origins(env, 'PORTAL_ORIGINS', profile),
    demoMode: flag(env, 'DEMO_MODE', true),
    demoBalanceCents,
    demoRefillUnits: integer(env, 'DEMO_REFILL_UNITS', 200_000, 0, 1_000_000),
    demoPlayerTtlDays: integer(env, 'DEMO_PLAYER_TTL_DAYS', 30, 0, 3650),
    demoPurgeIntervalSeconds: integer(env, 'DEMO_PURGE_INTERVAL_SECONDS', 3600, 1, 7 * 86_400),
    testMode: flag(env, 'SPINCAKE_TEST_MODE', false),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    sessionTtlSeconds: integer(env, 'SESSION_TTL_SECONDS', 24 * 3600, 60, 365 * 24 * 3600),
    sessionIdleSeconds: integer(env, 'SESSION_IDLE_SECONDS', 30 * 60, 0, 365 * 24 * 3600),
    sessionKeys: { inline: read(env, 'SESSION_KEYS') ?? null, file: sessionKeysFile(env, cwd) },
    sessionPollMs: integer(env, 'SESSION_POLL_MS', 1000, 20, 60_000),
    gameId,
    launchTokenMaxSeconds: integer(env, 'LAUNCH_TOKEN_MAX_SECONDS', 300, 5, 3600),
    trustProxy: proxies(env),
    sessionCreatePerMinute: integer(env, 'SESSION_CREATE_PER_MINUTE', 30, 1, 100_000),
    sessionCreateTotalPerMinute: integer(env, 'SESSION_CREATE_TOTAL_PER_MINUTE', 1200, 1, 10_000_000),
    databaseUrl: databaseUrl(env, 'DATABASE_URL'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'warn'),
    wallet: wallet(env),
    metrics: metrics(env),
    salesPollMs: integer(env, 'SALES_POLL_MS', 2000, 50, 600_000),
    limits: connectionLimits(env),
    redis: redis(env),
    transparency: transparency(env, cwd),
  };
}

function transparency(env: Env, cwd: string): TransparencySettings {
  const key = read(env, 'TRANSPARENCY_KEY') ?? null;
  const keyFile = read(env, 'TRANSPARENCY_KEY_FILE');
  if (key !== null && keyFile !== undefined)
    throw new ConfigError('set TRANSPARENCY_KEY or TRANSPARENCY_KEY_FILE, not both');
  return {
    key,
    keyFile: keyFile === undefined ? null : path.resolve(cwd, keyFile),
    headSeconds: integer(env, 'LOG_HEAD_SECONDS', 60, 1, 86_400),
  };
}

function sessionKeysFile(env: Env, cwd: string): string | null {
  const raw = read(env, 'SESSION_KEYS_FILE');
  if (raw !== undefined && read(env, 'SESSION_KEYS') !== undefined) {
    throw new ConfigError('SESSION_KEYS and SESSION_KEYS_FILE are both set: set one');
  }
  return raw === undefined ? null : path.resolve(cwd, raw);
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
  parseUrlSetting('REDIS_URL', raw, { protocols: ['redis:', 'rediss:'], example: 'redis://127.0.0.1:6379' }, refuse);
  return { url: raw, keyPrefix, timeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 500, 10, 60_000) };
}
