import { optionalUrl, str } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { normalizeDate } from '../domain/date-normalize.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
  asRecord,
  clamp,
  honoursOf,
  plainText,
  text,
  withParams,
  type ProviderDeps,
  resultList,
} from './adapter-kit.ts';
import { requestJson } from './http-json.ts';
import type { SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * A SearXNG instance's JSON API (GET <instance>/search?format=json). The instance must list
 * `json` in `search.formats` of its settings.yml, or it answers 403.
 * Native: only a coarse `time_range` (day, week, month, year), passed as a hint when the
 * request used freshness. Not native: count (one page of whatever its engines return),
 * date ranges, domains, country; Scout filters and trims.
 */

const NAME = 'searxng';
const HONOURS = honoursOf();

export interface SearxngOptions extends ProviderDeps {
  /** The instance's /search URL. */
  url: string;
  /** Optional Bearer token for an instance behind an authenticating proxy. */
  apiKey?: string;
}

export function searxngParams(q: SearchQuery): Record<string, string | number | undefined> {
  return { q: q.query, format: 'json', pageno: 1, time_range: q.freshness };
}

function toResult(item: unknown, now: Date): ProviderResult | undefined {
  const r = asRecord(item);
  const url = text(r?.url);
  if (!r || !url) return undefined;
  const out: ProviderResult = { title: plainText(r.title), url, content: plainText(r.content) };
  // publishedDate is a Python isoformat() string, often without a zone, or null.
  const date = normalizeDate(r.publishedDate, now) ?? normalizeDate(r.pubdate, now);
  if (date) out.publishedDate = date;
  if (typeof r.score === 'number') out.score = r.score;
  return out;
}

export function parseSearxngResponse(body: unknown, now: Date): ProviderResult[] {
  return resultList(NAME, asRecord(body)?.results, 'results', (x) => toResult(x, now));
}

export function createSearxngProvider(opts: SearxngOptions): SearchProvider {
  const now = opts.now ?? (() => new Date());
  const secrets = opts.apiKey ? [opts.apiKey] : [];
  return {
    name: NAME,
    honours: HONOURS,
    async search(query, signal) {
      const body = await requestJson({
        provider: NAME,
        url: withParams(opts.url, searxngParams(query)),
        ...(opts.apiKey ? { headers: { authorization: `Bearer ${opts.apiKey}` } } : {}),
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        secrets,
        statusHints: { 403: { failure: 'auth', hint: 'is json enabled in search.formats of the instance?' } },
      });
      return parseSearxngResponse(body, now()).slice(0, clamp(query.maxResults, 1, 100));
    },
  };
}

export const searxngProvider = describeProvider({
  name: NAME,
  settings: {
    searxngUrl: s(
      'SCOUT_SEARXNG_URL',
      optionalUrl,
      '',
      "Your SearXNG instance's /search URL (e.g. http://searxng:8080/search); required when searxng is listed. The instance must enable json in search.formats.",
    ),
    searxngApiKey: s(
      'SCOUT_SEARXNG_API_KEY',
      str,
      '',
      'Optional; sent as a Bearer token for SearXNG instances behind an authenticating proxy.',
    ),
  },
  requires: { setting: 'searxngUrl', as: "to the instance's /search URL" },
  honours: HONOURS,
  build: (c, deps) => {
    // Checked by `requires` before build; undefined only if a caller skipped that check.
    const url = c.searxngUrl ?? '';
    const apiKey = c.searxngApiKey.trim();
    return createSearxngProvider({ ...deps, url, ...(apiKey ? { apiKey } : {}) });
  },
});
