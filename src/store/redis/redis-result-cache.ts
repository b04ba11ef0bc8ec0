import { createHash } from 'node:crypto';
import { createMemoryResultCache, DISABLED_RESULT_CACHE } from '../memory/memory-result-cache.ts';
import type { ResultCache } from '../ports.ts';
import type { RedisConnection } from './open-redis.ts';
import { createOutageLog, NO_REDIS_LOG, type RedisLogger } from './outage-log.ts';

export interface RedisResultCacheOptions {
  /** Time to live in milliseconds; 0 disables the cache. */
  ttlMs: number;
  /** Largest value shared through Redis, in UTF-8 bytes (default 2 MiB); larger ones stay in the front only. */
  maxValueBytes?: number;
  /**
   * The in-process front: answers this replica wrote or read, kept for what is left of their
   * Redis TTL, so a repeated search costs no round trip. `max` 0 turns it off (default 1000 entries).
   */
  front?: { max: number; maxChars?: number };
  logger?: RedisLogger;
}

export const REDIS_CACHE_MAX_VALUE_BYTES = 2 * 1024 * 1024;

/** Redis key of a cache key: one fixed-length digest of it, whatever its length. */
export const resultCacheKey = (prefix: string, key: string): string =>
  `${prefix}rc:${createHash('sha256').update(key).digest('base64url')}`;

/**
 * The result cache shared by every replica: a value stored by one is served by the others
 * without an upstream call. Keys and values are the layer above's (src/providers/result-cache.ts:
 * a search with the providers' revision, and its answer as JSON), kept as given; that layer
 * reads a value it cannot parse as a miss, wherever it was kept.
 *
 * Fails open: a Redis error or outage is a miss, and a write that fails is dropped (logged once
 * per outage); searches go on against the providers, and the front keeps what this replica saw.
 */
export function createRedisResultCache(redis: RedisConnection, options: RedisResultCacheOptions): ResultCache {
  if (options.ttlMs <= 0) return DISABLED_RESULT_CACHE;
  const ttlMs = Math.ceil(options.ttlMs);
  const maxValueBytes = options.maxValueBytes ?? REDIS_CACHE_MAX_VALUE_BYTES;
  const frontMax = options.front?.max ?? 1000;
  const front = createMemoryResultCache({
    ttlMs,
    max: frontMax,
    ...(options.front?.maxChars ? { maxChars: options.front.maxChars } : {}),
  });
  const outage = createOutageLog(
    options.logger ?? NO_REDIS_LOG,
    'Redis unreachable: the result cache is per replica until it returns',
    'Redis reachable again: the result cache is shared across replicas',
  );

  /** The value and what is left of its TTL, in one round trip. */
  async function read(key: string): Promise<{ value: string | null; pttl: number }> {
    const replies = await redis.run((c) => c.pipeline().get(key).pttl(key).exec());
    for (const [err] of replies ?? []) if (err) throw err;
    return { value: (replies?.[0]?.[1] as string | null) ?? null, pttl: Number(replies?.[1]?.[1] ?? -2) };
  }

  return {
    enabled: true,
    async get(key) {
      const local = await front.get(key);
      if (local !== undefined) return local;
      let found: { value: string | null; pttl: number };
      try {
        found = await read(resultCacheKey(redis.prefix, key));
      } catch (e) {
        outage.down(e);
        return undefined;
      }
      outage.up();
      if (found.value === null || found.pttl <= 0) return undefined;
      await front.set(key, found.value, found.pttl);
      return found.value;
    },

    async set(key, value) {
      await front.set(key, value);
      // UTF-8 takes 1 to 3 bytes per UTF-16 unit: count bytes only when the length cannot decide.
      if (
        value.length > maxValueBytes ||
        (value.length * 3 > maxValueBytes && Buffer.byteLength(value) > maxValueBytes)
      )
        return;
      try {
        await redis.run((c) => c.set(resultCacheKey(redis.prefix, key), value, 'PX', ttlMs));
      } catch (e) {
        outage.down(e);
        return;
      }
      outage.up();
    },
  };
}
