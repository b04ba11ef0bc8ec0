import { normalizeFilters } from '../../index/search-filters.ts';
import { TITLE_WEIGHT } from '../../index/search-statements.ts';
import { SNIPPET_MAX_CHARS } from '../../index/snippet.ts';
import { freshnessStartDate } from '../../search/search-request.ts';
import { OVERFETCH_CAP } from '../../search/result-filter.ts';
import type { SearchQuery } from '../../search/search-types.ts';
import { clamp } from '../adapter-kit.ts';

/**
 * Scout's search → an OpenSearch `_search` body that means what a local index search means
 * (src/index/search-filters.ts, search-statements.ts), so results do not depend on where the
 * index lives:
 * - ranking: BM25 (the template's similarity, k1 1.2, b 0.75) over title and content, a title
 *   hit weighted TITLE_WEIGHT times a content hit, the terms OR-ed: `multi_match` of type
 *   most_fields sums the two fields' scores, as FTS5's weighted bm25() adds the columns;
 * - domains: the document's `domain_ancestors` (its host and every parent domain, written by
 *   bulk-document.ts) must hold an included domain and no excluded one, so a domain matches
 *   itself and its subdomains with exact terms, and exclusion wins;
 * - dates: the UTC day of `published_date` within start..end, inclusive; undated documents
 *   fail a date filter; freshness is turned into a start day as the local index does;
 * - country: documents of that country, and documents without one;
 * - snippet: the content highlighted around the terms, one fragment of the local snippet's
 *   length, without tags; the start of the content when no term is in it.
 * Filters go in `bool.filter` / `bool.must_not`: they decide, they never score.
 */

/** Fields searched, the title boosted like the local index's bm25 column weight. */
export const SEARCH_FIELDS: readonly string[] = [`title^${TITLE_WEIGHT}`, 'content'];

/** What a hit's `_source` carries back; the whole content only for the advanced depth. */
const BASIC_SOURCE = ['url', 'title', 'domain', 'published_date'];

export function openSearchBody(q: SearchQuery, now: Date): Record<string, unknown> {
  const startDate = q.startDate ?? (q.freshness !== undefined ? freshnessStartDate(q.freshness, now) : undefined);
  // The local index's own canonical form: domains normalised, deduplicated and sorted, country upper case.
  const f = normalizeFilters({
    query: q.query,
    limit: q.maxResults,
    includeDomains: q.includeDomains,
    excludeDomains: q.excludeDomains,
    ...(startDate !== undefined ? { startDate } : {}),
    ...(q.endDate !== undefined ? { endDate: q.endDate } : {}),
    ...(q.country !== undefined ? { country: q.country } : {}),
  });
  const filter: unknown[] = [];
  const mustNot: unknown[] = [];
  if (f.include.length > 0) filter.push({ terms: { domain_ancestors: f.include } });
  if (f.exclude.length > 0) mustNot.push({ terms: { domain_ancestors: f.exclude } });
  if (f.start !== undefined || f.end !== undefined) {
    // `||/d` rounds the end day up to its last millisecond, so a date-time on that day passes.
    const range: Record<string, string> = { format: 'strict_date' };
    if (f.start !== undefined) range.gte = f.start;
    if (f.end !== undefined) range.lte = `${f.end}||/d`;
    filter.push({ range: { published_date: range } });
  }
  if (f.country !== undefined) {
    filter.push({
      bool: {
        should: [{ term: { country: f.country } }, { bool: { must_not: [{ exists: { field: 'country' } }] } }],
        minimum_should_match: 1,
      },
    });
  }
  const bool: Record<string, unknown> = {
    must: [{ multi_match: { query: q.query, type: 'most_fields', fields: SEARCH_FIELDS, operator: 'or' } }],
  };
  if (filter.length > 0) bool.filter = filter;
  if (mustNot.length > 0) bool.must_not = mustNot;
  return {
    from: 0,
    // Within the spec's 1..20, or the registry's over-fetch ceiling (never needed here: every filter is applied).
    size: clamp(q.maxResults, 1, OVERFETCH_CAP),
    track_total_hits: false,
    _source: q.depth === 'advanced' ? [...BASIC_SOURCE, 'content'] : BASIC_SOURCE,
    query: { bool },
    highlight: {
      fields: {
        content: {
          type: 'unified',
          fragment_size: SNIPPET_MAX_CHARS,
          number_of_fragments: 1,
          // The opening of the content when no term is in it (a title-only match), as the local snippet does.
          no_match_size: SNIPPET_MAX_CHARS,
          // Plain text: agents read the snippet, nothing renders the emphasis.
          pre_tags: [''],
          post_tags: [''],
        },
      },
    },
  };
}
