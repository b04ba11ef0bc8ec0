import { LRUCache } from 'lru-cache';
import type { ProviderResult, SearchQuery } from '../domain/search-types.ts';

/** What the backend answers, as cached. */
export interface CachedAnswer {
  results: ProviderResult[];
  providers: string[];
}

export interface ResultCacheOptions {
  /** Time to live in milliseconds; 0 disables the cache. */
  ttlMs: number;
  /** Most entries kept (least recently used go first). */
  max: number;
  /** Clock for tests; defaults to performance.now. */
  now?: () => number;
}

export interface ResultCache {
  get(query: SearchQuery): CachedAnswer | undefined;
  set(query: SearchQuery, answer: CachedAnswer): void;
  readonly size: number;
}

/**
 * The key of a search: the query text with case and runs of spaces folded, and every other
 * field of the request (lists sorted). Two requests with the same key get the same answer.
 */
export function searchCacheKey(q: SearchQuery): string {
  return JSON.stringify([
    q.query.trim().replace(/\s+/g, ' ').toLowerCase(),
    q.maxResults,
    [...q.includeDomains].sort(),
    [...q.excludeDomains].sort(),
    q.freshness ?? '',
    q.startDate ?? '',
    q.endDate ?? '',
    q.depth,
    q.maxContentTokens ?? 0,
    q.country ?? '',
  ]);
}

const DISABLED: ResultCache = { get: () => undefined, set: () => undefined, size: 0 };

/**
 * Short-lived LRU of final answers, so an agent that repeats a search does not cost the
 * operator a second upstream call. Entries are frozen: callers must copy before changing.
 */
export function createResultCache(opts: ResultCacheOptions): ResultCache {
  if (opts.ttlMs <= 0 || opts.max <= 0) return DISABLED;
  const lru = new LRUCache<string, CachedAnswer>({
    max: opts.max,
    ttl: opts.ttlMs,
    ...(opts.now ? { perf: { now: opts.now }, ttlResolution: 0 } : {}),
  });
  return {
    get: (q) => lru.get(searchCacheKey(q)),
    set: (q, answer) => {
      lru.set(searchCacheKey(q), Object.freeze({ results: answer.results.map((r) => Object.freeze({ ...r })), providers: [...answer.providers] }));
    },
    get size() {
      return lru.size;
    },
  };
}
