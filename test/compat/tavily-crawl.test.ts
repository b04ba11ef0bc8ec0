import { describe, expect, it } from 'vitest';
import { tavilyCrawlBody, tavilyCrawlPlan } from '../../src/compat/tavily-crawl.ts';
import type { CrawlPage, CrawlResponse } from '../../src/schemas/crawl.ts';

const plan = (body: Record<string, unknown>) => tavilyCrawlPlan({ url: 'docs.example.com', ...body });

describe('Tavily crawl requests', () => {
  it("take Tavily's defaults (depth 1, 50 pages), a bare host as https, and clamp to Scout's bounds", () => {
    expect(plan({})).toEqual({
      request: { url: 'https://docs.example.com', max_depth: 1, limit: 50 },
      baseUrl: 'docs.example.com',
      text: false,
    });
    expect(plan({ max_depth: 9, limit: 500 }).request).toMatchObject({ max_depth: 5, limit: 100 });
    expect(plan({ max_depth: 0 }).request.max_depth).toBe(0);
    expect(() => plan({ max_depth: -1 })).toThrow('max_depth must be a whole number from 0');
    expect(() => plan({ limit: 1.5 })).toThrow('limit must be a whole number from 1');
    expect(() => tavilyCrawlPlan({})).toThrow('url is required: the site to crawl, as an http(s) URL or a host name');
  });

  it('stop the crawl 1 s before the timeout the SDK also waits, within 1..120 s', () => {
    const ms = (timeout: unknown) => plan({ timeout }).request.timeout_ms;
    expect(ms(10)).toBe(9000);
    expect(ms(150)).toBe(120_000);
    expect(ms(0.5)).toBe(1000);
    expect(ms(null)).toBeUndefined();
    expect(() => ms('x')).toThrow('timeout must be a positive number of seconds');
  });

  it('turn the topic words of instructions into the query, chunks_per_source into passages (default 3)', () => {
    expect(plan({ instructions: 'Find all pages about the Python SDK' }).request).toMatchObject({
      query: 'Python SDK',
      max_passages: 3,
    });
    expect(plan({ instructions: 'auth', chunks_per_source: 50 }).request.max_passages).toBe(20);
    // Without a topic, or without instructions, chunks_per_source has nothing to choose.
    expect(plan({ instructions: 'list every page', chunks_per_source: 2 }).request.query).toBeUndefined();
    expect(plan({ chunks_per_source: 2 }).request.max_passages).toBeUndefined();
    expect(() => plan({ instructions: 'auth', chunks_per_source: 0 })).toThrow(
      'chunks_per_source must be a whole number from 1',
    );
  });

  it('read format, refuse categories, and filter on paths and domains (crawling subdomains when domains are named)', () => {
    expect(plan({ format: 'text' }).text).toBe(true);
    expect(plan({ format: null }).text).toBe(false);
    expect(() => plan({ format: 'html' })).toThrow('format must be "markdown" or "text"');
    expect(() => plan({ categories: ['Blogs'] })).toThrow(/^categories are not served/);
    const p = plan({ select_paths: ['^/docs/'], exclude_domains: ['^old\\.'] });
    expect(p.request.include_subdomains).toBe(true);
    const keeps = (u: string) => p.filter?.(new URL(u));
    expect(keeps('https://docs.example.com/docs/a')).toBe(true);
    expect(keeps('https://docs.example.com/blog/a')).toBe(false);
    expect(keeps('https://old.docs.example.com/docs/a')).toBe(false);
    expect(plan({ select_paths: ['/docs/'] }).request.include_subdomains).toBeUndefined();
  });
});

describe('Tavily crawl answers', () => {
  const page = (url: string, content: string): CrawlPage => ({
    url,
    final_url: url,
    title: '',
    depth: 0,
    content,
    chars: content.length,
    total_chars: content.length,
    next_index: null,
    truncated: false,
    meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
  });
  const out = (pages: CrawlPage[]): CrawlResponse => ({
    request_id: 'r',
    url: 'https://a.example/',
    pages,
    complete: true,
    stopped: null,
    pages_read: pages.length,
    sitemaps_read: 0,
    charged: pages.length,
    skipped: [],
    response_time_ms: 1,
  });
  const ctx = { requestId: 'req_1', startedAt: performance.now() } as Parameters<typeof tavilyCrawlBody>[2];

  it('list the pages in crawl order with their content, images empty; with instructions, only pages with passages', () => {
    const pages = [
      page('https://a.example/', '# Home\n\n**Bold** [link](https://a.example/x)'),
      page('https://a.example/x', ''),
    ];
    const body = tavilyCrawlBody(tavilyCrawlPlan({ url: 'a.example' }), out(pages), ctx);
    expect(body).toMatchObject({ base_url: 'a.example', request_id: 'req_1' });
    expect(body.results).toEqual([
      { url: 'https://a.example/', raw_content: pages[0]?.content, images: [] },
      { url: 'https://a.example/x', raw_content: '', images: [] },
    ]);
    const focused = tavilyCrawlBody(tavilyCrawlPlan({ url: 'a.example', instructions: 'home' }), out(pages), ctx);
    expect(focused.results.map((r) => r.url)).toEqual(['https://a.example/']);
    const text = tavilyCrawlBody(tavilyCrawlPlan({ url: 'a.example', format: 'text' }), out(pages), ctx);
    expect(text.results[0]?.raw_content).toBe('Home\n\nBold link');
  });
});
