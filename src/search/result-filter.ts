import { displayDomain, domainAllowed } from '../domain/domains.ts';
import type { ProviderResult, SearchQuery } from './search-types.ts';

/**
 * Scout-side enforcement of a search's filters on a provider's results, so every answer obeys
 * the request whichever provider gave it (docs/api.md "Filters", docs/providers.md).
 *
 * - domains: always checked on the result's host (a domain matches itself and its
 *   subdomains; exclude wins), even when the provider filtered natively: providers differ
 *   on subdomains, and the check is cheap.
 * - dates: the inclusive start_date..end_date window (freshness is already resolved into
 *   start_date by the search request). A dated result outside it is dropped. An undated
 *   result is kept only when the provider applied the date filter itself; otherwise nothing
 *   shows it is in the window (the local index also excludes undated documents).
 * - country: a result whose country is known (the local index) must match. Web results
 *   carry no country, so for them the country is only what the provider was told.
 */

export type FilterName = 'domains' | 'dates' | 'country';

/** A result as the filters see it; `country` when the provider knows it. */
export type FilterableResult = ProviderResult & { country?: string };

export interface DateWindow {
  start?: string;
  end?: string;
}

export const dateWindow = (q: SearchQuery): DateWindow | undefined =>
  q.startDate || q.endDate
    ? { ...(q.startDate ? { start: q.startDate } : {}), ...(q.endDate ? { end: q.endDate } : {}) }
    : undefined;

const hasDomainFilter = (q: SearchQuery): boolean => q.includeDomains.length > 0 || q.excludeDomains.length > 0;

function inWindow(publishedDate: string | undefined, w: DateWindow, providerFiltered: boolean): boolean {
  if (!publishedDate) return providerFiltered;
  // Normalised dates are UTC ISO 8601, so the day is the first ten characters.
  const day = publishedDate.slice(0, 10);
  return (!w.start || day >= w.start) && (!w.end || day <= w.end);
}

/** Keeps the results that satisfy every filter of `query`; order is preserved. */
export function filterResults<T extends FilterableResult>(
  results: readonly T[],
  query: SearchQuery,
  honours: ReadonlySet<FilterName>,
): T[] {
  const domains = hasDomainFilter(query);
  const window = dateWindow(query);
  const country = query.country?.toUpperCase();
  const datesByProvider = honours.has('dates');
  return results.filter((r) => {
    if (domains && !domainAllowed(displayDomain(r.url), query.includeDomains, query.excludeDomains)) return false;
    if (window && !inWindow(r.publishedDate, window, datesByProvider)) return false;
    if (country && r.country && r.country.toUpperCase() !== country) return false;
    return true;
  });
}

/** True when Scout will drop some of this provider's results for `query`. */
export function scoutFilters(query: SearchQuery, honours: ReadonlySet<FilterName>): boolean {
  return (
    (hasDomainFilter(query) && !honours.has('domains')) || (dateWindow(query) !== undefined && !honours.has('dates'))
  );
}

/** Most results asked of one provider when over-fetching. */
export const OVERFETCH_CAP = 50;

/**
 * How many results to ask a provider for: `maxResults`, or three times that (at most 50)
 * when Scout has to filter what the provider could not, so `max_results` is still met.
 */
export function fetchCount(query: SearchQuery, honours: ReadonlySet<FilterName>): number {
  return scoutFilters(query, honours)
    ? Math.min(OVERFETCH_CAP, Math.max(query.maxResults * 3, query.maxResults))
    : query.maxResults;
}
