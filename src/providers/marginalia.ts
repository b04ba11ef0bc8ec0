import { str, url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
  asRecord,
  clamp,
  honoursOf,
  plainText,
  text,
  withParams,
  type HttpProviderOptions,
  resultList,
} from './adapter-kit.ts';
import { requestJson } from './http-json.ts';
import { pacingOf, pacingSettings } from './pacing-settings.ts';
import type { Pacing, SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Marginalia Search API (GET api2.marginalia-search.com/search, `API-Key` header), an
 * independent index of the small, text-heavy web. Results are CC-BY-NC-SA 4.0 unless your
 * key says otherwise. Native: count (1..100). Not native: dates (results carry none, so a
 * date filter leaves nothing), domains, country; Scout filters and over-fetches.
 *
 * Without a key of its own it uses `public`, the key Marginalia documents as shared by
 * everyone: it works, but is often rate limited (a 503), so the default pace is gentle.
 */

const NAME = 'marginalia';
const HONOURS = honoursOf();
const MAX_RESULTS = 100;

export function marginaliaParams(q: SearchQuery): Record<string, string | number | undefined> {
  return { query: q.query, count: clamp(q.maxResults, 1, MAX_RESULTS) };
}

function toResult(item: unknown): ProviderResult | undefined {
  const r = asRecord(item);
  const url = text(r?.url);
  if (!r || !url) return undefined;
  return { title: plainText(r.title), url, content: plainText(r.description) };
}

export function parseMarginaliaResponse(body: unknown): ProviderResult[] {
  return resultList(NAME, asRecord(body)?.results, 'results', toResult);
}

export function createMarginaliaProvider(opts: HttpProviderOptions & { pacing?: Pacing }): SearchProvider {
  return {
    name: NAME,
    honours: HONOURS,
    ...(opts.pacing ? { pacing: opts.pacing } : {}),
    async search(query, signal) {
      const body = await requestJson({
        provider: NAME,
        url: withParams(opts.url, marginaliaParams(query)),
        headers: { 'api-key': opts.apiKey },
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        secrets: [opts.apiKey],
        // The legacy API and the shared `public` key answer 503 when rate limited.
        statusHints: { 503: { failure: 'rate_limited', hint: 'rate limited' } },
      });
      return parseMarginaliaResponse(body).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

export const marginaliaProvider = describeProvider({
  name: NAME,
  settings: {
    marginaliaUrl: s(
      'SCOUT_MARGINALIA_URL',
      url,
      'https://api2.marginalia-search.com/search',
      'Marginalia Search API endpoint (full URL).',
    ),
    marginaliaApiKey: s(
      'SCOUT_MARGINALIA_API_KEY',
      str,
      'public',
      'Marginalia API key. The default, `public`, is the key Marginalia documents as shared by everyone: no sign-up, but often rate limited; ask Marginalia for a key of your own (about.marginalia-search.com/article/api/) to avoid that.',
    ),
    // The shared key is rate limited for all its users together: one search at a time.
    ...pacingSettings('marginalia', NAME, { perSecond: 1, inFlight: 1 }),
  },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) =>
    createMarginaliaProvider({
      ...deps,
      url: c.marginaliaUrl,
      // A blank value is the shared key too: the API refuses an empty one.
      apiKey: c.marginaliaApiKey.trim() || 'public',
      pacing: pacingOf(c, 'marginalia'),
    }),
});
