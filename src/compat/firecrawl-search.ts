import { DomainError } from '../domain/errors.ts';
import { SEARCH_LIMITS, type SearchRequest } from '../schemas/search.ts';
import { scrapePlan, type ScrapePlan } from './firecrawl-scrape.ts';
import { countryCode } from './tavily-country.ts';
import { jsonObject } from './json-body.ts';

/** What a Firecrawl search asks of Scout. */
export interface FirecrawlSearchPlan {
  request: SearchRequest;
  /** scrapeOptions asked for formats: each organic result's page is read. */
  scrape?: ScrapePlan;
  /** Milliseconds for the pages of scrapeOptions (the search's own `timeout`). */
  timeoutMs?: number;
  /** Said in the answer's `warning`: what was asked and not searched (news, images). */
  warning?: string;
}

/**
 * rawHtml kept per page of a search: its up to 20 pages are all held until the answer is
 * sent, so each is bounded well below the 20 MB a single scrape may hold.
 */
export const SEARCH_RAW_MAX_CHARS = 1_000_000;

/** Firecrawl's own default when limit is absent. */
export const FIRECRAWL_DEFAULT_LIMIT = 5;

const RANGES: Record<string, NonNullable<SearchRequest['freshness']>> = {
  d: 'day',
  w: 'week',
  m: 'month',
  y: 'year',
};

const invalid = (message: string) => new DomainError('invalid', message);
const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

function limit(v: unknown): number {
  if (absent(v)) return FIRECRAWL_DEFAULT_LIMIT;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid('limit must be a whole number from 1');
  // Firecrawl allows up to 100; Scout serves 20, so more asks for 20.
  return Math.min(SEARCH_LIMITS.maxResults.max, v);
}

/** `M/D/YYYY` (Google's cd_min/cd_max, as Firecrawl passes them on) → `YYYY-MM-DD`. */
function usDate(v: string, name: string): string {
  const m = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/.exec(v.trim());
  const iso = m ? `${m[3]}-${m[1]?.padStart(2, '0')}-${m[2]?.padStart(2, '0')}` : '';
  if (
    !m ||
    Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) ||
    new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso
  )
    throw invalid(`tbs ${name} must be a date M/D/YYYY`);
  return iso;
}

const TBS_HELP = 'tbs must be qdr:d, qdr:w, qdr:m, qdr:y, or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY';

/** Google's `tbs` as Firecrawl takes it → freshness or a date range; what Scout cannot honour is 400. */
function applyTbs(raw: string, request: SearchRequest): void {
  const parts = new Map<string, string>();
  for (const part of raw.split(',')) {
    const [key, ...rest] = part.trim().split(':');
    if (key === undefined || key === '') continue;
    parts.set(key.toLowerCase(), rest.join(':').trim());
  }
  for (const key of parts.keys()) {
    if (key === 'sbd') throw invalid('tbs sbd (sort by date) is not served: Scout ranks by relevance only');
    if (!['qdr', 'cdr', 'cd_min', 'cd_max'].includes(key)) throw invalid(TBS_HELP);
  }
  const qdr = parts.get('qdr');
  if (qdr !== undefined) {
    if (qdr === 'h' || /^h[0-9]+$/.test(qdr))
      throw invalid('tbs qdr:h (past hour) is not served: Scout filters by date, the past day at the finest');
    const range = RANGES[qdr];
    if (range === undefined) throw invalid(TBS_HELP);
    request.freshness = range;
  }
  if (parts.has('cdr') || parts.has('cd_min') || parts.has('cd_max')) {
    if (parts.get('cdr') !== '1') throw invalid(TBS_HELP);
    const min = parts.get('cd_min');
    const max = parts.get('cd_max');
    if (min === undefined && max === undefined) throw invalid(TBS_HELP);
    if (min !== undefined && min !== '') request.start_date = usDate(min, 'cd_min');
    if (max !== undefined && max !== '') request.end_date = usDate(max, 'cd_max');
  }
}

/** `location` ("Germany", "Berlin,Berlin,Germany") or `country` ("DE") → an ISO code. */
function geo(b: Record<string, unknown>): string | undefined {
  let fromLocation: string | undefined;
  if (!absent(b.location)) {
    if (typeof b.location !== 'string') throw invalid('location must be a string: a country, or "City,Region,Country"');
    const last = b.location.split(',').at(-1)?.trim() ?? '';
    fromLocation = countryCode(last);
    if (fromLocation === undefined)
      throw invalid('location must end in a country Scout knows: "Germany", or "Berlin,Berlin,Germany"');
  }
  let fromCountry: string | undefined;
  if (!absent(b.country)) {
    fromCountry =
      typeof b.country === 'string' && /^[A-Za-z]{2}$/.test(b.country.trim())
        ? b.country.trim().toUpperCase()
        : undefined;
    if (fromCountry === undefined) throw invalid('country must be a 2-letter ISO 3166-1 code ("DE")');
  }
  if (fromLocation !== undefined && fromCountry !== undefined && fromLocation !== fromCountry)
    throw invalid(`location and country name different countries (${fromLocation}, ${fromCountry}); send one`);
  return fromCountry ?? fromLocation;
}

/** `sources`: web is searched; news and images are not, and the answer's warning says so. */
function sources(v: unknown): string | undefined {
  if (absent(v)) return undefined;
  if (!Array.isArray(v)) throw invalid('sources must be a list: ["web"]');
  const names = v.map((s) =>
    typeof s === 'string' ? s : typeof s === 'object' && s !== null ? (s as { type?: unknown }).type : undefined,
  );
  if (!names.every((n): n is string => typeof n === 'string')) throw invalid('sources must be a list: ["web"]');
  if (!names.includes('web'))
    throw invalid(`sources must include "web": Scout searches the web only, not ${names.join(' or ') || 'nothing'}`);
  const other = [...new Set(names.filter((n) => n !== 'web'))];
  return other.length === 0 ? undefined : `Scout searched the web only: ${other.join(' and ')} not searched`;
}

function domains(v: unknown, name: string): string[] | undefined {
  if (absent(v)) return undefined;
  if (!Array.isArray(v) || !v.every((d) => typeof d === 'string' && d.length >= 1 && d.length <= 253))
    throw invalid(`${name} must be a list of domain strings`);
  if (v.length > SEARCH_LIMITS.domainEntries)
    throw invalid(`${name} may list at most ${SEARCH_LIMITS.domainEntries} domains on this Scout`);
  return v.length === 0 ? undefined : (v as string[]);
}

/**
 * A Firecrawl search body → the Scout search that answers it. Lenient where clients differ
 * (unknown fields, nulls), strict where a wrong answer would look right: a filter Scout
 * cannot honour is a 400, never dropped.
 */
export function firecrawlSearchPlan(body: unknown): FirecrawlSearchPlan {
  const b = jsonObject(body);
  const query = b.query;
  if (typeof query !== 'string' || query.trim() === '' || query.length > SEARCH_LIMITS.queryMax)
    throw invalid(`query is required: a string of 1 to ${SEARCH_LIMITS.queryMax} characters`);
  const request: SearchRequest = { query, max_results: limit(b.limit) };
  const plan: FirecrawlSearchPlan = { request };

  const warning = sources(b.sources);
  if (warning !== undefined) plan.warning = warning;
  if (Array.isArray(b.categories) && b.categories.length > 0)
    throw invalid('categories are not served: Scout searches the web at large (use includeDomains for sites)');
  if (!absent(b.tbs)) {
    if (typeof b.tbs !== 'string') throw invalid(TBS_HELP);
    applyTbs(b.tbs, request);
  }
  const country = geo(b);
  if (country !== undefined) request.country = country;
  const include = domains(b.includeDomains, 'includeDomains');
  const exclude = domains(b.excludeDomains, 'excludeDomains');
  if (include) request.include_domains = include;
  if (exclude) request.exclude_domains = exclude;

  if (!absent(b.timeout)) {
    if (typeof b.timeout !== 'number' || !Number.isFinite(b.timeout) || b.timeout <= 0)
      throw invalid('timeout must be a positive number of milliseconds');
    plan.timeoutMs = b.timeout;
  }
  const so = b.scrapeOptions;
  if (!absent(so)) {
    if (typeof so !== 'object' || Array.isArray(so)) throw invalid('scrapeOptions must be an object');
    // Without formats, Firecrawl's search reads no page: so neither does Scout.
    const scrape = scrapePlan(so as Record<string, unknown>, [], 'scrapeOptions.');
    if (scrape.formats.size > 0) plan.scrape = { ...scrape, rawMaxChars: SEARCH_RAW_MAX_CHARS };
  }
  return plan;
}
