import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { RedisSettings } from '../config.ts';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** A fixed window per key: the count, and when the window ends (ms since the epoch). */
class MemoryWindows {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private sweepAt = 0;

  incr(key: string, timeWindowMs: number, now = Date.now()): Counted {
    // Ended windows are dropped once a window: the map holds only the keys of the last one.
    if (now >= this.sweepAt) {
      for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
      this.sweepAt = now + timeWindowMs;
    }
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + timeWindowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { current: window.count, ttl: window.endsAt - now };
  }
}

/** INCR with the window's expiry set on the first request (and again if a key ever lost it). */
const INCR_IN_WINDOW = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

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
  private readonly memory = new MemoryWindows();
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

  incr(key: string, timeWindowMs: number, callback: Callback): void {
    this.redis.eval(INCR_IN_WINDOW, 1, `${this.settings.keyPrefix}rate:${key}`, String(timeWindowMs)).then(
      (result) => {
        const [current, ttl] = result as [number, number];
        if (this.degraded) {
          this.degraded = false;
          this.log.info('rate limit: Redis answers again: counting shared by every instance');
        }
        callback(null, { current, ttl });
      },
      (error: unknown) => {
        this.down(error instanceof Error ? error : new Error(String(error)));
        callback(null, this.memory.incr(key, timeWindowMs));
      },
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
    incr(key: string, callback: Callback, timeWindow: number): void {
      counters.incr(key, timeWindow, callback);
    }
    child(): SharedRateLimitStore {
      return this;
    }
  };
}
