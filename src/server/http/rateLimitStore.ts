import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { RedisSettings } from '../config.ts';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** What @fastify/rate-limit asks of a store. */
interface CountingStore {
  incr(key: string, callback: Callback, timeWindowMs: number, max: number): void;
}
type StoreClass<Rest extends unknown[]> = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  ...rest: Rest
) => CountingStore;

// The plugin's own two stores — its Lua script in Redis, its LRU in memory — composed below so
// that memory counts while Redis does not answer. They ship without types: declared above.
const requireCommonJs = createRequire(import.meta.url);
const RedisStore = requireCommonJs('@fastify/rate-limit/store/RedisStore.js') as StoreClass<[Redis, string]>;
const LocalStore = requireCommonJs('@fastify/rate-limit/store/LocalStore.js') as StoreClass<[]>;

/** How long a start waits at least for Redis before serving with the rate limit in memory. */
const REDIS_CONNECT_WAIT_MS = 2000;

export interface SharedCounterLog {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * The rate limit's counters in Redis, shared by every instance. When Redis cannot answer
 * (down, unreachable, slow), the request is counted in this instance's memory instead: the
 * game keeps selling, each instance still enforces the limit on its own (a player gets at
 * most the limit times the number of instances), and the shared count resumes as soon as
 * Redis answers again. The outage and the recovery are logged once each.
 */
export class SharedCounters {
  readonly redis: Redis;
  private readonly shared: CountingStore;
  private readonly memory = new LocalStore(false, false);
  private degraded = false;

  /** Connects (waiting a moment for Redis at start), and disconnects when the app closes. */
  static async open(app: FastifyInstance, settings: RedisSettings): Promise<SharedCounters> {
    const counters = new SharedCounters(settings, { warn: (m) => app.log.warn(m), info: (m) => app.log.info(m) });
    app.addHook('onClose', async () => counters.close());
    await counters.connected(Math.max(REDIS_CONNECT_WAIT_MS, settings.timeoutMs));
    return counters;
  }

  constructor(
    private readonly settings: RedisSettings,
    private readonly log: SharedCounterLog,
  ) {
    this.redis = new Redis(settings.url, {
      // Fail at once while disconnected (no queue), and never retry a count: memory takes over.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: settings.timeoutMs,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', (error: Error) => this.down(error));
    this.shared = new RedisStore(false, false, this.redis, `${settings.keyPrefix}rate:`);
  }

  /** Resolves once connected to Redis, refused, or after `timeoutMs` (counted in memory until Redis answers). */
  connected(timeoutMs: number): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const redis = this.redis;
      const timer = setTimeout(done, timeoutMs);
      // Refused outright: no point waiting; memory counts until a reconnection succeeds.
      redis.once('ready', done);
      redis.once('error', done);
      function done() {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      }
    });
  }

  incr(key: string, callback: Callback, timeWindowMs: number, max: number): void {
    this.shared.incr(
      key,
      (error, counted) => {
        if (error || !counted) {
          this.down(error ?? new Error('no count'));
          this.memory.incr(key, callback, timeWindowMs, max);
          return;
        }
        if (this.degraded) {
          this.degraded = false;
          this.log.info('rate limit: Redis answers again: counting shared by every instance');
        }
        callback(null, counted);
      },
      timeWindowMs,
      max,
    );
  }

  private down(error: Error): void {
    if (this.degraded) return;
    this.degraded = true;
    this.log.warn(
      `rate limit: Redis does not answer (${error.message}): counting in this instance's memory until it does`,
    );
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** The store @fastify/rate-limit constructs (one for the global limit; the app sets no per-route one). */
export function sharedRateLimitStore(counters: SharedCounters) {
  return class SharedRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      counters.incr(key, callback, timeWindow, max);
    }
    child(): SharedRateLimitStore {
      return this;
    }
  };
}
