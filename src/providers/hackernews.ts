import { url } from '../config/parsers.ts';
import { s } from '../config/setting.ts';
import { dateFromUnixSeconds, normalizeDate } from '../domain/date-normalize.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import { freshnessStartDate } from '../search/search-request.ts';
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
import type { SearchProvider } from './provider.ts';
import { describeProvider } from './provider-descriptor.ts';

/**
 * Hacker News stories through the search API Algolia runs for it (hn.algolia.com/api,
 * GET /api/v1/search), a documented JSON API without a key, limited to 10,000 requests an
 * hour per IP. Native: count (hitsPerPage; 100 here), dates (numericFilters on
 * created_at_i). Not native: domains, country; Scout filters and over-fetches.
 *
 * A story links to its article; one without (Ask HN, most Show HN texts) links to its HN
 * page. Content: the story's own text when it has one, else its points and comments with a
 * link to the discussion, which is often what an agent wants from HN.
 */

const NAME = 'hackernews';
const HONOURS = honoursOf('dates');
const MAX_RESULTS = 100;
const DAY_S = 86_400;
/** Story texts can run to pages; the snippet keeps their start. */
const SNIPPET_CHARS = 400;
const ITEM_URL = 'https://news.ycombinator.com/item?id=';

const unixSeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Scout's query → Algolia's parameters; the date window on creation time, end day included. */
export function hackerNewsParams(q: SearchQuery, now: Date): Record<string, string | number | undefined> {
  const start = q.startDate ?? (q.freshness ? freshnessStartDate(q.freshness, now) : undefined);
  const filters = [
    ...(start === undefined ? [] : [`created_at_i>=${unixSeconds(start)}`]),
    ...(q.endDate === undefined ? [] : [`created_at_i<${unixSeconds(q.endDate) + DAY_S}`]),
  ];
  return {
    query: q.query,
    tags: 'story',
    hitsPerPage: clamp(q.maxResults, 1, MAX_RESULTS),
    numericFilters: filters.length > 0 ? filters.join(',') : undefined,
  };
}

/** The start of a long text, cut at a word, with an ellipsis. */
function snippet(t: string): string {
  if (t.length <= SNIPPET_CHARS) return t;
  const cut = t.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** created_at_i (unix seconds) as ISO 8601, for a hit without created_at. */
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function toResult(item: unknown, now: Date): ProviderResult | undefined {
  const r = asRecord(item);
  const id = typeof r?.objectID === 'string' && /^\d+$/.test(r.objectID) ? r.objectID : undefined;
  // Titles are plain text (not HTML): only white space is folded.
  const title = text(r?.title)?.replace(/\s+/g, ' ').trim();
  if (!r || id === undefined || !title) return undefined;
  const discussion = `${ITEM_URL}${id}`;
  const link = text(r.url);
  // Paragraphs are separated by a bare <p>: a space keeps their words apart.
  const story = typeof r.story_text === 'string' ? plainText(r.story_text.replace(/<(p|br)\b[^>]*>/gi, ' ')) : '';
  const stats = `${plural(count(r.points), 'point')} and ${plural(count(r.num_comments), 'comment')} on Hacker News`;
  const out: ProviderResult = {
    title,
    url: link ?? discussion,
    content: story ? snippet(story) : link ? `${stats} (discussion: ${discussion})` : stats,
  };
  const date = normalizeDate(r.created_at, now) ?? dateFromUnixSeconds(r.created_at_i);
  if (date) out.publishedDate = date;
  return out;
}

/** Algolia's answer → results; `hits` must be a list (empty when nothing matched). */
export function parseHackerNewsResponse(body: unknown, now: Date): ProviderResult[] {
  const root = asRecord(body);
  if (!root) throw malformed(NAME, 'not a JSON object');
  return resultList(NAME, root.hits, 'hits', (x) => toResult(x, now));
}

/** Algolia's HN search endpoint (full URL). */
export type HackerNewsProviderOptions = KeylessProviderOptions;

export function createHackerNewsProvider(opts: HackerNewsProviderOptions): SearchProvider {
  const now = opts.now ?? (() => new Date());
  return {
    name: NAME,
    honours: HONOURS,
    ...(opts.pacing ? { pacing: opts.pacing } : {}),
    async search(query, signal) {
      const at = now();
      const body = await requestJson({
        provider: NAME,
        url: withParams(opts.url, hackerNewsParams(query, at)),
        signal,
        dispatcher: opts.dispatcher,
        userAgent: opts.userAgent,
        // No key is involved: a 403 is the API refusing this IP (past its hourly limit).
        statusHints: { 403: { failure: 'blocked' } },
      });
      return parseHackerNewsResponse(body, at).slice(0, clamp(query.maxResults, 1, MAX_RESULTS));
    },
  };
}

export const hackerNewsProvider = describeProvider({
  name: NAME,
  settings: {
    hackerNewsUrl: s(
      'SCOUT_HACKERNEWS_URL',
      url,
      'https://hn.algolia.com/api/v1/search',
      'Hacker News search API endpoint (Algolia; full URL).',
    ),
    // Algolia allows 10,000 requests an hour per IP (2.8 a second): 2 a second stays under it.
    ...pacingSettings('hackerNews', NAME, { perSecond: 2, inFlight: 2 }),
  },
  honours: HONOURS,
  maxResults: MAX_RESULTS,
  build: (c, deps) => createHackerNewsProvider({ ...deps, url: c.hackerNewsUrl, pacing: pacingOf(c, 'hackerNews') }),
});
