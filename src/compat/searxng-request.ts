import { DomainError } from '../domain/errors.ts';
import { SEARCH_LIMITS, type SearchRequest } from '../schemas/search.ts';

/** Parameters as they arrive, from a query string or a form body. */
export type SearxngParamValues = Record<string, string | string[] | undefined>;

/** What a SearXNG page asks of Scout. */
export interface SearxngPlan {
  query: string;
  /** 1-based page of PAGE_SIZE results. */
  page: number;
  /** The search that holds the page, or undefined when the page lies past what Scout serves. */
  request: SearchRequest | undefined;
  /** Organic results of the search that belong to earlier pages. */
  skip: number;
}

/** SearXNG's page size. */
export const PAGE_SIZE = 10;
/** Pages Scout can fill: /v1 caps max_results at 20, so pages 1 and 2. */
export const PAGES_SERVED = Math.floor(SEARCH_LIMITS.maxResults.max / PAGE_SIZE);

/** The parameters read; every other one is ignored (docs/compat.md lists them). */
export const SEARXNG_READ = new Set(['q', 'format', 'pageno', 'time_range']);

const TIME_RANGES = new Set(['day', 'week', 'month', 'year']);

/** SearXNG reads the first of a repeated parameter (Flask's form.get). */
const first = (p: SearxngParamValues, name: string): string | undefined => {
  const v = p[name];
  return Array.isArray(v) ? v[0] : v;
};

function pageOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  // SearXNG refuses a page that is not a positive integer (400) rather than guess one.
  if (!/^[0-9]{1,9}$/.test(raw.trim()) || Number(raw) < 1)
    throw new DomainError('invalid', 'pageno must be a whole number from 1');
  return Number(raw);
}

/**
 * SearXNG search parameters → the Scout search that answers them. Lenient where SearXNG's
 * clients differ (unknown parameters, repeated ones, any Accept header), strict where a
 * wrong answer would look right: a filter Scout cannot honour is refused, never dropped.
 */
export function searxngPlan(p: SearxngParamValues): SearxngPlan {
  const format = first(p, 'format')?.trim().toLowerCase() ?? 'json';
  if (format !== 'json' && format !== '') {
    throw new DomainError(
      'invalid',
      `format ${format.slice(0, 20)} is not served: Scout answers SearXNG's JSON only; send format=json`,
    );
  }
  const query = first(p, 'q');
  if (query === undefined || query.trim() === '') {
    throw new DomainError('invalid', `q is required: the search query, 1 to ${SEARCH_LIMITS.queryMax} characters`);
  }
  if (query.length > SEARCH_LIMITS.queryMax)
    throw new DomainError('invalid', `q must be 1 to ${SEARCH_LIMITS.queryMax} characters`);
  const range = first(p, 'time_range')?.trim().toLowerCase() ?? '';
  if (range !== '' && !TIME_RANGES.has(range)) {
    throw new DomainError('invalid', 'time_range must be day, week, month or year, or empty for none');
  }
  const page = pageOf(first(p, 'pageno'));
  const skip = (page - 1) * PAGE_SIZE;
  if (page > PAGES_SERVED) return { query, page, request: undefined, skip };
  const request: SearchRequest = { query, max_results: page * PAGE_SIZE };
  if (range !== '') request.freshness = range as NonNullable<SearchRequest['freshness']>;
  return { query, page, request, skip };
}
