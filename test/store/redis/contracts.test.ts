import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { RedisConnection } from '../../../src/store/redis/open-redis.ts';
import { createRedisRateLimiter } from '../../../src/store/redis/redis-rate-limiter.ts';
import { createRedisResultCache } from '../../../src/store/redis/redis-result-cache.ts';
import { rateLimiterContract } from '../contract/rate-limiter.ts';
import { resultCacheContract } from '../contract/result-cache.ts';
import { recordingLogger, REDIS_URL, redisTestEnv } from './redis-test-env.ts';

/** The port contracts against a real Redis (one prefix for the file; the contracts use fresh keys). */
describe.skipIf(!REDIS_URL)('Redis backends', () => {
  const env = redisTestEnv();
  const { logger, lines } = recordingLogger();
  let redis: RedisConnection;
  /** A second connection: the other replica of the shared result cache. */
  let replica: RedisConnection;
  beforeAll(async () => {
    redis = await env.open({ logger });
    replica = await env.open({ logger });
  });
  afterAll(async () => {
    await env.closeAll();
    // The per-replica fallback passes the contract too: prove it was never used.
    expect(lines).toEqual([]);
  });

  // On the Redis server's clock, as in production.
  rateLimiterContract('redis', async (perMinute) => createRedisRateLimiter(redis, { perMinute, logger }));

  // On a clock the test moves (the option exists for this), so the refill cases run too.
  let now = 1_000_000;
  rateLimiterContract(
    'redis, test clock',
    async (perMinute) => createRedisRateLimiter(redis, { perMinute, logger, now: () => now }),
    {
      advance: (ms) => {
        now += ms;
      },
    },
  );

  // Two replicas, each its own connection and cache: what one sets, the other gets from Redis.
  // Without the in-process front every get is a round trip; with it, a replica's own writes
  // and reads are kept for what is left of their Redis TTL. On real time (the TTL is Redis's).
  resultCacheContract('redis, no front', async (ttlMs) => [
    createRedisResultCache(redis, { ttlMs, front: { max: 0 }, logger }),
    createRedisResultCache(replica, { ttlMs, front: { max: 0 }, logger }),
  ]);
  resultCacheContract('redis, with front', async (ttlMs) => [
    createRedisResultCache(redis, { ttlMs, logger }),
    createRedisResultCache(replica, { ttlMs, logger }),
  ]);
});
