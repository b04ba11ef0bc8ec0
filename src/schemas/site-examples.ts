import { REQUEST_ID } from './example-ids.ts';
import type { CrawlJob } from './crawl-job.ts';
import type { CrawlPage, CrawlRequest, CrawlResponse, CrawlStop } from './crawl.ts';
import type { ExtractFailure, ExtractPage, ExtractPassage, ExtractRequest, ExtractResponse } from './extract.ts';
import type {
  FirecrawlCrawlCancelResponse,
  FirecrawlCrawlResponse,
  FirecrawlCrawlStatusResponse,
  FirecrawlMapResponse,
} from './firecrawl.ts';
import type { MapLink, MapRequest, MapResponse, MapStop } from './map.ts';
import type { TavilyCrawlResponse, TavilyMapResponse } from './tavily.ts';

/**
 * Examples of the shapes that read several pages or a whole site (POST /v1/map, /v1/crawl
 * and its jobs, /v1/extract, and their compat shapes), by component name; examples.ts
 * gathers them with the rest. Typed, and validated against their schemas by a test.
 */
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

const crawlJob: CrawlJob = {
  request_id: REQUEST_ID,
  id: '0b6f7d0e-5c1a-4d2b-9f3e-8a7c6b5d4e21',
  status: 'running',
  url: crawlRequest.url,
  created_at: '2026-11-28T09:14:02.120Z',
  updated_at: '2026-11-28T09:14:09.871Z',
  expires_at: '2026-11-29T09:14:02.120Z',
  pages: [crawlStart],
  complete: false,
  stopped: null,
  pages_read: 2,
  sitemaps_read: 0,
  charged: 2,
  skipped: [],
  error: null,
  response_time_ms: 3.1,
};

// The job above in the Firecrawl shape (src/compat/firecrawl-crawl-status.ts), started, read and cancelled.
const firecrawlCrawlResponse: FirecrawlCrawlResponse = {
  success: true,
  id: crawlJob.id,
  url: `https://scout.example.com/v2/crawl/${crawlJob.id}`,
  agent_hints: [
    "limit 10000 (Firecrawl's default) is more than Scout's crawl returns: it returns at most 100 pages; when more are within reach GET /v2/crawl/{id} says so",
  ],
};
const firecrawlCrawlScraping: FirecrawlCrawlStatusResponse = {
  success: true,
  status: 'scraping',
  total: 2,
  completed: 1,
  creditsUsed: 2,
  expiresAt: crawlJob.expires_at,
  next: null,
  data: [
    {
      markdown: crawlStart.content,
      metadata: {
        title: crawlStart.title,
        sourceURL: crawlStart.url,
        url: crawlStart.final_url,
        statusCode: 200,
        contentType: 'text/html',
        cacheState: 'miss',
      },
    },
  ],
};
const firecrawlCrawlCompleted: FirecrawlCrawlStatusResponse = {
  ...firecrawlCrawlScraping,
  status: 'completed',
  total: 3,
  completed: 2,
  creditsUsed: 3,
  data: [
    ...firecrawlCrawlScraping.data,
    {
      markdown: crawlLinked.content,
      metadata: {
        title: crawlLinked.title,
        sourceURL: crawlLinked.url,
        url: crawlLinked.final_url,
        statusCode: 200,
        contentType: 'text/html',
        cacheState: 'miss',
      },
      warning: `the page's markdown was cut at ${crawlLinked.chars} of its ${crawlLinked.total_chars} characters (a crawl shares 2000000 characters among its pages): POST /v2/scrape gives the page whole`,
    },
  ],
  agent_hints: [
    'every page within maxDiscoveryDepth was read and links went deeper: raise maxDiscoveryDepth (Scout follows at most 5 links), or start deeper in the site',
    `1 URL was not read or not returned (robots.txt, failed fetches, redirects off the site): GET /v1/crawl/${crawlJob.id}, with the same key, lists them with why`,
  ],
};
const firecrawlCrawlCancel: FirecrawlCrawlCancelResponse = { success: true, status: 'cancelled' };

export const SITE_EXAMPLES: Record<string, unknown[]> = {
  MapRequest: [mapRequest],
  MapResponse: [mapResponse],
  MapLink: [mapFromSitemap, mapFromPage],
  MapStop: [mapStop],
  MapSkipped: [mapSkipped],
  CrawlRequest: [crawlRequest, { ...crawlRequest, async: true, limit: 100, timeout_ms: 300_000 }],
  CrawlResponse: [crawlResponse],
  CrawlPage: [crawlStart, crawlLinked],
  CrawlStop: [crawlStop],
  CrawlSkipped: [crawlSkipped],
  CrawlJob: [crawlJob],
  CrawlJobStatus: ['running'],
  ExtractRequest: [extractRequest],
  ExtractResponse: [extractResponse],
  ExtractPage: [extractPage, extractWindow],
  ExtractFailure: [extractFailure],
  ExtractPassage: [extractPassage],
  TavilyMapResponse: [tavilyMapResponse],
  TavilyCrawlResponse: [tavilyCrawlResponse],
  FirecrawlMapResponse: [firecrawlMapResponse],
  FirecrawlCrawlResponse: [firecrawlCrawlResponse],
  FirecrawlCrawlStatusResponse: [firecrawlCrawlScraping, firecrawlCrawlCompleted],
  FirecrawlCrawlCancelResponse: [firecrawlCrawlCancel],
};
