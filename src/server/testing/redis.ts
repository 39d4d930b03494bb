import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis the tests share (`.ci/run` makes sure it is up); override with REDIS_TEST_URL. */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers PING at REDIS_TEST_URL. */
export async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** A key prefix no other test run uses. */
export function uniqueKeyPrefix(): string {
  return `spincake-test-${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under the prefix. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
