import { str, url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { normalizeDate } from '../domain/date-normalize.ts';
import type { Freshness, ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
  asRecord,
  clamp,
  honoursOf,
  malformed,
  plainText,
  text,
  type HttpProviderOptions,
  resultList,
} from './adapter-kit.ts';
import { createJsonPostProvider } from './json-post-provider.ts';
import type { SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Serper, Google results as JSON (POST google.serper.dev/search, `X-API-KEY` header).
 * Native: num (10..100), gl (country, lower case), tbs (qdr:d/w/m/y for freshness,
 * cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY for a range) and Google's `site:` / `-site:`
 * operators added to the query for up to 10 domains (Scout checks domains either way).
 * Quirk: `date` is Google's display text, "3 days ago" or "Jan 5, 2025".
 */

const NAME = 'serper';
const HONOURS = honoursOf('domains', 'dates', 'country');
const MAX_RESULTS = 100;
const MAX_SITE_OPERATORS = 10;
const QDR: Record<Freshness, string> = { day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' };

/** YYYY-MM-DD → Google's M/D/YYYY. */
const usDate = (d: string): string => `${Number(d.slice(5, 7))}/${Number(d.slice(8, 10))}/${d.slice(0, 4)}`;

function siteOperators(q: SearchQuery): string {
  if (q.includeDomains.length + q.excludeDomains.length > MAX_SITE_OPERATORS) return '';
  const include = q.includeDomains.map((d) => `site:${d}`).join(' OR ');
  const exclude = q.excludeDomains.map((d) => `-site:${d}`).join(' ');
  return [q.includeDomains.length > 1 ? `(${include})` : include, exclude].filter(Boolean).join(' ');
}

function tbs(q: SearchQuery): string | undefined {
  if (q.freshness) return QDR[q.freshness];
  if (!q.startDate && !q.endDate) return undefined;
  const parts = ['cdr:1'];
  if (q.startDate) parts.push(`cd_min:${usDate(q.startDate)}`);
  if (q.endDate) parts.push(`cd_max:${usDate(q.endDate)}`);
  return parts.join(',');
}

export function serperBody(q: SearchQuery): Record<string, unknown> {
  const sites = siteOperators(q);
  const body: Record<string, unknown> = {
    q: sites ? `${q.query} ${sites}` : q.query,
    // Serper bills by pages of 10; ask for whole pages.
    num: Math.min(MAX_RESULTS, Math.ceil(clamp(q.maxResults, 1, MAX_RESULTS) / 10) * 10),
  };
  if (q.country) body.gl = q.country.toLowerCase();
  const range = tbs(q);
  if (range) body.tbs = range;
  return body;
}

function toResult(item: unknown, now: Date): ProviderResult | undefined {
  const r = asRecord(item);
  const url = text(r?.link);
  if (!r || !url) return undefined;
  const out: ProviderResult = { title: plainText(r.title), url, content: plainText(r.snippet) };
  const date = normalizeDate(r.date, now);
  if (date) out.publishedDate = date;
  return out;
}

/** `organic` is absent when Google found nothing; any other shape is malformed. */
export function parseSerperResponse(body: unknown, now: Date): ProviderResult[] {
  const root = asRecord(body);
  if (!root) throw malformed(NAME, 'not a JSON object');
  if (root.organic === undefined && asRecord(root.searchParameters)) return [];
  return resultList(NAME, root.organic, 'organic', (x) => toResult(x, now));
}

export function createSerperProvider(opts: HttpProviderOptions): SearchProvider {
  return createJsonPostProvider(
    {
      name: NAME,
      honours: HONOURS,
      maxResults: MAX_RESULTS,
      authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
      body: serperBody,
      parse: parseSerperResponse,
    },
    opts,
  );
}

export const serperProvider = describeProvider({
  name: NAME,
  settings: {
    serperUrl: s('SCOUT_SERPER_URL', url, 'https://google.serper.dev/search', 'Serper /search endpoint (full URL).'),
    serperApiKey: s('SCOUT_SERPER_API_KEY', str, '', 'Serper API key; required when serper is listed.'),
  },
  requires: { setting: 'serperApiKey', as: '(a Serper API key)' },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createSerperProvider({ ...deps, url: c.serperUrl, apiKey: c.serperApiKey.trim() }),
});
