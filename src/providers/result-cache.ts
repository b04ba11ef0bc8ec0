import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import { createMemoryResultCache, type MemoryResultCacheOptions } from '../store/memory/memory-result-cache.ts';
import type { ResultCache } from '../store/ports.ts';

/** What the backend answers, as cached. */
export interface CachedAnswer {
  results: ProviderResult[];
  providers: string[];
}

/**
 * Final answers kept for a while, over a ResultCache port (in process, or shared by replicas
 * through Redis). Never rejects: a cache that cannot answer is a miss.
 */
export interface AnswerCache {
  /** False when caching is off: the backend then does not even read the providers' revisions. */
  readonly enabled: boolean;
  /** `revision`: the providers' revisions (SearchProvider.revision); an answer is only found under the one it was stored with. */
  get(query: SearchQuery, revision?: string): Promise<CachedAnswer | undefined>;
  set(query: SearchQuery, answer: CachedAnswer, revision?: string): Promise<void>;
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
 * The port's key of a search's answer: the providers' revision, a newline, the search's key.
 * Redis keeps its digest (redis-result-cache.ts), the same bytes as before the port took keys,
 * so replicas of either side of an upgrade still share answers.
 */
export const answerKey = (q: SearchQuery, revision = ''): string => `${revision}\n${searchCacheKey(q)}`;

const isAnswer = (v: unknown): v is CachedAnswer =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as CachedAnswer).results) &&
  Array.isArray((v as CachedAnswer).providers);

/**
 * Search answers over a cache port that keeps text: an answer is stored as JSON of its results
 * and providers, and every hit is parsed afresh, so it is the caller's own to change. A value
 * that is not such JSON (written by something else, or cut) is a miss.
 */
export function answerCache(port: ResultCache): AnswerCache {
  // A cache that is off (SCOUT_SEARCH_CACHE_TTL=0) would still be handed a key and an answer
  // serialised for it to drop: 3% of a local search's time. Neither is made.
  if (!port.enabled) return { enabled: false, get: async () => undefined, set: async () => undefined };
  return {
    enabled: true,
    async get(q, revision) {
      const text = await port.get(answerKey(q, revision));
      if (text === undefined) return undefined;
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        return undefined;
      }
      return isAnswer(answer) ? answer : undefined;
    },
    async set(q, answer, revision) {
      await port.set(answerKey(q, revision), JSON.stringify({ results: answer.results, providers: answer.providers }));
    },
  };
}

/** The in-process cache of answers (the registry's own when it is given no shared one). */
export function createResultCache(opts: MemoryResultCacheOptions): AnswerCache & { readonly size: number } {
  const memory = createMemoryResultCache(opts);
  return {
    ...answerCache(memory),
    get size() {
      return memory.size;
    },
  };
}
