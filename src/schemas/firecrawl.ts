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
        description:
          "The origin's status, a 2xx (any other is an error); there when the page was read. A crawl's page says 200: the crawl keeps pages answered 2xx, not their exact status.",
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

/** POST /v2/crawl, for OpenAPI; src/compat/firecrawl-crawl.ts reads it. */
export const FirecrawlCrawlBody = Type.Object(
  {
    url: Type.String({ description: 'Absolute http(s) URL, 1..2048 characters: the start page.' }),
    limit: doc("Pages returned; Firecrawl's default 10000; Scout returns at most 100 (more asks for 100, saying so)."),
    maxDiscoveryDepth: doc(
      'Links followed from the start page, from 0; absent or more than 5: 5 (Scout crawls at most 5 deep).',
    ),
    includePaths: doc('Regexes on the URL path (RE2 syntax): only pages whose path matches one are read; at most 20.'),
    excludePaths: doc('Regexes on the URL path: pages whose path matches one are never read; at most 20.'),
    crawlEntireDomain: doc("false (Firecrawl's default): only the start URL's path and below; true: the whole site."),
    allowSubdomains: doc("false (Firecrawl's default), or true: also the hosts under the start host."),
    sitemap: doc('include (default): the sitemaps are read too; skip: links only. only is 400.'),
    ignoreQueryParameters: doc('Read; true is not applied (the answer says so in agent_hints).'),
    scrapeOptions: doc('formats must be markdown only; the options /v2/scrape refuses are refused the same way.'),
    timeout: doc('Milliseconds for the whole crawl, 1000..600000; absent: 600000 (Firecrawl has no crawl deadline).'),
    allowExternalLinks: doc('true is 400: the crawl stays on the site.'),
    ignoreRobotsTxt: doc('true is 400: Scout always follows robots.txt.'),
    regexOnFullURL: doc('true is 400: includePaths and excludePaths match the path.'),
    webhook: doc('Set is 400: Scout calls no webhook; poll GET /v2/crawl/{id}.'),
    prompt: doc('Set is 400: Scout runs no model.'),
    zeroDataRetention: doc("true is 400: a job's pages are kept until it expires (24 h)."),
    delay: doc('Ignored: Scout paces each host itself (and follows Crawl-delay).'),
    maxConcurrency: doc('Ignored: Scout paces each host itself.'),
  },
  { additionalProperties: true, description: 'Any other field is ignored.' },
);

const agentHints = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));

export const FirecrawlCrawlResponse = Type.Object(
  {
    success: Type.Literal(true),
    id: Type.String({ description: 'The crawl job: GET /v2/crawl/{id} reads it, DELETE /v2/crawl/{id} cancels it.' }),
    url: Type.String({
      description:
        "GET /v2/crawl/{id} as an absolute URL: SCOUT_PUBLIC_URL when set, else the request's own host. Read with the key that started the job (in a header: the URL never carries a path key).",
    }),
    agent_hints: agentHints('What Scout does otherwise than asked (a limit above 100, a depth above 5, …).'),
  },
  { title: 'FirecrawlCrawlResponse', additionalProperties: false },
);
export type FirecrawlCrawlResponse = Static<typeof FirecrawlCrawlResponse>;

export const FirecrawlCrawlState = Type.Union(
  [Type.Literal('scraping'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')],
  {
    description:
      'scraping (queued or running), completed (the crawl ended: every page within reach, or stopped by a bound: agent_hints says which), failed (nothing of the site could be crawled: see error), cancelled.',
  },
);
export type FirecrawlCrawlState = Static<typeof FirecrawlCrawlState>;

export const FirecrawlCrawlStatusResponse = Type.Object(
  {
    success: Type.Literal(true),
    status: FirecrawlCrawlState,
    total: Type.Integer({
      minimum: 0,
      description: 'Pages fetched so far: the pages in data, those being read, and those that failed or were not kept.',
    }),
    completed: Type.Integer({ minimum: 0, description: 'Pages in data.' }),
    creditsUsed: Type.Integer({
      minimum: 0,
      description: "Requests the crawl took from the key's rate limit: one per page or sitemap fetched, at least 1.",
    }),
    expiresAt: Type.String({
      description: 'When the job and its pages are deleted (24 h after it was made); ISO 8601 UTC.',
    }),
    next: Type.Null({ description: 'Always null: data holds every page so far.' }),
    data: Type.Array(FirecrawlDocument, {
      description: 'The pages read so far (all of them once the job has ended), in crawl order, as markdown.',
    }),
    agent_hints: agentHints(
      'Once the job has ended: why pages were left unread (a bound), and where the URLs skipped are listed.',
    ),
    error: Type.Optional(Type.String({ description: 'A failed job: why nothing of the site could be crawled.' })),
  },
  { title: 'FirecrawlCrawlStatusResponse', additionalProperties: false },
);
export type FirecrawlCrawlStatusResponse = Static<typeof FirecrawlCrawlStatusResponse>;

export const FirecrawlCrawlCancelResponse = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Union([Type.Literal('cancelled'), Type.Literal('completed'), Type.Literal('failed')], {
      description:
        "cancelled; or the job's end when it had already ended (the SDK's cancelCrawl then returns false). Its pages so far stay readable.",
    }),
  },
  { title: 'FirecrawlCrawlCancelResponse', additionalProperties: false },
);
export type FirecrawlCrawlCancelResponse = Static<typeof FirecrawlCrawlCancelResponse>;
