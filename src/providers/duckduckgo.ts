import { url, type Parser } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { normalizeDate } from '../domain/date-normalize.ts';
import type { Freshness, ProviderResult, SearchQuery } from '../search/search-types.ts';
import { clamp, honoursOf, type KeylessProviderOptions, withOptionalFields } from './adapter-kit.ts';
import { absoluteUrl, readEnginePage, textOf, type EnginePage, type HtmlElement } from './html-engine.ts';
import { requestPage } from './http-json.ts';
import { pacingOf, pacingSettings } from './pacing-settings.ts';
import type { Pacing, SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * DuckDuckGo's no-JavaScript result page (POST html.duckduckgo.com/html/, an HTML form), read
 * as a browser without scripts would. Keyless and scraped, not an API: DuckDuckGo publishes
 * no terms for automated use of it and answers what it takes for bots with its own challenge
 * page (a 202), so Scout paces it (1 search per second, 1 at a time, by default) and stops
 * calling it for the block cool-down at the first sign of a block.
 *
 * Native: country (the `kl` region), and coarse freshness (`df`: past day, week, month,
 * year). One page holds about 10 organic results; asking for more is not possible without
 * the page's own `vqd` token, which DuckDuckGo ties to the first page of the same query.
 *
 * Dates are not declared as honoured, because a start_date/end_date window cannot be sent:
 * `df` only knows the four buckets, all ending now. Scout therefore checks the dates itself
 * (result-filter.ts): a result DuckDuckGo dated (some carry a date beside their URL) must fall
 * in the window, and an undated one is dropped, since nothing shows it does. To lose as
 * little as possible, the smallest `df` bucket that covers the whole window (start_date up to
 * today) is still sent, so the page holds the newer pages; a window that starts more than a
 * year ago is sent without `df`.
 */

const NAME = 'duckduckgo';
const HONOURS = honoursOf('country');
const MAX_RESULTS = 10;
/** The page's own search form posts here; the redirect a bare /html may answer is not followed. */
const DEFAULT_URL = 'https://html.duckduckgo.com/html/';
const PACING: Pacing = { perSecond: 1, inFlight: 1 };
/**
 * DuckDuckGo refuses queries of 500 characters or more (SearXNG's engine notes the same).
 * Scout's own requests stop at 400, so only a direct caller can get here: the query is cut
 * at the last word boundary before the limit rather than failed, since a failure would count
 * against the engine's health for what is the query's doing, and the leading words of a
 * query that long carry its subject.
 */
const MAX_QUERY_CHARS = 499;

/**
 * DuckDuckGo regions (`kl`, country-language) by ISO country, from the region list of its
 * settings (as SearXNG's engine traits record it): one per country, in its main language.
 * Countries without a region are sent as `wt-wt` (no region), not as the US.
 */
const REGIONS = new Map(
  (
    'AR:ar-es AT:at-de AU:au-en BE:be-nl BG:bg-bg BR:br-pt CA:ca-en CH:ch-de CL:cl-es CN:cn-zh CO:co-es ' +
    'CZ:cz-cs DE:de-de DK:dk-da EE:ee-et ES:es-es FI:fi-fi FR:fr-fr GB:uk-en GR:gr-el HK:hk-tzh HR:hr-hr ' +
    'HU:hu-hu ID:id-en IE:ie-en IL:il-en IN:in-en IS:is-is IT:it-it JP:jp-jp KR:kr-kr LT:lt-lt LV:lv-lv ' +
    'MX:mx-es MY:my-en NL:nl-nl NO:no-no NZ:nz-en PE:pe-es PH:ph-en PK:pk-en PL:pl-pl PT:pt-pt RO:ro-ro ' +
    'RU:ru-ru SA:xa-ar SE:se-sv SG:sg-en SI:sl-sl SK:sk-sk TH:th-en TR:tr-tr TW:tw-tzh UA:ua-uk US:us-en ' +
    'VN:vn-en ZA:za-en'
  )
    .split(' ')
    .map((entry) => entry.split(':') as [string, string]),
);
const NO_REGION = 'wt-wt';

const DF: Record<Freshness, string> = { day: 'd', week: 'w', month: 'm', year: 'y' };
/**
 * The buckets by the days they surely reach back (DuckDuckGo does not say how it counts a
 * month or a year: the shortest reading is taken, so that a bucket chosen covers the window).
 */
const DF_BY_DAYS: readonly (readonly [number, string])[] = [
  [1, 'd'],
  [7, 'w'],
  [28, 'm'],
  [365, 'y'],
];

/** The region DuckDuckGo knows for an ISO country, or `wt-wt`. */
export const duckduckgoRegion = (country: string | undefined): string =>
  (country && REGIONS.get(country.toUpperCase())) ?? NO_REGION;

/** The query cut to what DuckDuckGo accepts (see MAX_QUERY_CHARS). */
export function duckduckgoQuery(query: string): string {
  const chars = Array.from(query);
  if (chars.length <= MAX_QUERY_CHARS) return query;
  const cut = chars.slice(0, MAX_QUERY_CHARS).join('');
  const lastSpace = cut.search(/\s\S*$/);
  return (lastSpace > 0 ? cut.slice(0, lastSpace) : cut).trim();
}

/** The `df` bucket for the query's date window (see the note at the top), if any. */
export function duckduckgoFreshness(q: SearchQuery, today: Date): string | undefined {
  if (q.freshness) return DF[q.freshness];
  if (!q.startDate) return undefined;
  const days = Math.ceil((today.getTime() - Date.parse(`${q.startDate}T00:00:00Z`)) / 86_400_000);
  return DF_BY_DAYS.find(([reach]) => days <= reach)?.[1];
}

/** Scout's query → the fields of the page's search form (first page: `b` empty). */
export function duckduckgoForm(q: SearchQuery, today: Date): Record<string, string> {
  const form: Record<string, string> = { q: duckduckgoQuery(q.query), b: '', kl: duckduckgoRegion(q.country) };
  const df = duckduckgoFreshness(q, today);
  if (df) form.df = df;
  return form;
}

/** Where the page's links are resolved: they are protocol-relative (`//duckduckgo.com/l/?…`). */
const PAGE_BASE = 'https://html.duckduckgo.com/html/';
const isDuckHost = (host: string): boolean => host === 'duckduckgo.com' || host.endsWith('.duckduckgo.com');

/**
 * A result link as the target URL. DuckDuckGo wraps targets in its redirect
 * (`//duckduckgo.com/l/?uddg=<percent-encoded target>&rut=…`); ads go through `y.js`
 * (undefined: not a result). Other links, DuckDuckGo's own pages included, are kept as they are.
 */
export function unwrapDuckLink(href: string | null | undefined): string | undefined {
  const abs = absoluteUrl(href, PAGE_BASE);
  if (!abs) return undefined;
  const u = new URL(abs);
  if (!isDuckHost(u.hostname)) return abs;
  if (u.pathname === '/y.js') return undefined;
  if (u.pathname === '/l/' || u.pathname === '/l') return absoluteUrl(u.searchParams.get('uddg'), PAGE_BASE);
  return abs;
}

/** The date DuckDuckGo prints after some results' URL (`2024-11-12T00:00:00.0000000`). */
function resultDate(block: HtmlElement, now: Date): string | undefined {
  for (const span of block.querySelectorAll('.result__extras__url span')) {
    const iso = /\d{4}-\d{2}-\d{2}(T[\d:.]+)?/.exec(textOf(span))?.[0];
    if (iso) return normalizeDate(iso, now);
  }
  return undefined;
}

function toResult(block: HtmlElement, now: Date): ProviderResult | undefined {
  if (block.classList.contains('result--ad')) return undefined;
  const link = block.querySelector('h2 a.result__a') ?? block.querySelector('a.result__a');
  const target = unwrapDuckLink(link?.getAttribute('href'));
  if (!link || !target) return undefined;
  const out: ProviderResult = {
    title: textOf(link),
    url: target,
    content: textOf(block.querySelector('a.result__snippet') ?? block.querySelector('.result__snippet')),
  };
  return withOptionalFields(out, {
    publishedDate: resultDate(block, now),
    favicon: absoluteUrl(block.querySelector('img.result__icon__img')?.getAttribute('src'), PAGE_BASE),
  });
}

const page = (now: Date): EnginePage => ({
  // The bot check: "Unfortunately, bots use DuckDuckGo too." in its anomaly dialog, with a
  // picture challenge posted by form#challenge-form (SearXNG checks the form alone).
  blocked: (doc) =>
    doc.querySelector('form#challenge-form, [class*="anomaly-modal"]') ? "DuckDuckGo's bot challenge" : undefined,
  // Result blocks are div.result children of div#links: organic ones are web-result, ads are
  // result--ad (and link to y.js), and the "next page" form and feedback link are not results.
  results: (doc) =>
    [...doc.querySelectorAll('#links > div.result')]
      .map((block) => toResult(block, now))
      .filter((r): r is ProviderResult => r !== undefined),
  noResults: (doc) => doc.querySelector('.no-results') !== null,
});

/** A result page → its organic results, or the failure it shows (html-engine.ts). */
export function parseDuckduckgoPage(html: string, now: Date): ProviderResult[] {
  return readEnginePage(NAME, html, page(now));
}

/** The html endpoint (SCOUT_DUCKDUCKGO_URL); pacing default 1 search per second, 1 at a time. */
export type DuckduckgoOptions = KeylessProviderOptions;

export function createDuckduckgoProvider(opts: DuckduckgoOptions): SearchProvider {
  const now = opts.now ?? (() => new Date());
  return {
    name: NAME,
    honours: HONOURS,
    pacing: opts.pacing ?? PACING,
    async search(query, signal) {
      const at = now();
      const answer = await requestPage({
        provider: NAME,
        url: opts.url,
        method: 'POST',
        form: duckduckgoForm(query, at),
        // The page's own form sends it (DuckDuckGo's Referrer-Policy is `origin`); a post
        // without one looks less like the page it imitates.
        headers: { referer: opts.url },
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        // 202 is the bot challenge's status; 403 and 429 are refusals of automated queries.
        statusHints: { 202: { failure: 'blocked' }, 403: { failure: 'blocked' }, 429: { failure: 'blocked' } },
      });
      return parseDuckduckgoPage(answer.text, at).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

/** The endpoint as written: the `url` parser drops a trailing slash, and this one's is /html/. */
const endpointUrl: Parser<string> = (raw) => {
  url(raw);
  return raw.trim();
};

export const duckduckgoProvider = describeProvider({
  name: NAME,
  settings: {
    duckduckgoUrl: s(
      'SCOUT_DUCKDUCKGO_URL',
      endpointUrl,
      DEFAULT_URL,
      "DuckDuckGo's no-JavaScript result page (full URL, trailing slash kept); its form is posted there.",
    ),
    ...pacingSettings('duckduckgo', 'duckduckgo', PACING),
  },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createDuckduckgoProvider({ ...deps, url: c.duckduckgoUrl, pacing: pacingOf(c, 'duckduckgo') }),
});
