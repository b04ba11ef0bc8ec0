import type { Result } from '../schemas/search.ts';
import type { FirecrawlDocument, FirecrawlSearchResponse, FirecrawlWebResult } from '../schemas/firecrawl.ts';
import type { SearchOutcome } from '../search/search-service.ts';
import type { FirecrawlSearchPlan } from './firecrawl-search.ts';
import { sponsoredText } from './sponsored-text.ts';

/** A result's page as read for scrapeOptions: its document, or why it could not be read. */
export type ScrapedPage = { doc: FirecrawlDocument } | { error: string };

/**
 * A Scout search → Firecrawl's search answer. Its clients treat every web result as
 * organic, so an ad says what it is in its title and description, comes first, and carries
 * `category: "sponsored"` and no position; organic results keep /v1's order, positions 1…n.
 * `pages[i]` is the i-th organic result's page when scrapeOptions asked for them.
 */
export function firecrawlSearchBody(
  plan: FirecrawlSearchPlan,
  outcome: Pick<SearchOutcome, 'body' | 'advertisers'>,
  pages: (ScrapedPage | undefined)[] = [],
): FirecrawlSearchResponse {
  const ads = outcome.body.results.filter((r) => r.type === 'sponsored');
  const organic = outcome.body.results.filter((r) => r.type === 'organic');
  const web: FirecrawlWebResult[] = [
    ...ads.map((r, i) => sponsoredEntry(r, outcome.advertisers[i] ?? r.domain)),
    ...organic.map((r, i): FirecrawlWebResult => {
      const entry: FirecrawlWebResult = { url: r.url, title: r.title, description: r.content, position: i + 1 };
      const page = pages[i];
      if (page === undefined) return entry;
      if ('error' in page) return { ...entry, metadata: { sourceURL: r.url, url: r.url, error: page.error } };
      return { ...entry, ...page.doc };
    }),
  ];
  const out: FirecrawlSearchResponse = { success: true, data: { web } };
  if (plan.warning !== undefined) out.warning = plan.warning;
  return out;
}

function sponsoredEntry(r: Result, advertiser: string): FirecrawlWebResult {
  const text = sponsoredText(r, advertiser);
  return { url: r.url, title: text.title, description: text.content, category: 'sponsored' };
}
