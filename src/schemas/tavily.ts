import { Type, type Static } from '@sinclair/typebox';
import { CRAWL_LIMITS } from './crawl.ts';

/**
 * The Tavily shape (docs/compat.md), as @tavily/core, tavily-python and LangChain's Tavily
 * tools read it. Requests are read leniently by src/compat/tavily-*.ts (unknown fields
 * ignored), so the request schemas here only document them.
 */
export const TavilyResult = Type.Object(
  {
    title: Type.String({ description: 'Sponsored entries start with "Sponsored: ".' }),
    url: Type.String(),
    content: Type.String({
      description: 'Sponsored entries start with "Sponsored by <advertiser> (an ad, not a search result)."',
    }),
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Strictly descending: organic 0.90 at rank 1, 0.01 less a rank; sponsored entries just above 0.90.',
    }),
    raw_content: Type.Union([Type.String(), Type.Null()], {
      description: 'The page as markdown when include_raw_content asked for it, else null.',
    }),
    favicon: Type.Optional(Type.String()),
    published_date: Type.Optional(Type.String({ description: 'ISO 8601, when the result has a date.' })),
  },
  { title: 'TavilyResult', additionalProperties: false },
);
export type TavilyResult = Static<typeof TavilyResult>;

export const TavilySearchResponse = Type.Object(
  {
    query: Type.String(),
    follow_up_questions: Type.Null({ description: 'Always null: Scout writes no follow-up questions.' }),
    answer: Type.Null({ description: 'Always null: Scout writes no answer, it finds pages.' }),
    images: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty: Scout has no image search.' }),
    results: Type.Array(TavilyResult),
    response_time: Type.Number({ description: 'Seconds.' }),
    request_id: Type.String(),
  },
  { title: 'TavilySearchResponse', additionalProperties: false },
);
export type TavilySearchResponse = Static<typeof TavilySearchResponse>;

export const TavilyExtractResponse = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          url: Type.String(),
          raw_content: Type.String({ description: "The page's main content as markdown." }),
          images: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty.' }),
        },
        { additionalProperties: false },
      ),
    ),
    failed_results: Type.Array(
      Type.Object({ url: Type.String(), error: Type.String() }, { additionalProperties: false }),
    ),
    response_time: Type.Number({ description: 'Seconds.' }),
    request_id: Type.String(),
  },
  { title: 'TavilyExtractResponse', additionalProperties: false },
);
export type TavilyExtractResponse = Static<typeof TavilyExtractResponse>;

/** Tavily's error shape: the SDKs read detail.error. */
export const TavilyError = Type.Object(
  { detail: Type.Object({ error: Type.String() }, { additionalProperties: false }) },
  { title: 'TavilyError', additionalProperties: false },
);
export type TavilyError = Static<typeof TavilyError>;

/** POST /search with a JSON body, for OpenAPI; src/compat/tavily-request.ts reads it. */
export const TavilySearchBody = Type.Object(
  {
    query: Type.String({ description: 'The search query, 1..400 characters.' }),
    api_key: Type.Optional(
      Type.Unknown({ description: 'The key, for clients that send it in the body rather than as a Bearer header.' }),
    ),
    max_results: Type.Optional(Type.Unknown({ description: '0..20, default 5; clamped into 1..20.' })),
    search_depth: Type.Optional(
      Type.Unknown({ description: 'basic, advanced, fast or ultra-fast (fast and ultra-fast as basic).' }),
    ),
    time_range: Type.Optional(Type.Unknown({ description: 'day, week, month, year or d, w, m, y.' })),
    days: Type.Optional(Type.Unknown({ description: 'With topic "news": only pages from the last n days.' })),
    start_date: Type.Optional(Type.Unknown({ description: 'YYYY-MM-DD.' })),
    end_date: Type.Optional(Type.Unknown({ description: 'YYYY-MM-DD.' })),
    include_domains: Type.Optional(Type.Unknown({ description: 'Domains, at most 50.' })),
    exclude_domains: Type.Optional(Type.Unknown({ description: 'Domains, at most 50.' })),
    country: Type.Optional(
      Type.Unknown({
        description: 'A lowercase English country name ("united states") or an ISO 3166-1 alpha-2 code.',
      }),
    ),
    include_raw_content: Type.Optional(
      Type.Unknown({ description: 'true, "markdown" or "text": each result carries raw_content.' }),
    ),
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);

/** POST /extract, for OpenAPI; src/compat/tavily-extract.ts reads it. */
export const TavilyExtractBody = Type.Object(
  {
    urls: Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 20 })], {
      description: 'A URL or a list of at most 20.',
    }),
    api_key: Type.Optional(Type.Unknown({ description: 'The key, for clients that send it in the body.' })),
    extract_depth: Type.Optional(Type.Unknown({ description: 'Ignored: Scout has one way to read a page.' })),
    format: Type.Optional(Type.Unknown({ description: 'markdown or text; raw_content is markdown either way.' })),
    include_images: Type.Optional(Type.Unknown({ description: 'Ignored: images is always empty.' })),
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);

export const TavilyMapResponse = Type.Object(
  {
    base_url: Type.String({ description: 'The url as sent.' }),
    results: Type.Array(Type.String(), {
      description: "The site's URLs, in /v1/map's order (with instructions: the best matches first).",
    }),
    response_time: Type.Number({ description: 'Seconds.' }),
    request_id: Type.String(),
  },
  { title: 'TavilyMapResponse', additionalProperties: false },
);
export type TavilyMapResponse = Static<typeof TavilyMapResponse>;

/** POST /map, for OpenAPI; src/compat/tavily-map.ts reads it. */
export const TavilyMapBody = Type.Object(
  {
    url: Type.String({
      description: 'The site to map: an http(s) URL, or a host ("docs.example.com", read as https).',
    }),
    api_key: Type.Optional(Type.Unknown({ description: 'The key, for clients that send it in the body.' })),
    limit: Type.Optional(
      Type.Unknown({ description: 'URLs returned at most; default 50, more than 5000 asks for 5000.' }),
    ),
    select_paths: Type.Optional(
      Type.Unknown({
        description:
          'Regexes on the URL path (at most 20): keep URLs matching one. Matched without backtracking; a construct that needs it is 400.',
      }),
    ),
    exclude_paths: Type.Optional(
      Type.Unknown({ description: 'Regexes on the URL path (at most 20): leave out URLs matching one.' }),
    ),
    select_domains: Type.Optional(
      Type.Unknown({
        description:
          'Regexes on the host name (at most 20): keep URLs matching one; the subdomains of the start host are mapped.',
      }),
    ),
    exclude_domains: Type.Optional(
      Type.Unknown({ description: 'Regexes on the host name (at most 20): leave out URLs matching one.' }),
    ),
    instructions: Type.Optional(
      Type.Unknown({
        description:
          "Its topic words become /v1/map's search (Scout runs no model): only URLs matching them, best first.",
      }),
    ),
    timeout: Type.Optional(
      Type.Unknown({ description: 'Seconds; the map answers with what it found 1 s before it (within 1..60 s).' }),
    ),
    max_depth: Type.Optional(
      Type.Unknown({ description: "Ignored: Scout's map reads at most 20 pages, breadth first, and the sitemaps." }),
    ),
    max_breadth: Type.Optional(Type.Unknown({ description: 'Ignored, as max_depth.' })),
    allow_external: Type.Optional(
      Type.Unknown({ description: 'Ignored: the map never leaves the site, whatever it says.' }),
    ),
    categories: Type.Optional(Type.Unknown({ description: 'Non-empty is 400: Scout has no page categories.' })),
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);

export const TavilyCrawlResponse = Type.Object(
  {
    base_url: Type.String({ description: 'The url as sent.' }),
    results: Type.Array(
      Type.Object(
        {
          url: Type.String({ description: 'The URL the crawl read (the start URL, or a link as found).' }),
          raw_content: Type.String({
            description: `The page's /v1/crawl content: its first ${CRAWL_LIMITS.maxChars.default} characters as markdown (format text: as plain text); with instructions, its passages most relevant to them.`,
          }),
          images: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The pages read, in /v1/crawl order (breadth first).' },
    ),
    response_time: Type.Number({ description: 'Seconds.' }),
    request_id: Type.String(),
  },
  { title: 'TavilyCrawlResponse', additionalProperties: false },
);
export type TavilyCrawlResponse = Static<typeof TavilyCrawlResponse>;

/** POST /crawl, for OpenAPI; src/compat/tavily-crawl.ts reads it (the filters and timeout as POST /map's). */
export const TavilyCrawlBody = Type.Object(
  {
    url: TavilyMapBody.properties.url,
    api_key: TavilyMapBody.properties.api_key,
    max_depth: Type.Optional(
      Type.Unknown({ description: 'Links followed from the start page; default 1, more than 5 asks for 5.' }),
    ),
    limit: Type.Optional(
      Type.Unknown({ description: 'Pages returned at most; default 50, more than 100 asks for 100.' }),
    ),
    select_paths: TavilyMapBody.properties.select_paths,
    exclude_paths: TavilyMapBody.properties.exclude_paths,
    select_domains: Type.Optional(
      Type.Unknown({
        description:
          'Regexes on the host name (at most 20): read only URLs matching one; the subdomains of the start host are crawled.',
      }),
    ),
    exclude_domains: TavilyMapBody.properties.exclude_domains,
    instructions: Type.Optional(
      Type.Unknown({
        description:
          "Its topic words become /v1/crawl's query (Scout runs no model): each page returns its passages most relevant to them, pages with none are left out.",
      }),
    ),
    chunks_per_source: Type.Optional(
      Type.Unknown({ description: 'With instructions: passages per page, default 3 (at most 20).' }),
    ),
    format: Type.Optional(Type.Unknown({ description: 'markdown (default) or text: raw_content as plain text.' })),
    timeout: Type.Optional(
      Type.Unknown({
        description: `Seconds; the crawl answers with what it read 1 s before it (within ${CRAWL_LIMITS.timeoutMs.min / 1000}..${CRAWL_LIMITS.timeoutMs.max / 1000} s).`,
      }),
    ),
    max_breadth: Type.Optional(Type.Unknown({ description: 'Ignored: limit bounds the crawl.' })),
    allow_external: Type.Optional(Type.Unknown({ description: 'Ignored: the crawl never leaves the site.' })),
    categories: TavilyMapBody.properties.categories,
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);
