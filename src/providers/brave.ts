import { str, url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { normalizeDate } from '../domain/date-normalize.ts';
import type { Freshness, ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
  asArray,
  asRecord,
  clamp,
  honoursOf,
  malformed,
  plainText,
  text,
  withParams,
  type HttpProviderOptions,
  resultList,
} from './adapter-kit.ts';
import { requestJson } from './http-json.ts';
import type { SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Brave Web Search API (GET /res/v1/web/search, `X-Subscription-Token` header).
 * Native: count (max 20), country (Brave's own list, else ALL), freshness (pd/pw/pm/py or
 * `YYYY-MM-DDtoYYYY-MM-DD`). Not native: domain filters (Scout filters and over-fetches).
 */

const NAME = 'brave';
const HONOURS = honoursOf('dates', 'country');
const MAX_RESULTS = 20;

/** Countries Brave accepts (its "Country Codes" table); others are sent as ALL, not US. */
const BRAVE_COUNTRIES = new Set(
  'AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US'.split(
    ' ',
  ),
);

const FRESHNESS: Record<Freshness, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };

/** Scout's query → Brave's query parameters. `today` closes an open-ended date range. */
export function braveParams(q: SearchQuery, today: string): Record<string, string | number | undefined> {
  let freshness: string | undefined;
  if (q.freshness) freshness = FRESHNESS[q.freshness];
  else if (q.startDate || q.endDate) freshness = `${q.startDate ?? '1970-01-01'}to${q.endDate ?? today}`;
  const country = q.country?.toUpperCase();
  return {
    q: q.query,
    count: clamp(q.maxResults, 1, MAX_RESULTS),
    // Plain snippets: with decorations Brave wraps matches in <strong>.
    text_decorations: 'false',
    // Only web results: smaller, faster answers.
    result_filter: 'web',
    country: country === undefined ? undefined : BRAVE_COUNTRIES.has(country) ? country : 'ALL',
    freshness,
    // Alternative excerpts exist on Brave's AI/Data plans; others ignore the flag.
    extra_snippets: q.depth === 'advanced' ? 'true' : undefined,
  };
}

function toResult(item: unknown, now: Date): ProviderResult | undefined {
  const r = asRecord(item);
  const url = text(r?.url);
  if (!r || !url) return undefined;
  const out: ProviderResult = { title: plainText(r.title), url, content: plainText(r.description) };
  // page_age is the page's own date (ISO, no zone); age is Brave's display form ("2 days ago").
  const date = normalizeDate(r.page_age, now) ?? normalizeDate(r.age, now);
  if (date) out.publishedDate = date;
  const favicon = text(asRecord(r.meta_url)?.favicon) ?? text(asRecord(r.profile)?.img);
  if (favicon) out.favicon = favicon;
  const extra = asArray(r.extra_snippets)?.map(plainText).filter(Boolean);
  if (extra?.length) out.extraSnippets = extra;
  return out;
}

/** Brave's WebSearchApiResponse → results. No `web` key means no web results. */
export function parseBraveResponse(body: unknown, now: Date): ProviderResult[] {
  const root = asRecord(body);
  if (root?.type !== 'search') throw malformed(NAME, 'not a Brave search response');
  if (root.web === undefined) return [];
  return resultList(NAME, asRecord(root.web)?.results, 'web.results', (x) => toResult(x, now));
}

export function createBraveProvider(opts: HttpProviderOptions): SearchProvider {
  const now = opts.now ?? (() => new Date());
  return {
    name: NAME,
    honours: HONOURS,
    async search(query, signal) {
      const at = now();
      const body = await requestJson({
        provider: NAME,
        url: withParams(opts.url, braveParams(query, at.toISOString().slice(0, 10))),
        headers: { 'x-subscription-token': opts.apiKey },
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        secrets: [opts.apiKey],
      });
      return parseBraveResponse(body, at).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

export const braveProvider = describeProvider({
  name: NAME,
  settings: {
    braveUrl: s(
      'SCOUT_BRAVE_URL',
      url,
      'https://api.search.brave.com/res/v1/web/search',
      'Brave Web Search API endpoint (full URL).',
    ),
    braveApiKey: s(
      'SCOUT_BRAVE_API_KEY',
      str,
      '',
      'Brave Search API subscription token; required when brave is listed in SCOUT_SEARCH_PROVIDERS.',
    ),
  },
  requires: { setting: 'braveApiKey', as: '(a Brave Search API subscription token)' },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createBraveProvider({ ...deps, url: c.braveUrl, apiKey: c.braveApiKey.trim() }),
});
