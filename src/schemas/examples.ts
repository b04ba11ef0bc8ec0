import { REQUEST_ID } from './example-ids.ts';
import type { ErrorBody } from './error.ts';
import { SITE_EXAMPLES } from './site-examples.ts';
import type { FetchRequest, FetchResponse } from './fetch.ts';
import type { Incentive, Result, SearchRequest, SearchResponse } from './search.ts';
import type { SearxngResponse, SearxngResult } from './searxng.ts';
import type {
  FirecrawlDocument,
  FirecrawlError,
  FirecrawlMetadata,
  FirecrawlScrapeResponse,
  FirecrawlSearchResponse,
  FirecrawlWebResult,
} from './firecrawl.ts';
import type { TavilyError, TavilyExtractResponse, TavilyResult, TavilySearchResponse } from './tavily.ts';
import type { Usage } from './usage.ts';

/**
 * One realistic value of each named wire shape, shown as `examples` of its component in
 * /openapi.json. Typed, so they cannot drift from the schemas unnoticed; a test also
 * validates each against its schema.
 */
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

/** By component name (the schema's title): the `examples` of each component. */
export const EXAMPLES: Record<string, unknown[]> = {
  SearchRequest: [searchRequest],
  SearchResponse: [searchResponse],
  Result: [sponsored, organic],
  Incentive: [incentive],
  FetchRequest: [fetchRequest],
  FetchResponse: [fetchResponse],
  Error: [error],
  Usage: [usage],
  SearxngResponse: [searxngResponse],
  SearxngResult: [searxngSponsored, searxngOrganic],
  TavilySearchResponse: [tavilySearchResponse],
  TavilyResult: [tavilySponsored, tavilyOrganic],
  TavilyExtractResponse: [tavilyExtractResponse],
  TavilyError: [tavilyError],
  FirecrawlScrapeResponse: [firecrawlScrapeResponse],
  FirecrawlDocument: [firecrawlDocument],
  FirecrawlMetadata: [firecrawlMetadata],
  FirecrawlSearchResponse: [firecrawlSearchResponse],
  FirecrawlWebResult: [firecrawlSponsored, firecrawlOrganic],
  FirecrawlError: [firecrawlError],
  ...SITE_EXAMPLES,
};
