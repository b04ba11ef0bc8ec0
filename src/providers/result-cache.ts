import { LRUCache } from 'lru-cache';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import type { CachedAnswer, ResultCache } from '../store/ports.ts';

export interface ResultCacheOptions {
  /** Time to live in milliseconds; 0 disables the cache. */
  ttlMs: number;
  /** Most entries kept (least recently used go first). */
  max: number;
  /** Clock for tests; defaults to performance.now. */
  now?: () => number;
  /** Most characters of result text kept over all entries (default 32 M, about 64 MB). */
  maxChars?: number;
}

/** Default bound on cached text: advanced answers carry whole pages (up to 200k characters each). */
export const CACHE_MAX_CHARS = 32_000_000;

/** Characters an answer holds: what the cache's memory is spent on. */
const answerChars = (a: CachedAnswer): number => {
  let n = 64;
  for (const r of a.results) {
    n += r.title.length + r.url.length + r.content.length + (r.rawContent?.length ?? 0);
    for (const s of r.extraSnippets ?? []) n += s.length;
  }
  return n;
};

/** The in-process cache (also the front of the shared one). */
export interface MemoryResultCache extends ResultCache {
  /** `ttlMs`: this entry's own time to live (at most the cache's), e.g. what is left of it in Redis. */
  set(query: SearchQuery, answer: CachedAnswer, revision?: string, ttlMs?: number): Promise<void>;
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

/**
 * A copy no caller can change, down to the arrays: one entry is handed to every search that
 * hits it, and the answer given to set() stays the caller's.
 */
const frozenCopy = (a: CachedAnswer): CachedAnswer =>
  Object.freeze({
    results: Object.freeze(
      a.results.map(
        (r): ProviderResult =>
          Object.freeze(
            r.extraSnippets ? { ...r, extraSnippets: Object.freeze([...r.extraSnippets]) as string[] } : { ...r },
          ),
      ),
    ) as ProviderResult[],
    providers: Object.freeze([...a.providers]) as string[],
  });

const NOTHING = Promise.resolve(undefined);

/** Caching off: every search is a miss. */
export const DISABLED_RESULT_CACHE: MemoryResultCache = {
  enabled: false,
  get: () => NOTHING,
  set: () => NOTHING,
  size: 0,
};

/**
 * Short-lived LRU of final answers, so an agent that repeats a search does not cost the
 * operator a second upstream call. Entries are frozen: callers must copy before changing.
 */
export function createResultCache(opts: ResultCacheOptions): MemoryResultCache {
  if (opts.ttlMs <= 0 || opts.max <= 0) return DISABLED_RESULT_CACHE;
  const maxChars = opts.maxChars ?? CACHE_MAX_CHARS;
  // Bounded by entries and by size: an entry count alone let 1000 advanced answers of whole
  // pages hold gigabytes. An answer larger than the whole budget is simply not kept.
  const lru = new LRUCache<string, CachedAnswer>({
    max: opts.max,
    maxSize: maxChars,
    sizeCalculation: answerChars,
    ttl: opts.ttlMs,
    ...(opts.now ? { perf: { now: opts.now }, ttlResolution: 0 } : {}),
  });
  return {
    enabled: true,
    get: async (q, revision = '') => lru.get(revision + searchCacheKey(q)),
    set: async (q, answer, revision = '', ttlMs) => {
      if (answerChars(answer) > maxChars || (ttlMs !== undefined && ttlMs <= 0)) return;
      lru.set(
        revision + searchCacheKey(q),
        frozenCopy(answer),
        ttlMs === undefined ? undefined : { ttl: Math.min(ttlMs, opts.ttlMs) },
      );
    },
    get size() {
      return lru.size;
    },
  };
}
