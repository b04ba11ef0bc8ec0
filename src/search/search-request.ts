import type { SearchRequest } from '../schemas/search.ts';
import { SEARCH_LIMITS } from '../schemas/search.ts';
import { normalizeDomainEntry } from '../domain/domains.ts';
import { DomainError } from '../domain/errors.ts';
import { isCalendarDate, isoDay } from '../domain/calendar-date.ts';
import { COUNTRY_CODES, COUNTRY_HINTS } from '../domain/countries.ts';
import type { Freshness, SearchQuery } from './search-types.ts';

const FRESHNESS_DAYS: Record<Freshness, number> = { day: 1, week: 7, month: 31, year: 366 };

/** First day (UTC, YYYY-MM-DD) a freshness window admits (docs/api.md "Dates"). */
export const freshnessStartDate = (freshness: Freshness, now: Date): string =>
  isoDay(new Date(now.getTime() - FRESHNESS_DAYS[freshness] * 86_400_000));

function domainList(field: string, value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length > SEARCH_LIMITS.domainEntries) {
    throw new DomainError(
      'invalid',
      `${field} must have at most ${SEARCH_LIMITS.domainEntries} entries, got ${entries.length}`,
    );
  }
  const out = new Set<string>();
  for (const entry of entries) {
    const d = normalizeDomainEntry(entry);
    if (d === undefined)
      throw new DomainError('invalid', `${field} entry "${entry.slice(0, 100)}" is not a domain such as example.com`);
    out.add(d);
  }
  return [...out];
}

function date(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value))
    throw new DomainError('invalid', `${field} must be a real calendar date YYYY-MM-DD, got "${value}"`);
  return value;
}

function country(value: string): string {
  const code = value.toUpperCase();
  if (COUNTRY_CODES.has(code)) return code;
  const hint = COUNTRY_HINTS[code];
  throw new DomainError('invalid', `country "${value}" is not an ISO 3166-1 alpha-2 code${hint ? ` (${hint})` : ''}`);
}

/**
 * Wire request (already schema-valid) → Scout's SearchQuery: defaults, domain entries
 * normalised, dates checked as real days, and the date window resolved (explicit
 * start_date/end_date win over freshness; docs/api.md "Dates").
 */
export function toSearchQuery(req: SearchRequest, now: Date): SearchQuery {
  const startDate = date('start_date', req.start_date);
  const endDate = date('end_date', req.end_date);
  if (startDate && endDate && startDate > endDate) {
    throw new DomainError('invalid', `start_date (${startDate}) must not be after end_date (${endDate})`);
  }
  const q: SearchQuery = {
    query: req.query,
    maxResults: req.max_results ?? SEARCH_LIMITS.maxResults.default,
    includeDomains: domainList('include_domains', req.include_domains),
    excludeDomains: domainList('exclude_domains', req.exclude_domains),
    depth: req.search_depth ?? 'basic',
  };
  if (startDate || endDate) {
    if (startDate) q.startDate = startDate;
    if (endDate) q.endDate = endDate;
  } else if (req.freshness) {
    q.freshness = req.freshness;
    q.startDate = freshnessStartDate(req.freshness, now);
  }
  if (req.max_content_tokens !== undefined) q.maxContentTokens = req.max_content_tokens;
  if (req.country !== undefined) q.country = country(req.country);
  return q;
}
