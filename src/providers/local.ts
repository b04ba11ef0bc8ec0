import { normalizeDate } from '../domain/date-normalize.ts';
import { freshnessStartDate } from '../search/search-request.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import type { LocalHit, LocalIndexReader } from '../index/local-index.ts';
import { ProviderError, type SearchProvider } from './provider.ts';

export interface LocalProviderOptions {
  /** Clock for freshness windows; tests pin it. */
  now?: () => Date;
}

/** Same windows as the search request's normaliser (src/search/search-request.ts). */
export { freshnessStartDate };

function toResult(hit: LocalHit, withText: boolean, now: Date): ProviderResult {
  const r: ProviderResult = { title: hit.title, url: hit.url, content: hit.content, score: hit.score };
  // Same published_date form as every other provider: UTC YYYY-MM-DDTHH:MM:SSZ.
  const published = hit.publishedDate === undefined ? undefined : normalizeDate(hit.publishedDate, now);
  if (published !== undefined) r.publishedDate = published;
  if (withText && hit.text !== undefined) r.rawContent = hit.text;
  return r;
}

/**
 * The local index (embedded, or its documents in PostgreSQL ranked in memory) as a search
 * provider. It applies every filter itself, so the service never has to over-fetch:
 * domains (a domain matches its subdomains, exclude wins), dates on published_date
 * (undated documents fail a date filter), country (only documents that have one are
 * filtered). The advanced depth also returns the stored text as rawContent.
 */
export function createLocalProvider(index: LocalIndexReader, options: LocalProviderOptions = {}): SearchProvider {
  const now = options.now ?? (() => new Date());
  return {
    name: 'local',
    honours: new Set(['domains', 'dates', 'country'] as const),
    uniqueUrls: true,
    synchronous: true,
    revision: () => index.version(),
    async search(query: SearchQuery, signal: AbortSignal): Promise<ProviderResult[]> {
      if (signal.aborted) throw new ProviderError('local', 'timeout', 'the search was cancelled before it started');
      const startDate =
        query.startDate ?? (query.freshness !== undefined ? freshnessStartDate(query.freshness, now()) : undefined);
      const withText = query.depth === 'advanced';
      let hits: LocalHit[];
      try {
        hits = index.search({
          query: query.query,
          limit: query.maxResults,
          includeDomains: query.includeDomains,
          excludeDomains: query.excludeDomains,
          ...(startDate !== undefined ? { startDate } : {}),
          ...(query.endDate !== undefined ? { endDate: query.endDate } : {}),
          ...(query.country !== undefined ? { country: query.country } : {}),
          withText,
        });
      } catch (e) {
        // SQLite's own message may name files; the caller gets a plain one, the cause keeps it.
        throw new ProviderError('local', 'network', 'the local index could not be read', { cause: e });
      }
      const at = now();
      return hits.map((h) => toResult(h, withText, at));
    },
  };
}
