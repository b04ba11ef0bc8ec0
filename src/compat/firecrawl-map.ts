import { DomainError } from '../domain/errors.ts';
import type { FirecrawlMapResponse } from '../schemas/firecrawl.ts';
import { MAP_LIMITS, type MapRequest, type MapResponse, type MapStop } from '../schemas/map.ts';
import { urlProblem } from './tavily-extract.ts';
import { jsonObject, requiredUrl } from './json-body.ts';

/** What a Firecrawl map asks of Scout's map (POST /v1/map's service). */
export interface FirecrawlMapPlan {
  request: MapRequest;
  /** ignoreQueryParameters (Firecrawl's default true): URLs without their query, each once. */
  dropQuery: boolean;
}

/** Firecrawl's own default limit (it allows up to 100,000; Scout returns at most 5000). */
export const FIRECRAWL_MAP_DEFAULT_LIMIT = 5000;

const invalid = (message: string) => new DomainError('invalid', message);
const absent = (v: unknown): boolean => v === undefined || v === null;

function bool(v: unknown, name: string, fallback: boolean): boolean {
  if (absent(v)) return fallback;
  if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`);
  return v;
}

function limit(v: unknown): number {
  if (absent(v)) return Math.min(FIRECRAWL_MAP_DEFAULT_LIMIT, MAP_LIMITS.limit.max);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid('limit must be a whole number from 1');
  return Math.min(MAP_LIMITS.limit.max, v);
}

/**
 * A Firecrawl map body → the Scout map that answers it, with Firecrawl's defaults
 * (includeSubdomains and ignoreQueryParameters true, limit 5000) rather than /v1/map's.
 * Unknown fields and nulls are ignored; a value Scout cannot read is a 400 naming it.
 */
export function firecrawlMapPlan(body: unknown): FirecrawlMapPlan {
  const b = jsonObject(body);
  const url = requiredUrl(b);
  const problem = urlProblem(url);
  if (problem !== undefined) throw invalid(`url is ${problem}`);
  const request: MapRequest = {
    url,
    limit: limit(b.limit),
    include_subdomains: bool(b.includeSubdomains, 'includeSubdomains', true),
  };
  if (!absent(b.sitemap)) {
    if (b.sitemap !== 'include' && b.sitemap !== 'only' && b.sitemap !== 'skip')
      throw invalid('sitemap must be "include", "only" or "skip"');
    request.sitemap = b.sitemap;
  }
  if (!absent(b.search) && b.search !== '') {
    if (typeof b.search !== 'string' || b.search.trim() === '' || b.search.length > MAP_LIMITS.searchMax)
      throw invalid(`search must be a string of 1 to ${MAP_LIMITS.searchMax} characters`);
    request.search = b.search;
  }
  if (!absent(b.timeout)) {
    if (typeof b.timeout !== 'number' || !Number.isFinite(b.timeout) || b.timeout <= 0)
      throw invalid('timeout must be a positive number of milliseconds');
    const { min, max } = MAP_LIMITS.timeoutMs;
    request.timeout_ms = Math.round(Math.min(max, Math.max(min, b.timeout)));
  }
  return { request, dropQuery: bool(b.ignoreQueryParameters, 'ignoreQueryParameters', true) };
}

/** Why the map left URLs unread, and what the caller can do: the SDK hands these on as agent_hints. */
const STOP_HINTS: Record<MapStop, string> = {
  limit: `the site has more URLs than limit: ask for a higher limit (at most ${MAP_LIMITS.limit.max}) or narrow with search`,
  deadline: 'the map reached its timeout before reading every sitemap and page: more URLs may exist',
  page_budget: `the map read its ${MAP_LIMITS.pages} pages for links and left others unread: more URLs may exist; search, or a start URL deeper in the site, narrows it`,
  sitemap_budget: `the map read ${MAP_LIMITS.sitemaps} sitemap files and more were listed: more URLs may exist`,
  candidates: `the map held ${MAP_LIMITS.candidates} URLs and stopped there: more URLs may exist`,
  rate_limited: "the key's rate limit ran out during the map: more URLs may exist; map again later",
};

/** Scout's map → Firecrawl's answer: each URL with the page's title when the map read it. */
export function firecrawlMapBody(plan: FirecrawlMapPlan, out: MapResponse): FirecrawlMapResponse {
  const seen = new Set<string>();
  const links: FirecrawlMapResponse['links'] = [];
  for (const r of out.results) {
    let url = r.url;
    if (plan.dropQuery) {
      const u = new URL(r.url);
      u.search = '';
      url = u.href;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    links.push(r.title === null ? { url } : { url, title: r.title });
  }
  const body: FirecrawlMapResponse = { success: true, links };
  if (out.stopped !== null) body.agent_hints = [STOP_HINTS[out.stopped]];
  return body;
}
