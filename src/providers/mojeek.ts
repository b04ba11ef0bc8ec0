import { url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import { clamp, honoursOf, withParams, type KeylessProviderOptions } from './adapter-kit.ts';
import { absoluteUrl, readEnginePage, textOf, type EnginePage, type HtmlElement } from './html-engine.ts';
import { requestPage } from './http-json.ts';
import { pacingOf, pacingSettings } from './pacing-settings.ts';
import type { Pacing, SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Mojeek's public result page (GET www.mojeek.com/search?q=…), an independent crawler-based
 * index run from the UK. Keyless and scraped, not an API (Mojeek sells a JSON API with a key
 * at the same path): Scout paces it (1 search per second, 1 at a time, by default), and a
 * block page or a 403/429 suspends it for the block cool-down.
 *
 * Native: dates. `since=YYYYMMDD` (which SearXNG sends to the same page) bounds the start and
 * `before=YYYYMMDD`, "up to, but not including", the end (both as Mojeek's search API
 * documents them for /search), so a whole start_date..end_date window is sent and undated
 * results are kept. One page holds 10 results (the API's `t` count is not offered on the
 * page).
 *
 * Not native: country. Mojeek's page keeps its region (`arc`) and language (`lb`) as
 * preferences whose values only its preferences page lists, and the API's `rb` is a boost,
 * not a filter; no country is sent rather than a guessed code. Domains: not sent either
 * (Scout filters and over-fetches, up to the one page).
 */

const NAME = 'mojeek';
const HONOURS = honoursOf('dates');
const MAX_RESULTS = 10;
const PACING: Pacing = { perSecond: 1, inFlight: 1 };
const PAGE_BASE = 'https://www.mojeek.com/';

/** YYYY-MM-DD → Mojeek's YYYYMMDD, `days` later. */
function mojeekDay(day: string, days = 0): string {
  const t = new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);
  return t.toISOString().slice(0, 10).replaceAll('-', '');
}

/** Scout's query → the page's query parameters. Scout's end_date is inclusive, Mojeek's `before` is not. */
export function mojeekParams(q: SearchQuery): Record<string, string | undefined> {
  return {
    q: q.query,
    // Freshness arrives resolved into startDate (search-request.ts).
    since: q.startDate ? mojeekDay(q.startDate) : undefined,
    before: q.endDate ? mojeekDay(q.endDate, 1) : undefined,
  };
}

function toResult(item: HtmlElement): ProviderResult | undefined {
  const titleLink = item.querySelector('h2 a') ?? item.querySelector('a.title');
  const target = absoluteUrl(
    item.querySelector('a.ob')?.getAttribute('href') ?? titleLink?.getAttribute('href'),
    PAGE_BASE,
  );
  if (!titleLink || !target) return undefined;
  return { title: textOf(titleLink), url: target, content: textOf(item.querySelector('p.s')) };
}

/** Words of Mojeek's refusal page ("Sorry your network appears to be sending automated queries"). */
const REFUSAL = /sending automated queries/i;
/** Words of its notice for a query without results ("No pages found matching: …"). */
const NOTHING_FOUND = /no pages found matching/i;

const PAGE: EnginePage = {
  // The refusal page has no result list; checking that first keeps a result about bots from
  // reading as a block.
  blocked: (doc) =>
    doc.querySelector('ul.results-standard') === null && REFUSAL.test(textOf(doc.querySelector('body')))
      ? 'Mojeek says the network is sending automated queries'
      : undefined,
  results: (doc) =>
    [...doc.querySelectorAll('ul.results-standard > li')]
      .map(toResult)
      .filter((r): r is ProviderResult => r !== undefined),
  // The notice's wording identifies it (it sits in div.top-info as of 2025): a redesign that
  // keeps the sentence is still a page without results.
  noResults: (doc) => NOTHING_FOUND.test(textOf(doc.querySelector('body'))),
};

/** A result page → its results, or the failure it shows (html-engine.ts). */
export function parseMojeekPage(html: string): ProviderResult[] {
  return readEnginePage(NAME, html, PAGE);
}

/** The result page's URL (SCOUT_MOJEEK_URL); pacing default 1 search per second, 1 at a time. */
export type MojeekOptions = KeylessProviderOptions;

export function createMojeekProvider(opts: MojeekOptions): SearchProvider {
  return {
    name: NAME,
    honours: HONOURS,
    pacing: opts.pacing ?? PACING,
    async search(query, signal) {
      const answer = await requestPage({
        provider: NAME,
        url: withParams(opts.url, mojeekParams(query)),
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        // Mojeek refuses automated queries with a 403 page; 429 is its rate limit.
        statusHints: { 403: { failure: 'blocked' }, 429: { failure: 'blocked' } },
      });
      return parseMojeekPage(answer.text).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

export const mojeekProvider = describeProvider({
  name: NAME,
  settings: {
    mojeekUrl: s('SCOUT_MOJEEK_URL', url, 'https://www.mojeek.com/search', "Mojeek's result page (full URL)."),
    ...pacingSettings('mojeek', 'mojeek', PACING),
  },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createMojeekProvider({ ...deps, url: c.mojeekUrl, pacing: pacingOf(c, 'mojeek') }),
});
