import { Type, type Static } from '@sinclair/typebox';
import { ExtractPassage, ExtractRequest } from './extract.ts';
import { FETCH_LIMITS, FetchResponse } from './fetch.ts';
import { MapRequest, Patterns } from './map.ts';
import { Nullable } from './nullable.ts';
import { rule } from './rule.ts';
import { SEARCH_LIMITS } from './search.ts';

/**
 * POST /v1/crawl (docs/api.md "POST /v1/crawl" says why each bound is what it is): a bounded,
 * synchronous crawl of one site that returns its pages' markdown in crawl order, the sibling
 * of POST /v1/map (same walker, same field names) and POST /v1/extract (same page windows).
 */
export const CRAWL_LIMITS = {
  maxDepth: { min: 0, max: 5, default: 2 },
  limit: { min: 1, max: 100, default: 10 },
  /** Characters of each page's window: /v1/fetch's range; the default fits `limit.max` pages in `totalChars`. */
  maxChars: { min: FETCH_LIMITS.maxChars.min, max: FETCH_LIMITS.maxChars.max, default: 20_000 },
  /** Characters of content in one answer, all pages together. */
  totalChars: 2_000_000,
  /** Pages fetched beyond `limit` at most (pages that failed, redirected away or were not kept). */
  extraFetches: 20,
  timeoutMs: { min: 1000, max: 120_000, default: 60_000 },
  /** An asynchronous job's timeout_ms: nobody holds a connection open for it (docs/api.md says why). */
  jobTimeoutMs: { max: 600_000, default: 300_000 },
  /** Skipped URLs listed in an answer (the first ones). */
  skipped: 50,
} as const;

const L = CRAWL_LIMITS;

export const CrawlRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: FETCH_LIMITS.urlMax,
      description: "The crawl's start page (absolute http(s)); the crawl stays on its host.",
      ...rule(`must be an absolute http(s) URL of 1 to ${FETCH_LIMITS.urlMax} characters`),
    }),
    max_depth: Type.Optional(
      Type.Integer({
        minimum: L.maxDepth.min,
        maximum: L.maxDepth.max,
        default: L.maxDepth.default,
        description: `Links followed from the start page at most, ${L.maxDepth.min}..${L.maxDepth.max} (default ${L.maxDepth.default}): 0 reads the start page only, 1 also the pages it links to.`,
        ...rule(`must be an integer from ${L.maxDepth.min} to ${L.maxDepth.max}`),
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: L.limit.min,
        maximum: L.limit.max,
        default: L.limit.default,
        description: `Pages returned at most, ${L.limit.min}..${L.limit.max} (default ${L.limit.default}).`,
        ...rule(`must be an integer from ${L.limit.min} to ${L.limit.max}`),
      }),
    ),
    include_paths: Patterns(
      'Read only pages whose path matches one of these (the start page is read for its links whatever they say, and returned only when it matches).',
    ),
    exclude_paths: Patterns('Never read pages whose path matches one of these.'),
    include_subdomains: MapRequest.properties.include_subdomains,
    sitemap: Type.Optional(
      Type.Union([Type.Literal('skip'), Type.Literal('include')], {
        default: 'skip',
        description:
          "`skip` (default): pages are found by following links from the start page. `include`: the site's sitemaps are read first and their URLs queued one link away from the start page (depth 1), after the start page's own links.",
        ...rule('must be one of skip, include'),
      }),
    ),
    max_chars: Type.Optional(
      Type.Integer({
        minimum: L.maxChars.min,
        maximum: L.maxChars.max,
        description: `Size of each page's window in characters, ${L.maxChars.min}..${L.maxChars.max}: without query the window is returned (default ${L.maxChars.default}); with query passages are chosen from it (default ${L.maxChars.max}, the whole page as Scout reads it). All pages together return at most ${L.totalChars} characters.`,
        ...rule(`must be an integer from ${L.maxChars.min} to ${L.maxChars.max}`),
      }),
    ),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: SEARCH_LIMITS.queryMax,
        description: `A question or keywords, 1..${SEARCH_LIMITS.queryMax} characters: each page returns its passages most relevant to it instead of a window of its content (as POST /v1/extract's query). Which pages are read does not depend on it.`,
        ...rule(`must be a string of 1 to ${SEARCH_LIMITS.queryMax} characters`),
      }),
    ),
    max_passages: ExtractRequest.properties.max_passages,
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: L.timeoutMs.min,
        maximum: L.jobTimeoutMs.max,
        description: `Time for the whole crawl, in ms: ${L.timeoutMs.min}..${L.timeoutMs.max} (default ${L.timeoutMs.default}) for a crawl answered in the call; with async, up to ${L.jobTimeoutMs.max} (default ${L.jobTimeoutMs.default}), counted from the job's start. At the end the crawl answers with the pages it has, stopped: "deadline".`,
        ...rule(
          `must be an integer from ${L.timeoutMs.min} to ${L.timeoutMs.max} (to ${L.jobTimeoutMs.max} with async: true)`,
        ),
      }),
    ),
    async: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'true: the crawl runs as a job: the call answers 202 at once with the job (status queued, its id), and GET /v1/crawl/{id} gives its pages as they come and its outcome; DELETE /v1/crawl/{id} cancels it. Needs an API key (a job belongs to its key). false (default): the call answers with the crawl.',
        ...rule('must be true or false'),
      }),
    ),
  },
  { title: 'CrawlRequest', additionalProperties: false },
);
export type CrawlRequest = Static<typeof CrawlRequest>;

export const CrawlPage = Type.Object(
  {
    url: Type.String({ description: 'The URL the crawl requested (the start URL, or a link as found).' }),
    final_url: FetchResponse.properties.final_url,
    title: Type.String(),
    depth: Type.Integer({
      minimum: 0,
      description: 'Links followed from the start page to reach it (0: the start page).',
    }),
    content: Type.String({
      description:
        "Without query: the page's window, its content's first chars characters (markdown). With query: its passages in page order, as POST /v1/extract joins them; empty when no passage matches.",
    }),
    passages: Type.Optional(
      Type.Array(ExtractPassage, { description: 'With query only: the passages chosen, in page order.' }),
    ),
    chars: Type.Integer({ minimum: 0, description: 'Length of content.' }),
    total_chars: Type.Integer({
      minimum: 0,
      description: `Characters of main content Scout read of the page (at most ${FETCH_LIMITS.maxChars.max}).`,
    }),
    next_index: Nullable(
      Type.Integer({
        minimum: 0,
        description:
          'Where the rest of the page starts: send it as start_index to POST /v1/extract (one URL) to read on; null when the window ends what Scout read.',
      }),
    ),
    truncated: Type.Boolean({
      description: 'The page goes on after the window: from next_index, or past what Scout reads of a page.',
    }),
    meta: FetchResponse.properties.meta,
  },
  { title: 'CrawlPage', additionalProperties: false },
);
export type CrawlPage = Static<typeof CrawlPage>;

export const CrawlStop = Type.Union(
  [
    Type.Literal('limit'),
    Type.Literal('depth'),
    Type.Literal('deadline'),
    Type.Literal('rate_limited'),
    Type.Literal('fetch_budget'),
    Type.Literal('char_budget'),
  ],
  {
    title: 'CrawlStop',
    description: `Why pages of the site were left unread: limit (limit pages returned, more queued), depth (every page within max_depth read, links went deeper), deadline (timeout_ms), rate_limited (the key ran out of requests), fetch_budget (limit + ${L.extraFetches} pages fetched), char_budget (the answer's ${L.totalChars} characters used up); null when complete.`,
  },
);
export type CrawlStop = Static<typeof CrawlStop>;

export const CrawlSkipped = Type.Object(
  { url: Type.String(), reason: Type.String() },
  { title: 'CrawlSkipped', additionalProperties: false },
);

export const CrawlResponse = Type.Object(
  {
    request_id: Type.String(),
    url: Type.String({ description: 'The start URL as requested.' }),
    pages: Type.Array(CrawlPage, { description: 'The pages read, in crawl order (breadth first).' }),
    complete: Type.Boolean({
      description: 'True when every page within reach (max_depth, the patterns, the site) was read.',
    }),
    stopped: Nullable(CrawlStop),
    pages_read: Type.Integer({ description: 'Pages fetched, those that failed or were not returned included.' }),
    sitemaps_read: Type.Integer({ description: 'Sitemap files fetched (sitemap: include).' }),
    charged: Type.Integer({
      description: "Requests taken from the key's rate limit: one per page or sitemap fetched, at least 1.",
    }),
    skipped: Type.Array(CrawlSkipped, {
      maxItems: L.skipped,
      description: `URLs the crawl did not read or return, with why (robots.txt, a refused address, a redirect off the site, an error): the first ${L.skipped}.`,
    }),
    response_time_ms: Type.Number(),
  },
  { title: 'CrawlResponse', additionalProperties: false },
);
export type CrawlResponse = Static<typeof CrawlResponse>;
