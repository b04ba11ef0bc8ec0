import { createHash } from 'node:crypto';
import { createResultCache, DISABLED_RESULT_CACHE, searchCacheKey } from '../../providers/result-cache.ts';
import type { CachedAnswer, ResultCache } from '../ports.ts';
import type { SearchQuery } from '../../search/search-types.ts';
import type { RedisConnection } from './open-redis.ts';
import { createOutageLog, NO_REDIS_LOG, type RedisLogger } from './outage-log.ts';

export interface RedisResultCacheOptions {
  /** Time to live in milliseconds; 0 disables the cache. */
  ttlMs: number;
  /** Largest answer shared through Redis, as JSON bytes (default 2 MiB); larger ones stay in the front only. */
  maxValueBytes?: number;
  /**
   * The in-process front: answers this replica wrote or read, kept for what is left of their
   * Redis TTL, so a repeated search costs no round trip. `max` 0 turns it off (default 1000 entries).
   */
  front?: { max: number; maxChars?: number };
  logger?: RedisLogger;
}

export const REDIS_CACHE_MAX_VALUE_BYTES = 2 * 1024 * 1024;

/** Redis key of a search: one fixed-length digest of the revision and the search's cache key. */
export const resultCacheKey = (prefix: string, q: SearchQuery, revision: string): string =>
  `${prefix}rc:${createHash('sha256').update(revision).update('\n').update(searchCacheKey(q)).digest('base64url')}`;

const isAnswer = (v: unknown): v is CachedAnswer =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as CachedAnswer).results) &&
  Array.isArray((v as CachedAnswer).providers);

/**
 * The result cache shared by every replica: an answer stored by one is served by the others
 * without an upstream call. Values are JSON under a key made of the search and the providers'
 * revision, so (as in process) an answer is only found under the revision it was stored with.
 *
 * Fails open: a Redis error or outage is a miss, and a write that fails is dropped (logged once
 * per outage); searches go on against the providers, and the front keeps what this replica saw.
 */
export function createRedisResultCache(redis: RedisConnection, options: RedisResultCacheOptions): ResultCache {
  if (options.ttlMs <= 0) return DISABLED_RESULT_CACHE;
  const ttlMs = Math.ceil(options.ttlMs);
  const maxValueBytes = options.maxValueBytes ?? REDIS_CACHE_MAX_VALUE_BYTES;
  const frontMax = options.front?.max ?? 1000;
  const front = createResultCache({
    ttlMs,
    max: frontMax,
    ...(options.front?.maxChars ? { maxChars: options.front.maxChars } : {}),
  });
  const outage = createOutageLog(
    options.logger ?? NO_REDIS_LOG,
    'Redis unreachable: the result cache is per replica until it returns',
    'Redis reachable again: the result cache is shared across replicas',
  );

  /** The answer and what is left of its TTL, in one round trip. */
  async function read(key: string): Promise<{ json: string | null; pttl: number }> {
    const replies = await redis.run((c) => c.pipeline().get(key).pttl(key).exec());
    for (const [err] of replies ?? []) if (err) throw err;
    return { json: (replies?.[0]?.[1] as string | null) ?? null, pttl: Number(replies?.[1]?.[1] ?? -2) };
  }

  return {
    enabled: true,
    async get(q, revision = '') {
      const local = await front.get(q, revision);
      if (local) return local;
      let found: { json: string | null; pttl: number };
      try {
        found = await read(resultCacheKey(redis.prefix, q, revision));
      } catch (e) {
        outage.down(e);
        return undefined;
      }
      outage.up();
      if (found.json === null || found.pttl <= 0) return undefined;
      let answer: unknown;
      try {
        answer = JSON.parse(found.json);
      } catch {
        return undefined;
      }
      if (!isAnswer(answer)) return undefined;
      await front.set(q, answer, revision, found.pttl);
      return answer;
    },

    async set(q, answer, revision = '') {
      const value: CachedAnswer = { results: answer.results, providers: answer.providers };
      await front.set(q, value, revision);
      const json = JSON.stringify(value);
      // UTF-8 takes 1 to 3 bytes per UTF-16 unit: count bytes only when the length cannot decide.
      if (json.length > maxValueBytes || (json.length * 3 > maxValueBytes && Buffer.byteLength(json) > maxValueBytes))
        return;
      try {
        await redis.run((c) => c.set(resultCacheKey(redis.prefix, q, revision), json, 'PX', ttlMs));
      } catch (e) {
        outage.down(e);
        return;
      }
      outage.up();
    },
  };
}
