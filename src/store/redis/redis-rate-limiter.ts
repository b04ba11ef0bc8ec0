import type { Redis } from 'ioredis';
import { createMemoryRateLimiter } from '../memory/memory-rate-limiter.ts';
import type { RateLimitDecision, RateLimiter, RateLimitState } from '../ports.ts';
import type { RedisConnection } from './open-redis.ts';
import { createOutageLog, NO_REDIS_LOG, type RedisLogger } from './outage-log.ts';
import { CONSUME, PEEK } from './rate-limit-scripts.ts';
import { runScript, type LuaScript } from './redis-script.ts';

export interface RedisRateLimiterOptions {
  /** Requests a minute per key, bursts of up to as many. */
  perMinute: number;
  logger?: RedisLogger;
  /** Tests only: a clock in ms instead of the Redis server's (the fallback uses it too). */
  now?: () => number;
}

type Reply = [number, string, string, string];

/**
 * The GCRA limiter of memory-rate-limiter.ts kept in Redis, so every replica draws from one
 * bucket per key: one script call per consume or peek, atomic on the server, on its clock.
 *
 * Never throws because of Redis: while Redis is unreachable or failing (see
 * RedisConnection.run), each replica answers from its own memory limiter with the same limit
 * (logged once per outage), and goes back to Redis as soon as a call there succeeds again.
 * Fallback buckets start full and are forgotten, not merged, when Redis returns.
 */
export function createRedisRateLimiter(redis: RedisConnection, options: RedisRateLimiterOptions): RateLimiter {
  const { perMinute, now } = options;
  if (!Number.isInteger(perMinute) || perMinute <= 0)
    throw new Error(`the rate limit must be a whole number above 0 (got ${perMinute})`);
  const fallback = createMemoryRateLimiter(perMinute, now);
  const outage = createOutageLog(
    options.logger ?? NO_REDIS_LOG,
    'Redis unreachable: rate limits are per replica until it returns',
    'Redis reachable again: rate limits are shared across replicas',
  );
  const bucket = (key: string) => `${redis.prefix}rl:${key}`;

  async function call(script: LuaScript, key: string, cost: number): Promise<Reply> {
    const run = (c: Redis) =>
      runScript(c, script, [bucket(key)], [perMinute, cost, now ? now() : '']) as Promise<Reply>;
    return redis.run(run);
  }

  async function orFallback<T>(onRedis: () => Promise<T>, onMemory: () => Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await onRedis();
    } catch (e) {
      outage.down(e);
      return onMemory();
    }
    outage.up();
    return value;
  }

  return {
    consume: (key, cost) =>
      orFallback(
        async (): Promise<RateLimitDecision> => {
          const [allowed, remaining, resetMs, retryAfterMs] = await call(CONSUME, key, cost);
          return {
            allowed: allowed === 1,
            limit: perMinute,
            remaining: Number(remaining),
            resetMs: Number(resetMs),
            retryAfterMs: Number(retryAfterMs),
          };
        },
        () => fallback.consume(key, cost),
      ),

    peek: (key) =>
      orFallback(
        async (): Promise<RateLimitState> => {
          const [, remaining, resetMs, retryAfterMs] = await call(PEEK, key, 1);
          return {
            limit: perMinute,
            remaining: Number(remaining),
            resetMs: Number(resetMs),
            retryAfterMs: Number(retryAfterMs),
          };
        },
        () => fallback.peek(key),
      ),
  };
}
