import type { ProviderResult, SearchQuery } from '../domain/search-types.ts';
import { DomainError } from '../domain/errors.ts';
import type { SearchProvider } from './provider.ts';

/** What the search service asks of the upstream side: final, filtered, deduplicated results. */
export interface SearchBackend {
  search(query: SearchQuery, signal?: AbortSignal): Promise<{ results: ProviderResult[]; providers: string[] }>;
}

/**
 * Minimal failover over the configured providers, in order. The upstream-providers work
 * replaces this with timeouts, circuit breaking, fusion, normalisation and caching.
 */
export function createSearchBackend(providers: SearchProvider[]): SearchBackend {
  return {
    async search(query, signal) {
      const failures: string[] = [];
      for (const p of providers) {
        try {
          const results = await p.search(query, signal ?? new AbortController().signal);
          return { results: results.slice(0, query.maxResults), providers: [p.name] };
        } catch (e) {
          failures.push(`${p.name}: ${(e as Error).message}`);
        }
      }
      throw new DomainError('upstream', `every search provider failed: ${failures.join('; ')}`);
    },
  };
}
