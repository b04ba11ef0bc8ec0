import { normalizeDomainEntry } from '../domain/domains.ts';
import type { LocalSearch } from './local-index-types.ts';

/** The filters of a LocalSearch in canonical form. */
export interface Filters {
  include: string[];
  exclude: string[];
  start?: string;
  end?: string;
  country?: string;
}

/** Entries the caller did not normalise are normalised here; junk stays junk and matches nothing. */
const normalizeList = (xs: readonly string[]): string[] =>
  [...new Set(xs.map((x) => normalizeDomainEntry(x) ?? x.trim().toLowerCase()))].sort();

/** Canonical filters: also the cache key, so equal searches share an entry. */
export function normalizeFilters(q: LocalSearch): Filters {
  const f: Filters = { include: normalizeList(q.includeDomains), exclude: normalizeList(q.excludeDomains) };
  if (q.startDate !== undefined) f.start = q.startDate;
  if (q.endDate !== undefined) f.end = q.endDate;
  if (q.country !== undefined) f.country = q.country.toUpperCase();
  return f;
}
