import { LRUCache } from 'lru-cache';
import type { ResultCache } from '../ports.ts';

export interface MemoryResultCacheOptions {
  /** Time to live in milliseconds; 0 disables the cache. */
  ttlMs: number;
  /** Most entries kept (least recently used go first). */
  max: number;
  /** Clock for tests; defaults to performance.now. */
  now?: () => number;
  /** Most characters kept over all entries (default 32 M, about 64 MB). */
  maxChars?: number;
}

/** Default bound on cached text: advanced answers carry whole pages (up to 200k characters each). */
export const CACHE_MAX_CHARS = 32_000_000;

/** Characters an entry is charged: its value and a fixed share for the entry itself. */
const entryChars = (value: string): number => 64 + value.length;

/** The in-process cache (also the front of the shared one, redis-result-cache.ts). */
export interface MemoryResultCache extends ResultCache {
  /** `ttlMs`: this entry's own time to live (at most the cache's), e.g. what is left of it in Redis. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  readonly size: number;
}

const NOTHING = Promise.resolve(undefined);

/** Caching off: every read is a miss. */
export const DISABLED_RESULT_CACHE: MemoryResultCache = {
  enabled: false,
  get: () => NOTHING,
  set: () => NOTHING,
  size: 0,
};

/**
 * A short-lived LRU in this process. Values are strings, so what is handed out can never
 * change what is kept. A search repeated by an agent costs the operator no second upstream call.
 */
export function createMemoryResultCache(opts: MemoryResultCacheOptions): MemoryResultCache {
  if (opts.ttlMs <= 0 || opts.max <= 0) return DISABLED_RESULT_CACHE;
  const maxChars = opts.maxChars ?? CACHE_MAX_CHARS;
  // Bounded by entries and by size: an entry count alone let 1000 advanced answers of whole
  // pages hold gigabytes. A value larger than the whole budget is simply not kept.
  const lru = new LRUCache<string, string>({
    max: opts.max,
    maxSize: maxChars,
    sizeCalculation: entryChars,
    ttl: opts.ttlMs,
    ...(opts.now ? { perf: { now: opts.now }, ttlResolution: 0 } : {}),
  });
  return {
    enabled: true,
    get: async (key) => lru.get(key),
    set: async (key, value, ttlMs) => {
      // Returns before lru-cache sees it: given an oversized value, lru-cache would also drop
      // the entry already under the key.
      if (entryChars(value) > maxChars || (ttlMs !== undefined && ttlMs <= 0)) return;
      lru.set(key, value, ttlMs === undefined ? undefined : { ttl: Math.min(ttlMs, opts.ttlMs) });
    },
    get size() {
      return lru.size;
    },
  };
}
