import { optionalUrl, type Parser } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import {
  asRecord,
  clamp,
  honoursOf,
  malformed,
  plainText,
  text,
  withParams,
  resultList,
  type KeylessProviderOptions,
} from './adapter-kit.ts';
import { requestJson } from './http-json.ts';
import { pacingOf, pacingSettings } from './pacing-settings.ts';
import { ProviderError, type ProviderFailureKind, type SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Wikipedia through the MediaWiki Action API (GET /w/api.php?action=query&list=search), a
 * documented JSON API that needs no key. Any MediaWiki wiki's api.php answers the same way
 * (SCOUT_WIKIPEDIA_URL). Native: count (srlimit; 50 here, 500 for anonymous callers).
 * Not native: dates, domains, country; Scout filters and over-fetches.
 *
 * Results carry no publishedDate: the API's `timestamp` is the page's last edit, and an
 * article edited yesterday was not published yesterday. Exposing it would let a freshness
 * filter keep every much-edited article as "new", so a date-filtered search keeps none.
 *
 * Errors come with HTTP 200 as `{"error":{"code","info"}}` (API:Errors and warnings).
 */

const NAME = 'wikipedia';
const HONOURS = honoursOf();
const MAX_RESULTS = 50;

/** Error codes that mean "slow down": replication lag (maxlag) and the API's own limits. */
const SLOW_DOWN = new Set(['maxlag', 'ratelimited', 'concurrency-limit']);

/** Scout's query → the API's parameters. srprop: only the snippet, the one property read. */
export function wikipediaParams(q: SearchQuery): Record<string, string | number | undefined> {
  return {
    action: 'query',
    list: 'search',
    srsearch: q.query,
    srlimit: clamp(q.maxResults, 1, MAX_RESULTS),
    srprop: 'snippet',
    format: 'json',
    formatversion: 2,
    utf8: 1,
  };
}

/**
 * A page title as MediaWiki writes it in a /wiki/ link (its wfUrlencode): spaces as
 * underscores, UTF-8 percent-encoded, with `;:@$!*(),/~` left readable and `'` encoded.
 */
export function wikiTitlePath(title: string): string {
  return encodeURIComponent(title.replace(/ /g, '_'))
    .replace(/'/g, '%27')
    .replace(/%(3B|3A|40|24|2C|2F)/gi, (m) => decodeURIComponent(m));
}

function toResult(item: unknown, origin: string): ProviderResult | undefined {
  const r = asRecord(item);
  const title = text(r?.title);
  if (!r || !title) return undefined;
  return { title, url: `${origin}/wiki/${wikiTitlePath(title)}`, content: plainText(r.snippet) };
}

/** The API's `error` member as a failure: the code is safe to show, the info goes to the logs. */
function apiError(error: Record<string, unknown>): ProviderError {
  const raw = text(error.code) ?? '';
  const code = /^[a-z0-9_-]{1,60}$/i.test(raw) ? raw : 'unknown';
  const failure: ProviderFailureKind = SLOW_DOWN.has(code)
    ? 'rate_limited'
    : code === 'readapidenied'
      ? 'auth'
      : 'http';
  const info = text(error.info);
  return new ProviderError(NAME, failure, `API error (${code})`, info ? { detail: info.slice(0, 300) } : undefined);
}

/**
 * The API's answer → results, `origin` being the API URL's (links go to its /wiki/ pages).
 * An `error` member is a failure even with HTTP 200; `query.search` may be empty.
 */
export function parseWikipediaResponse(body: unknown, origin: string): ProviderResult[] {
  const root = asRecord(body);
  if (!root) throw malformed(NAME, 'not a JSON object');
  const error = asRecord(root.error);
  if (error) throw apiError(error);
  const query = asRecord(root.query);
  if (!query) throw malformed(NAME, 'no query member');
  return resultList(NAME, query.search, 'query.search', (x) => toResult(x, origin));
}

/** The wiki's api.php (full URL). */
export type WikipediaProviderOptions = KeylessProviderOptions;

export function createWikipediaProvider(opts: WikipediaProviderOptions): SearchProvider {
  const origin = new URL(opts.url).origin;
  return {
    name: NAME,
    honours: HONOURS,
    ...(opts.pacing ? { pacing: opts.pacing } : {}),
    async search(query, signal) {
      const body = await requestJson({
        provider: NAME,
        url: withParams(opts.url, wikipediaParams(query)),
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        // Wikimedia refuses clients that break its User-Agent policy with a 403: no key is
        // involved, so it is a block (the contact in SCOUT_CONTACT is what it asks for).
        statusHints: { 403: { failure: 'blocked', hint: 'refused: Wikimedia asks for a User-Agent with a contact' } },
      });
      return parseWikipediaResponse(body, origin).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

/** A Wikipedia language (its subdomain): en, de, pt, zh-yue, be-tarask, zh-min-nan, simple. */
export const wikipediaLanguage: Parser<string> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (v === 'simple' || /^[a-z]{2,3}(-[a-z]{1,10}){0,2}$/.test(v)) return v;
  throw new Error(`must be a Wikipedia language code such as en, de, pt, zh-yue or simple, got "${raw}"`);
};

/** The API endpoint of a Wikipedia language edition. */
export const wikipediaApiUrl = (language: string): string => `https://${language}.wikipedia.org/w/api.php`;

export const wikipediaProvider = describeProvider({
  name: NAME,
  settings: {
    wikipediaLanguage: s(
      'SCOUT_WIKIPEDIA_LANGUAGE',
      wikipediaLanguage,
      'en',
      'Wikipedia edition searched (its language code: en, de, pt, zh-yue, simple, …).',
    ),
    wikipediaUrl: s(
      'SCOUT_WIKIPEDIA_URL',
      optionalUrl,
      '',
      'MediaWiki Action API endpoint (full URL of api.php); unset: https://<SCOUT_WIKIPEDIA_LANGUAGE>.wikipedia.org/w/api.php. Any MediaWiki wiki works; result links go to /wiki/ on its host.',
    ),
    // Wikimedia's API etiquette: no hard limit on reads, but requests one after the other
    // (never two at once) are the rate it calls safe.
    ...pacingSettings('wikipedia', NAME, { perSecond: 5, inFlight: 1 }),
  },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) =>
    createWikipediaProvider({
      ...deps,
      url: c.wikipediaUrl ?? wikipediaApiUrl(c.wikipediaLanguage),
      pacing: pacingOf(c, 'wikipedia'),
    }),
});
