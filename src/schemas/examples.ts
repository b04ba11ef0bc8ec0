import type { ErrorBody } from './error.ts';
import type { ExtractFailure, ExtractPage, ExtractPassage, ExtractRequest, ExtractResponse } from './extract.ts';
import type { FetchRequest, FetchResponse } from './fetch.ts';
import type { MapLink, MapRequest, MapResponse, MapStop } from './map.ts';
import type { CrawlPage, CrawlRequest, CrawlResponse, CrawlStop } from './crawl.ts';
import type { Incentive, Result, SearchRequest, SearchResponse } from './search.ts';
import type { SearxngResponse, SearxngResult } from './searxng.ts';
import type {
  FirecrawlDocument,
  FirecrawlError,
  FirecrawlMapResponse,
  FirecrawlMetadata,
  FirecrawlScrapeResponse,
  FirecrawlSearchResponse,
  FirecrawlWebResult,
} from './firecrawl.ts';
import type {
  TavilyCrawlResponse,
  TavilyError,
  TavilyExtractResponse,
  TavilyMapResponse,
  TavilyResult,
  TavilySearchResponse,
} from './tavily.ts';
import type { Usage } from './usage.ts';

/**
 * One realistic value of each named wire shape, shown as `examples` of its component in
 * /openapi.json. Typed, so they cannot drift from the schemas unnoticed; a test also
 * validates each against its schema.
 */
const REQUEST_ID = '3f1c9a52-7d4e-4b0a-9c61-2e8f5b7d4a10';
const REC_ID = 'rec_0VDStWQCLCC6PJajLYqQeugj3e1h3sRwaGjt3Ll1bpIpG3mUBiR2';

const incentive: Incentive = { kind: 'credit', benefit: '$50 of free credits for new accounts created by an agent.' };

const sponsored: Result = {
  type: 'sponsored',
  position: 1,
  title: 'Managed Postgres with built-in pooling',
  url: `https://scout.example.com/v1/r/${REC_ID}`,
  domain: 'pgcloud.example',
  content: 'Serverless Postgres with PgBouncer built in. Scale to zero, branch databases per pull request.',
  disclosure: 'Sponsored · PGCloud',
  rec_id: REC_ID,
  incentive,
};

const organic: Result = {
  type: 'organic',
  position: 1,
  title: 'PgBouncer: lightweight connection pooler for PostgreSQL',
  url: 'https://www.pgbouncer.org/usage.html',
  domain: 'pgbouncer.org',
  content:
    'PgBouncer is a lightweight connection pooler for PostgreSQL. Pool modes: session, transaction and statement.',
  published_date: '2025-03-14',
};

const searchRequest: SearchRequest = {
  query: 'postgres connection pooling',
  max_results: 5,
  search_depth: 'basic',
  country: 'US',
};

const searchResponse: SearchResponse = {
  request_id: REQUEST_ID,
  query: 'postgres connection pooling',
  results: [sponsored, organic],
  response_time_ms: 412.37,
  meta: { sponsored_count: 1, result_count: 2 },
};

const fetchRequest: FetchRequest = { url: 'https://www.pgbouncer.org/usage.html', max_chars: 20000 };

const fetchResponse: FetchResponse = {
  request_id: REQUEST_ID,
  url: 'https://www.pgbouncer.org/usage.html',
  final_url: 'https://www.pgbouncer.org/usage.html',
  title: 'Usage',
  content:
    '## Synopsis\n\n```\npgbouncer [-d][-R][-v][-u user] <pgbouncer.ini>\n```\n\n## Description\n\nPgBouncer is a PostgreSQL connection pooler.',
  chars: 130,
  truncated: false,
  response_time_ms: 238.5,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
};

const error: ErrorBody = {
  error: { status: 400, message: 'max_results must be an integer from 1 to 20' },
};

const usage: Usage = {
  request_id: REQUEST_ID,
  rate_limit: { limit_per_minute: 60, remaining: 57, reset_seconds: 3, retry_after_seconds: 0 },
  budget: {
    period: '2026-11',
    units_total: 10000,
    units_used: 4213,
    units_left: 5787,
    resets_at: '2026-12-01T00:00:00.000Z',
    search_cost: { basic: 1, advanced: 2 },
  },
};

// The search above in the SearXNG shape (src/compat/searxng-response.ts makes it so).
const searxngSponsored: SearxngResult = {
  url: sponsored.url,
  title: `Sponsored: ${sponsored.title}`,
  content: `Sponsored by PGCloud (an ad, not a search result). ${sponsored.content} Offer: ${incentive.benefit}`,
  score: 1.01,
  engine: 'sponsored',
  engines: ['sponsored'],
  category: 'sponsored',
};

const searxngOrganic: SearxngResult = {
  url: organic.url,
  title: organic.title,
  content: organic.content,
  score: 1,
  engine: 'brave',
  engines: ['brave'],
  category: 'general',
  publishedDate: '2025-03-14',
};

const searxngResponse: SearxngResponse = {
  query: 'postgres connection pooling',
  number_of_results: 1,
  results: [searxngSponsored, searxngOrganic],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
};

// The same search in the Tavily shape (src/compat/tavily-response.ts).
const tavilySponsored: TavilyResult = {
  title: searxngSponsored.title,
  url: sponsored.url,
  content: searxngSponsored.content,
  score: 0.91,
  raw_content: null,
};

const tavilyOrganic: TavilyResult = {
  title: organic.title,
  url: organic.url,
  content: organic.content,
  score: 0.9,
  raw_content: null,
  published_date: '2025-03-14',
};

const tavilySearchResponse: TavilySearchResponse = {
  query: 'postgres connection pooling',
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [tavilySponsored, tavilyOrganic],
  response_time: 0.41,
  request_id: searchResponse.request_id,
};

const tavilyExtractResponse: TavilyExtractResponse = {
  results: [{ url: fetchRequest.url, raw_content: fetchResponse.content, images: [] }],
  failed_results: [
    {
      url: 'http://10.0.0.7/admin',
      error:
        'refused: 10.0.0.7 is not a public address (private); private, loopback and reserved addresses cannot be fetched',
    },
  ],
  response_time: 0.83,
  request_id: fetchResponse.request_id,
};

const tavilyError: TavilyError = { detail: { error: 'query is required: a string of 1 to 400 characters' } };

// The page above in the Firecrawl shape (src/compat/firecrawl-scrape.ts), and the search.
const firecrawlMetadata: FirecrawlMetadata = {
  title: fetchResponse.title,
  description: 'How to use PgBouncer: connecting, the admin console and its commands.',
  language: 'en',
  sourceURL: fetchRequest.url,
  url: fetchResponse.final_url,
  statusCode: 200,
  contentType: 'text/html',
  cacheState: 'miss',
};
const firecrawlDocument: FirecrawlDocument = {
  markdown: fetchResponse.content,
  links: ['https://www.pgbouncer.org/config.html', 'https://www.pgbouncer.org/faq.html'],
  metadata: firecrawlMetadata,
};
const firecrawlScrapeResponse: FirecrawlScrapeResponse = { success: true, data: firecrawlDocument };
const firecrawlSponsored: FirecrawlWebResult = {
  url: sponsored.url,
  title: searxngSponsored.title,
  description: searxngSponsored.content,
  category: 'sponsored',
};
const firecrawlOrganic: FirecrawlWebResult = {
  url: organic.url,
  title: organic.title,
  description: organic.content,
  position: 1,
};
const firecrawlSearchResponse: FirecrawlSearchResponse = {
  success: true,
  data: { web: [firecrawlSponsored, firecrawlOrganic] },
};
const firecrawlError: FirecrawlError = {
  success: false,
  error:
    'format "screenshot" is not served: Scout reads pages without a browser and takes no screenshots. Scout serves markdown, rawHtml, links and summary',
};

const mapRequest: MapRequest = { url: 'https://docs.example.com/', search: 'authentication', limit: 50 };

const mapFromSitemap: MapLink = {
  url: 'https://docs.example.com/guides/authentication',
  source: 'sitemap',
  title: null,
  lastmod: '2025-05-02',
};
const mapFromPage: MapLink = {
  url: 'https://docs.example.com/api/auth-tokens',
  source: 'page',
  title: 'Auth tokens · API reference',
  lastmod: null,
};
const mapSkipped = {
  url: 'https://docs.example.com/internal/auth-admin',
  reason: 'disallowed by robots.txt; left out',
};

const mapResponse: MapResponse = {
  request_id: REQUEST_ID,
  url: mapRequest.url,
  results: [mapFromSitemap, mapFromPage],
  complete: false,
  stopped: 'page_budget',
  sitemaps_read: 3,
  pages_read: 20,
  charged: 23,
  skipped: [mapSkipped],
  response_time_ms: 6120.4,
};
const mapStop: MapStop = 'page_budget';
// The same map in the Tavily and Firecrawl shapes (src/compat/tavily-map.ts, firecrawl-map.ts).
const tavilyMapResponse: TavilyMapResponse = {
  base_url: 'docs.example.com',
  results: mapResponse.results.map((r) => r.url),
  response_time: 6.12,
  request_id: REQUEST_ID,
};
const firecrawlMapResponse: FirecrawlMapResponse = {
  success: true,
  links: [{ url: mapFromSitemap.url }, { url: mapFromPage.url, title: 'Auth tokens · API reference' }],
  agent_hints: [
    'the map read its 20 pages for links and left others unread: more URLs may exist; search, or a start URL deeper in the site, narrows it',
  ],
};
const crawlRequest: CrawlRequest = {
  url: 'https://docs.example.com/guides/',
  max_depth: 1,
  limit: 20,
  include_paths: ['/guides/**'],
};

const crawlStart: CrawlPage = {
  url: 'https://docs.example.com/guides/',
  final_url: 'https://docs.example.com/guides/',
  title: 'Guides',
  depth: 0,
  content: '## Guides\n\n- [Authentication](https://docs.example.com/guides/authentication)\n',
  chars: 78,
  total_chars: 78,
  next_index: null,
  truncated: false,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
};

const crawlLinked: CrawlPage = {
  url: 'https://docs.example.com/guides/authentication',
  final_url: 'https://docs.example.com/guides/authentication',
  title: 'Authentication',
  depth: 1,
  content: 'Every request carries an API key in the Authorization header.\n\n',
  chars: 63,
  total_chars: 48210,
  next_index: 63,
  truncated: true,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
};

const crawlSkipped = {
  url: 'https://docs.example.com/guides/legacy',
  reason: 'redirected off the site to https://old.example.net/guides/legacy; not followed',
};

const crawlResponse: CrawlResponse = {
  request_id: REQUEST_ID,
  url: crawlRequest.url,
  pages: [crawlStart, crawlLinked],
  complete: false,
  stopped: 'depth',
  pages_read: 3,
  sitemaps_read: 0,
  charged: 3,
  skipped: [crawlSkipped],
  response_time_ms: 1840.2,
};
const crawlStop: CrawlStop = 'deadline';
// The same crawl in the Tavily shape (src/compat/tavily-crawl.ts).
const tavilyCrawlResponse: TavilyCrawlResponse = {
  base_url: 'docs.example.com/guides/',
  results: crawlResponse.pages.map((p) => ({ url: p.url, raw_content: p.content, images: [] })),
  response_time: 1.84,
  request_id: REQUEST_ID,
};

const extractRequest: ExtractRequest = {
  urls: ['https://www.pgbouncer.org/usage.html', 'http://10.0.0.7/admin'],
  query: 'what does pgbouncer do',
  max_passages: 3,
};

const extractPassage: ExtractPassage = {
  text: '## Description\n\nPgBouncer is a PostgreSQL connection pooler.',
  start_index: 70,
  chars: 60,
};

const extractPage: ExtractPage = {
  url: 'https://www.pgbouncer.org/usage.html',
  ok: true,
  final_url: 'https://www.pgbouncer.org/usage.html',
  title: 'Usage',
  content: extractPassage.text,
  passages: [extractPassage],
  chars: 60,
  start_index: 0,
  total_chars: 130,
  next_index: null,
  truncated: false,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
};

const extractWindow: ExtractPage = {
  url: 'https://www.pgbouncer.org/usage.html',
  ok: true,
  final_url: 'https://www.pgbouncer.org/usage.html',
  title: 'Usage',
  content: '## Synopsis\n\n```\npgbouncer [-d][-R][-v][-u user] <pgbouncer.ini>\n```\n\n',
  chars: 70,
  start_index: 0,
  total_chars: 130,
  next_index: 70,
  truncated: true,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
};

const extractFailure: ExtractFailure = {
  url: 'http://10.0.0.7/admin',
  ok: false,
  error: {
    status: 403,
    message:
      'refused: 10.0.0.7 is not a public address (private); private, loopback and reserved addresses cannot be fetched',
  },
};

const extractResponse: ExtractResponse = {
  request_id: REQUEST_ID,
  results: [extractPage, extractFailure],
  response_time_ms: 412.7,
};

/** By component name (the schema's title): the `examples` of each component. */
export const EXAMPLES: Record<string, unknown[]> = {
  SearchRequest: [searchRequest],
  SearchResponse: [searchResponse],
  Result: [sponsored, organic],
  Incentive: [incentive],
  FetchRequest: [fetchRequest],
  FetchResponse: [fetchResponse],
  MapRequest: [mapRequest],
  MapResponse: [mapResponse],
  MapLink: [mapFromSitemap, mapFromPage],
  MapStop: [mapStop],
  MapSkipped: [mapSkipped],
  CrawlRequest: [crawlRequest],
  CrawlResponse: [crawlResponse],
  CrawlPage: [crawlStart, crawlLinked],
  CrawlStop: [crawlStop],
  CrawlSkipped: [crawlSkipped],
  ExtractRequest: [extractRequest],
  ExtractResponse: [extractResponse],
  ExtractPage: [extractPage, extractWindow],
  ExtractFailure: [extractFailure],
  ExtractPassage: [extractPassage],
  Error: [error],
  Usage: [usage],
  SearxngResponse: [searxngResponse],
  SearxngResult: [searxngSponsored, searxngOrganic],
  TavilySearchResponse: [tavilySearchResponse],
  TavilyResult: [tavilySponsored, tavilyOrganic],
  TavilyExtractResponse: [tavilyExtractResponse],
  TavilyMapResponse: [tavilyMapResponse],
  TavilyCrawlResponse: [tavilyCrawlResponse],
  TavilyError: [tavilyError],
  FirecrawlScrapeResponse: [firecrawlScrapeResponse],
  FirecrawlDocument: [firecrawlDocument],
  FirecrawlMetadata: [firecrawlMetadata],
  FirecrawlSearchResponse: [firecrawlSearchResponse],
  FirecrawlWebResult: [firecrawlSponsored, firecrawlOrganic],
  FirecrawlMapResponse: [firecrawlMapResponse],
  FirecrawlError: [firecrawlError],
};
