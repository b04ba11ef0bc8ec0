import { Type, type Static } from '@sinclair/typebox';

/**
 * The Firecrawl v2 shape (docs/compat.md), as @mendable/firecrawl-js, firecrawl-py and the
 * apps on them read it. Requests are read leniently by src/compat/firecrawl-*.ts (unknown
 * fields ignored), so the request schemas here only document them.
 */

export const FirecrawlMetadata = Type.Object(
  {
    title: Type.Optional(Type.String({ description: 'Always there when the page was read.' })),
    description: Type.Optional(Type.String({ description: "The page's meta description (or og:description)." })),
    language: Type.Optional(Type.String({ description: 'The `lang` of the page.' })),
    sourceURL: Type.String({ description: 'The URL asked for.' }),
    url: Type.String({ description: 'The URL read, after redirects.' }),
    statusCode: Type.Optional(
      Type.Integer({
        description: "The origin's status, a 2xx (any other is an error); there when the page was read.",
      }),
    ),
    contentType: Type.Optional(Type.String({ description: 'The media type of the page.' })),
    cacheState: Type.Optional(Type.Literal('miss', { description: 'Always miss: Scout reads every page live.' })),
    error: Type.Optional(Type.String({ description: 'In a search result whose page could not be read: why.' })),
  },
  { title: 'FirecrawlMetadata', additionalProperties: false },
);
export type FirecrawlMetadata = Static<typeof FirecrawlMetadata>;

const documentFields = {
  markdown: Type.Optional(Type.String({ description: "The page's main content as markdown (as /v1/fetch)." })),
  rawHtml: Type.Optional(Type.String({ description: 'The body as fetched, as text (absent for a PDF).' })),
  links: Type.Optional(
    Type.Array(Type.String(), { description: 'Every link of the page, absolute, once each, fragments removed.' }),
  ),
  summary: Type.Optional(
    Type.String({
      description:
        "Extractive, no model: the page's meta description, else its first paragraphs (about 1,000 characters).",
    }),
  ),
  warning: Type.Optional(Type.String({ description: 'What Scout could not give of what was asked.' })),
};

export const FirecrawlDocument = Type.Object(
  { ...documentFields, metadata: FirecrawlMetadata },
  { title: 'FirecrawlDocument', additionalProperties: false },
);
export type FirecrawlDocument = Static<typeof FirecrawlDocument>;

export const FirecrawlScrapeResponse = Type.Object(
  { success: Type.Literal(true), data: FirecrawlDocument },
  { title: 'FirecrawlScrapeResponse', additionalProperties: false },
);
export type FirecrawlScrapeResponse = Static<typeof FirecrawlScrapeResponse>;

export const FirecrawlWebResult = Type.Object(
  {
    url: Type.String(),
    title: Type.String({ description: 'Sponsored entries start with "Sponsored: ".' }),
    description: Type.String({
      description: 'Sponsored entries start with "Sponsored by <advertiser> (an ad, not a search result)."',
    }),
    position: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Organic rank, from 1, in /v1 order; sponsored entries have none.' }),
    ),
    category: Type.Optional(Type.Literal('sponsored', { description: 'Only on sponsored entries.' })),
    ...documentFields,
    metadata: Type.Optional(FirecrawlMetadata),
  },
  { title: 'FirecrawlWebResult', additionalProperties: false },
);
export type FirecrawlWebResult = Static<typeof FirecrawlWebResult>;

export const FirecrawlSearchResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({ web: Type.Array(FirecrawlWebResult) }, { additionalProperties: false }),
    warning: Type.Optional(Type.String({ description: 'What Scout could not give of what was asked (news, images).' })),
  },
  { title: 'FirecrawlSearchResponse', additionalProperties: false },
);
export type FirecrawlSearchResponse = Static<typeof FirecrawlSearchResponse>;

/** Firecrawl's error shape: the SDKs read `error` (and `code` when present). */
export const FirecrawlError = Type.Object(
  { success: Type.Literal(false), error: Type.String() },
  { title: 'FirecrawlError', additionalProperties: false },
);
export type FirecrawlError = Static<typeof FirecrawlError>;

const doc = (description: string) => Type.Optional(Type.Unknown({ description }));

const scrapeFields = {
  formats: doc(
    'markdown (default), rawHtml, links, summary: names or {"type": …} objects. Any other format is 400, naming it.',
  ),
  onlyMainContent: doc('true (default). false is 400: Scout gives the main content; rawHtml is the whole page.'),
  timeout: doc("Milliseconds; the page must be read within it (and within Scout's own fetch deadline)."),
  maxAge: doc('Ignored: Scout keeps no cache, every page is read live, so never older than asked.'),
  actions: doc('Non-empty is 400: no browser.'),
  headers: doc('Non-empty is 400: Scout sends its own headers.'),
  includeTags: doc('Non-empty is 400.'),
  excludeTags: doc('Non-empty is 400.'),
  location: doc('Set is 400: Scout fetches from its own network.'),
};

/** POST /v2/scrape, for OpenAPI; src/compat/firecrawl-scrape.ts reads it. */
export const FirecrawlScrapeBody = Type.Object(
  { url: Type.String({ description: 'Absolute http(s) URL, 1..2048 characters.' }), ...scrapeFields },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);

/** POST /v2/search, for OpenAPI; src/compat/firecrawl-search.ts reads it. */
export const FirecrawlSearchBody = Type.Object(
  {
    query: Type.String({ description: 'The search query, 1..400 characters.' }),
    limit: doc('1..100 in Firecrawl, default 5; Scout serves at most 20 (more asks for 20).'),
    tbs: doc('qdr:d, qdr:w, qdr:m, qdr:y, or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY. Anything else is 400.'),
    location: doc('A country name, or "City,Region,Country" (the country is used).'),
    country: doc('An ISO 3166-1 alpha-2 code.'),
    sources: doc('Must include web; news and images are not searched (the answer says so in warning).'),
    includeDomains: doc('Domains, at most 50.'),
    excludeDomains: doc('Domains, at most 50.'),
    scrapeOptions: doc('As /v2/scrape: each organic result read, in parallel, with the formats asked for.'),
    timeout: doc('Milliseconds for the pages of scrapeOptions; a page not read by then carries metadata.error.'),
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);

export const FirecrawlMapResponse = Type.Object(
  {
    success: Type.Literal(true),
    links: Type.Array(
      Type.Object(
        {
          url: Type.String(),
          title: Type.Optional(Type.String({ description: "The page's title, when the map read the page." })),
        },
        { additionalProperties: false },
      ),
      { description: "The site's URLs, in /v1/map's order (with search: the best matches first)." },
    ),
    agent_hints: Type.Optional(
      Type.Array(Type.String(), {
        description: 'When the map stopped before reading everything: why, and what to do.',
      }),
    ),
  },
  { title: 'FirecrawlMapResponse', additionalProperties: false },
);
export type FirecrawlMapResponse = Static<typeof FirecrawlMapResponse>;

/** POST /v2/map, for OpenAPI; src/compat/firecrawl-map.ts reads it. */
export const FirecrawlMapBody = Type.Object(
  {
    url: Type.String({ description: 'Absolute http(s) URL, 1..2048 characters.' }),
    search: doc("/v1/map's search: only URLs whose path or title match its words, best first; 1..200 characters."),
    sitemap: doc('include (default), only or skip, as /v1/map.'),
    includeSubdomains: doc("true (Firecrawl's default) or false."),
    ignoreQueryParameters: doc("true (Firecrawl's default): URLs without their query, each once; false: as found."),
    limit: doc("Firecrawl's default 5000; Scout returns at most 5000 (more asks for 5000)."),
    timeout: doc(
      'Milliseconds for the whole map, within 1000..60000 (default 30000); the map then answers with what it found.',
    ),
    location: doc('Ignored: a map lists URLs from sitemaps and links, which Scout reads from its own network.'),
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);
