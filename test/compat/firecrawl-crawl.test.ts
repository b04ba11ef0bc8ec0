import { describe, expect, it } from 'vitest';
import { firecrawlCrawlPlan } from '../../src/compat/firecrawl-crawl.ts';
import { firecrawlCancelBody, firecrawlCrawlStatusBody } from '../../src/compat/firecrawl-crawl-status.ts';
import { jobPatternsFilter } from '../../src/compat/job-patterns.ts';
import type { CrawlJob } from '../../src/schemas/crawl-job.ts';
import type { CrawlPage } from '../../src/schemas/crawl.ts';

const url = 'https://a.example/';

describe('Firecrawl crawl requests', () => {
  it("take Firecrawl's defaults: 10000 pages (served: 100, saying so), no depth bound (Scout's 5), sitemaps, no deadline (Scout's longest)", () => {
    expect(firecrawlCrawlPlan({ url: ` ${url} ` })).toEqual({
      request: {
        url,
        max_depth: 5,
        limit: 100,
        include_subdomains: false,
        sitemap: 'include',
        max_chars: 20_000,
        timeout_ms: 600_000,
        async: true,
      },
      hints: [
        "limit 10000 (Firecrawl's default) is more than Scout's crawl returns: it returns at most 100 pages; when more are within reach GET /v2/crawl/{id} says so",
      ],
    });
  });

  it('map each field Scout serves', () => {
    const plan = firecrawlCrawlPlan({
      url: 'https://a.example/docs/',
      limit: 10,
      maxDiscoveryDepth: 2,
      includePaths: ['^/docs/guides/'],
      excludePaths: '/internal/',
      allowSubdomains: true,
      sitemap: 'skip',
      ignoreQueryParameters: false,
      deduplicateSimilarURLs: true,
      scrapeOptions: { formats: ['markdown', { type: 'markdown' }], onlyMainContent: true, maxAge: 0, timeout: 30_000 },
      timeout: 30_000,
      delay: 2,
      maxConcurrency: 4,
      integration: 'x',
      origin: 'js-sdk@4',
      somethingNew: { a: 1 },
      webhook: null,
      prompt: '',
    });
    expect(plan).toEqual({
      request: {
        url: 'https://a.example/docs/',
        max_depth: 2,
        limit: 10,
        include_subdomains: true,
        sitemap: 'skip',
        // 2,000,000 characters shared by 10 pages: each may be Scout's whole 200,000.
        max_chars: 200_000,
        timeout_ms: 30_000,
        async: true,
      },
      patterns: { select_paths: ['^/docs/guides/'], exclude_paths: ['/internal/'], path_prefix: '/docs/' },
      hints: [],
    });
  });

  it("keep to the start URL's path and below unless crawlEntireDomain (or its older name)", () => {
    expect(firecrawlCrawlPlan({ url: 'https://a.example/blog' }).patterns).toEqual({ path_prefix: '/blog' });
    expect(firecrawlCrawlPlan({ url: 'https://a.example/blog', crawlEntireDomain: true }).patterns).toBeUndefined();
    expect(firecrawlCrawlPlan({ url: 'https://a.example/blog', allowBackwardLinks: true }).patterns).toBeUndefined();
    // The root's hierarchy is the whole site.
    expect(firecrawlCrawlPlan({ url }).patterns).toBeUndefined();
  });

  it('say what they serve otherwise than asked: a limit past 100, a depth past 5, ignoreQueryParameters', () => {
    const plan = firecrawlCrawlPlan({ url, limit: 500, maxDiscoveryDepth: 9, ignoreQueryParameters: true });
    expect([plan.request.limit, plan.request.max_depth]).toEqual([100, 5]);
    expect(plan.hints).toEqual([
      "limit 500 is more than Scout's crawl returns: it returns at most 100 pages; when more are within reach GET /v2/crawl/{id} says so",
      'maxDiscoveryDepth 9 is deeper than Scout crawls: it follows at most 5 links',
      'ignoreQueryParameters is not applied: Scout reads URLs that differ in their query as pages of their own (tracking parameters aside), so a path may come more than once',
    ]);
    expect(firecrawlCrawlPlan({ url, limit: 100 }).hints).toEqual([]);
    expect(firecrawlCrawlPlan({ url, maxDiscoveryDepth: 0, limit: 1 }).request).toMatchObject({
      max_depth: 0,
      limit: 1,
      max_chars: 200_000,
    });
    expect(firecrawlCrawlPlan({ url, timeout: 10 }).request.timeout_ms).toBe(1000);
    expect(firecrawlCrawlPlan({ url, timeout: 3_600_000 }).request.timeout_ms).toBe(600_000);
    expect(firecrawlCrawlPlan({ url, ignoreSitemap: true }).request.sitemap).toBe('skip');
  });

  it('refuse what Scout cannot read or honour, naming it', () => {
    const refused = (body: Record<string, unknown>) => () => firecrawlCrawlPlan({ url, ...body });
    expect(() => firecrawlCrawlPlan({ url: 'a.example' })).toThrow('url is not an absolute http(s) URL');
    expect(() => firecrawlCrawlPlan({})).toThrow('url is required');
    expect(refused({ limit: 0 })).toThrow('limit must be a whole number from 1');
    expect(refused({ maxDiscoveryDepth: -1 })).toThrow('maxDiscoveryDepth must be a whole number from 0');
    expect(refused({ maxDiscoveryDepth: 1.5 })).toThrow('maxDiscoveryDepth must be a whole number from 0');
    expect(refused({ sitemap: 'only' })).toThrow('sitemap "only" is not served for a crawl');
    expect(refused({ sitemap: 'yes' })).toThrow('sitemap must be "include" or "skip"');
    expect(refused({ allowSubdomains: 'yes' })).toThrow('allowSubdomains must be true or false');
    expect(refused({ crawlEntireDomain: 1 })).toThrow('crawlEntireDomain must be true or false');
    expect(refused({ allowExternalLinks: true })).toThrow(
      "allowExternalLinks true is not served: Scout's crawl stays on the start URL's site",
    );
    expect(refused({ allowExternalLinks: false })).not.toThrow();
    expect(refused({ ignoreRobotsTxt: true })).toThrow('ignoreRobotsTxt true is not served');
    expect(refused({ regexOnFullURL: true })).toThrow('regexOnFullURL true is not served');
    expect(refused({ zeroDataRetention: true })).toThrow('zeroDataRetention true is not served');
    expect(refused({ webhook: 'https://hooks.example/x' })).toThrow('webhook is not served: Scout calls no webhook');
    expect(refused({ webhook: { url: 'https://hooks.example/x' } })).toThrow('webhook is not served');
    expect(refused({ prompt: 'only the blog' })).toThrow('prompt is not served: Scout runs no model');
    expect(refused({ robotsUserAgent: 'MyBot' })).toThrow('robotsUserAgent is not served');
    expect(refused({ includePaths: ['(a)\\1'] })).toThrow(
      /^includePaths pattern "\(a\)\\\\1" is not served: backreferences/,
    );
    expect(refused({ excludePaths: [1] })).toThrow('excludePaths must be a list of regular expressions (strings)');
    expect(refused({ timeout: 'soon' })).toThrow('timeout must be a positive number of milliseconds');
    expect(refused({ scrapeOptions: 'markdown' })).toThrow('scrapeOptions must be an object');
  });

  it("refuse a format other than markdown, and the scrape options /v2/scrape refuses, in /v2/scrape's words", () => {
    const options = (scrapeOptions: Record<string, unknown>) => () => firecrawlCrawlPlan({ url, scrapeOptions });
    expect(options({ formats: ['markdown', 'screenshot'] })).toThrow(
      'scrapeOptions.formats "screenshot" is not served for a crawl: Scout reads pages without a browser and takes no screenshots. A crawl\'s pages come as markdown',
    );
    expect(options({ formats: [{ type: 'links' }] })).toThrow(
      "scrapeOptions.formats \"links\" is not served for a crawl: Scout's crawl keeps each page's markdown only; POST /v2/scrape gives a page's links",
    );
    expect(options({ formats: ['html'] })).toThrow('Scout keeps the main content as markdown, not as HTML');
    expect(options({ onlyMainContent: false })).toThrow('scrapeOptions.onlyMainContent false is not served');
    expect(options({ actions: [{ type: 'wait', milliseconds: 5 }] })).toThrow(
      'scrapeOptions.actions is not served: Scout reads pages without a browser',
    );
    expect(options({ headers: { cookie: 'a' } })).toThrow('scrapeOptions.headers is not served');
    expect(options({ timeout: -1 })).toThrow('scrapeOptions.timeout must be a positive number of milliseconds');
    expect(options({ formats: [] })).not.toThrow();
  });
});

describe('job patterns', () => {
  const keeps = (p: Parameters<typeof jobPatternsFilter>[0], paths: string[]) => {
    const f = jobPatternsFilter(p);
    return paths.filter((path) => f === undefined || f(new URL(path, url)));
  };
  const paths = ['/', '/blog', '/blog/a', '/blog-old', '/docs/guides/x', '/docs/internal/y'];

  it("keep the start path's hierarchy as Firecrawl does (a prefix, as text), and the regexes on the path", () => {
    expect(jobPatternsFilter({})).toBeUndefined();
    expect(keeps({ path_prefix: '/blog' }, paths)).toEqual(['/blog', '/blog/a', '/blog-old']);
    expect(keeps({ path_prefix: '/blog/' }, paths)).toEqual(['/blog/a']);
    expect(keeps({ select_paths: ['^/docs/'], exclude_paths: ['internal'] }, paths)).toEqual(['/docs/guides/x']);
    expect(keeps({ select_paths: ['a$'], path_prefix: '/blog' }, paths)).toEqual(['/blog/a']);
  });
});

const page = (path: string, over: Partial<CrawlPage> = {}): CrawlPage => ({
  url: `https://a.example${path}`,
  final_url: `https://a.example${path}`,
  title: `Page ${path}`,
  depth: 1,
  content: `# ${path}\n`,
  chars: 10,
  total_chars: 10,
  next_index: null,
  truncated: false,
  meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
  ...over,
});

const job = (over: Partial<CrawlJob>): CrawlJob => ({
  request_id: 'r',
  id: 'j1',
  status: 'running',
  url,
  created_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T09:00:01.000Z',
  expires_at: '2026-11-29T09:00:00.000Z',
  pages: [],
  complete: false,
  stopped: null,
  pages_read: 0,
  sitemaps_read: 0,
  charged: 1,
  skipped: [],
  error: null,
  response_time_ms: 1,
  ...over,
});

describe('Firecrawl crawl status answers', () => {
  it('answer a queued or running job as scraping, with its pages so far as documents', () => {
    expect(firecrawlCrawlStatusBody(job({ status: 'queued' }))).toEqual({
      success: true,
      status: 'scraping',
      total: 0,
      completed: 0,
      creditsUsed: 1,
      expiresAt: '2026-11-29T09:00:00.000Z',
      next: null,
      data: [],
    });
    const running = firecrawlCrawlStatusBody(
      job({ pages: [page('/', { meta: { unwrapped: false, click_path: null, content_type: null } })], pages_read: 2 }),
    );
    expect(running).toMatchObject({ status: 'scraping', total: 2, completed: 1 });
    expect(running.data).toEqual([
      {
        markdown: '# /\n',
        metadata: {
          title: 'Page /',
          sourceURL: 'https://a.example/',
          url: 'https://a.example/',
          statusCode: 200,
          cacheState: 'miss',
        },
      },
    ]);
  });

  it('answer a job stopped by a bound as completed, saying which bound and where the skipped URLs are listed', () => {
    const body = firecrawlCrawlStatusBody(
      job({
        status: 'completed',
        stopped: 'limit',
        pages: [page('/'), page('/long', { chars: 20, total_chars: 90, next_index: 20, truncated: true })],
        pages_read: 3,
        charged: 3,
        skipped: [{ url: 'https://a.example/x', reason: 'disallowed by robots.txt' }],
      }),
    );
    expect(body).toMatchObject({ status: 'completed', total: 3, completed: 2, creditsUsed: 3 });
    expect(body.data[1]?.warning).toBe(
      "the page's markdown was cut at 20 of its 90 characters (a crawl shares 2000000 characters among its pages): POST /v2/scrape gives the page whole",
    );
    expect(body.agent_hints).toEqual([
      'the crawl returned limit pages and more were within reach: ask for a higher limit (Scout returns at most 100 per crawl), or narrow it with includePaths or a start URL deeper in the site',
      '1 URL was not read or not returned (robots.txt, failed fetches, redirects off the site): GET /v1/crawl/j1, with the same key, lists them with why',
    ]);
    const whole = firecrawlCrawlStatusBody(job({ status: 'completed', complete: true, pages: [page('/')] }));
    expect(whole.agent_hints).toBeUndefined();
    expect(whole.status).toBe('completed');
  });

  it('answer a failed job with its reason, a cancelled one as cancelled', () => {
    const failed = firecrawlCrawlStatusBody(
      job({ status: 'failed', error: { status: 403, message: 'refused: 10.0.0.1 is not a public address' } }),
    );
    expect([failed.status, failed.error]).toEqual(['failed', 'refused: 10.0.0.1 is not a public address']);
    expect(firecrawlCrawlStatusBody(job({ status: 'cancelled' })).status).toBe('cancelled');
  });

  it("answer a cancel as the SDK's cancelCrawl reads it: cancelled, or how the job had ended", () => {
    expect(firecrawlCancelBody(job({ status: 'cancelled' }))).toEqual({ success: true, status: 'cancelled' });
    expect(firecrawlCancelBody(job({ status: 'completed' }))).toEqual({ success: true, status: 'completed' });
    expect(firecrawlCancelBody(job({ status: 'failed' }))).toEqual({ success: true, status: 'failed' });
  });
});
