import { DomainError } from '../domain/errors.ts';
import { SEARCH_LIMITS, type SearchRequest } from '../schemas/search.ts';
import { countryCode } from './tavily-country.ts';
import { jsonObject } from './json-body.ts';

/** What a Tavily search asks of Scout. */
export interface TavilyPlan {
  query: string;
  request: SearchRequest;
  /** include_raw_content asked for the pages: results carry raw_content, else null. */
  rawContent: boolean;
}

/** Tavily's own default when max_results is absent. */
export const TAVILY_DEFAULT_RESULTS = 5;

const RANGES: Record<string, NonNullable<SearchRequest['freshness']>> = {
  day: 'day',
  d: 'day',
  week: 'week',
  w: 'week',
  month: 'month',
  m: 'month',
  year: 'year',
  y: 'year',
};
const DEPTHS: Record<string, NonNullable<SearchRequest['search_depth']>> = {
  basic: 'basic',
  advanced: 'advanced',
  // Tavily's faster tiers: Scout's basic search is its fastest.
  fast: 'basic',
  'ultra-fast': 'basic',
};
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

const invalid = (message: string) => new DomainError('invalid', message);

/** A field a client sent as null, or left empty, is a field not sent (the SDKs send nulls). */
const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

function str(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (absent(v)) return undefined;
  if (typeof v !== 'string') throw invalid(`${name} must be a string`);
  return v.trim();
}

function maxResults(v: unknown): number {
  if (absent(v)) return TAVILY_DEFAULT_RESULTS;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid('max_results must be an integer from 0 to 20');
  // Tavily allows 0..20; Scout serves 1..20, so 0 (or less) asks for one, more than 20 for 20.
  return Math.min(SEARCH_LIMITS.maxResults.max, Math.max(SEARCH_LIMITS.maxResults.min, v));
}

function domains(v: unknown, name: string): string[] | undefined {
  if (absent(v)) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((d) => typeof d === 'string' && d.length >= 1 && d.length <= 253))
    throw invalid(`${name} must be a list of domain strings`);
  // A filter Scout cannot apply whole is refused, never half applied.
  if (list.length > SEARCH_LIMITS.domainEntries)
    throw invalid(`${name} may list at most ${SEARCH_LIMITS.domainEntries} domains on this Scout`);
  return list.length === 0 ? undefined : (list as string[]);
}

function date(body: Record<string, unknown>, name: string): string | undefined {
  const v = str(body, name);
  if (v !== undefined && !DATE.test(v)) throw invalid(`${name} must be a date YYYY-MM-DD`);
  return v;
}

/** `days` back from today, as a start date: Tavily applies it to news searches only. */
function daysBack(v: unknown, now: Date): string {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid('days must be a whole number from 1');
  return new Date(now.getTime() - v * 86_400_000).toISOString().slice(0, 10);
}

function rawContent(v: unknown): boolean {
  if (absent(v) || v === false) return false;
  if (v === true || v === 'markdown' || v === 'text') return true;
  throw invalid('include_raw_content must be true, false, "markdown" or "text"');
}

/**
 * A Tavily search body → the Scout search that answers it. Lenient where Tavily's clients
 * differ (unknown fields, nulls, d/w/m/y), strict where a wrong answer would look right: a
 * filter Scout cannot honour is a 400, never dropped.
 */
export function tavilyPlan(body: unknown, now: Date = new Date()): TavilyPlan {
  const b = jsonObject(body);
  const query = b.query;
  if (typeof query !== 'string' || query.trim() === '' || query.length > SEARCH_LIMITS.queryMax)
    throw invalid(`query is required: a string of 1 to ${SEARCH_LIMITS.queryMax} characters`);
  const request: SearchRequest = { query, max_results: maxResults(b.max_results) };

  const depth = str(b, 'search_depth')?.toLowerCase();
  if (depth !== undefined) {
    const d = DEPTHS[depth];
    if (d === undefined) throw invalid('search_depth must be basic, advanced, fast or ultra-fast');
    request.search_depth = d;
  }
  const wantsRaw = rawContent(b.include_raw_content);
  // Scout fills raw_content on its advanced search only.
  if (wantsRaw) request.search_depth = 'advanced';

  const range = str(b, 'time_range')?.toLowerCase();
  if (range !== undefined) {
    const r = RANGES[range];
    if (r === undefined) throw invalid('time_range must be day, week, month, year or d, w, m, y');
    request.freshness = r;
  }
  const start = date(b, 'start_date');
  const end = date(b, 'end_date');
  if (start !== undefined) request.start_date = start;
  else if (!absent(b.days) && str(b, 'topic')?.toLowerCase() === 'news') request.start_date = daysBack(b.days, now);
  if (end !== undefined) request.end_date = end;

  const include = domains(b.include_domains, 'include_domains');
  const exclude = domains(b.exclude_domains, 'exclude_domains');
  if (include) request.include_domains = include;
  if (exclude) request.exclude_domains = exclude;

  const country = str(b, 'country');
  if (country !== undefined) {
    const code = countryCode(country);
    if (code === undefined)
      throw invalid('country must be a country name in English ("united states") or a 2-letter code');
    request.country = code;
  }
  return { query, request, rawContent: wantsRaw };
}
