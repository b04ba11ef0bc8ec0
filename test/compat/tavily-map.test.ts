import { describe, expect, it } from 'vitest';
import { instructionsSearch, tavilyMapBody, tavilyMapPlan } from '../../src/compat/tavily-map.ts';
import type { MapResponse } from '../../src/schemas/map.ts';

const filterOf = (body: Record<string, unknown>) => {
  const { filter } = tavilyMapPlan({ url: 'https://docs.example.com/', ...body });
  if (filter === undefined) throw new Error('expected a filter');
  return (url: string) => filter(new URL(url));
};

describe('Tavily map requests', () => {
  it("take Tavily's default limit, a bare host as https, and clamp limit to Scout's 5000", () => {
    expect(tavilyMapPlan({ url: 'docs.example.com' })).toEqual({
      request: { url: 'https://docs.example.com', limit: 50 },
      baseUrl: 'docs.example.com',
    });
    expect(tavilyMapPlan({ url: 'http://a.example/x', limit: 100_000 }).request.limit).toBe(5000);
    expect(() => tavilyMapPlan({ url: 'ftp://a.example/' })).toThrow('url is not an absolute http(s) URL');
    expect(() => tavilyMapPlan({})).toThrow(/^url is required/);
    expect(() => tavilyMapPlan({ url: 'a.example', limit: 2.5 })).toThrow('limit must be a whole number from 1');
  });

  it('stop the map 1 s before the timeout the SDK also waits, within 1..60 s', () => {
    const ms = (timeout: unknown) => tavilyMapPlan({ url: 'a.example', timeout }).request.timeout_ms;
    expect(ms(10)).toBe(9000);
    expect(ms(150)).toBe(60_000);
    expect(ms(0.5)).toBe(1000);
    expect(ms(null)).toBeUndefined();
    expect(() => ms(-1)).toThrow('timeout must be a positive number of seconds');
  });

  it('match path regexes on the path and domain regexes on the host, as searches', () => {
    const keep = filterOf({ select_paths: ['/docs/.*', '^/api/v[12]/'], exclude_paths: ['/internal/'] });
    expect(keep('https://docs.example.com/docs/a')).toBe(true);
    expect(keep('https://docs.example.com/en/docs/a')).toBe(true);
    expect(keep('https://docs.example.com/api/v2/users')).toBe(true);
    expect(keep('https://docs.example.com/v1/api/v2/')).toBe(false);
    expect(keep('https://docs.example.com/docs/internal/x')).toBe(false);
    expect(keep('https://docs.example.com/blog?q=/docs/')).toBe(false);
    const hosts = filterOf({ select_domains: ['^docs\\.example\\.com$', 'api'], exclude_domains: ['^beta\\.'] });
    expect(hosts('https://docs.example.com/x')).toBe(true);
    expect(hosts('https://api.example.com/x')).toBe(true);
    expect(hosts('https://beta.api.example.com/x')).toBe(false);
    expect(hosts('https://www.example.com/x')).toBe(false);
  });

  it('map the subdomains when domains are named, and only then', () => {
    expect(tavilyMapPlan({ url: 'example.com', select_domains: ['^docs\\.'] }).request.include_subdomains).toBe(true);
    expect(tavilyMapPlan({ url: 'example.com', exclude_domains: 'blog' }).request.include_subdomains).toBe(true);
    expect(tavilyMapPlan({ url: 'example.com', select_paths: ['/docs'] }).request.include_subdomains).toBeUndefined();
    expect(tavilyMapPlan({ url: 'example.com', select_paths: [] }).filter).toBeUndefined();
  });

  it('refuse a pattern list Scout cannot apply exactly, naming the pattern', () => {
    expect(() => tavilyMapPlan({ url: 'a.example', select_domains: ['docs(?=\\.)'] })).toThrow(
      'select_domains pattern "docs(?=\\\\.)" is not served: lookahead and lookbehind need a backtracking matcher, which Scout does not run on callers’ patterns. Scout matches patterns without backtracking (docs/compat.md lists what it takes)',
    );
    expect(() => tavilyMapPlan({ url: 'a.example', select_paths: [1] })).toThrow(
      'select_paths must be a list of regular expressions (strings)',
    );
    expect(() => tavilyMapPlan({ url: 'a.example', exclude_paths: Array(21).fill('/x') })).toThrow(
      'exclude_paths may list at most 20 patterns on this Scout',
    );
    expect(() => tavilyMapPlan({ url: 'a.example', select_paths: ['x'.repeat(201)] })).toThrow(
      'select_paths patterns must be 1 to 200 characters',
    );
  });

  it("keep instructions' topic words as the search, nothing when they name no topic", () => {
    expect(instructionsSearch('Find all pages about the Python SDK')).toBe('Python SDK');
    expect(instructionsSearch('Only return URLs related to /api/v2 authentication.')).toBe('api/v2 authentication');
    expect(instructionsSearch('Get all the URLs')).toBeUndefined();
    expect(instructionsSearch('list every page')).toBeUndefined();
    expect(instructionsSearch('')).toBeUndefined();
    expect(instructionsSearch(`pricing ${'word '.repeat(100)}`)?.length).toBeLessThanOrEqual(200);
    expect(() => instructionsSearch(3)).toThrow('instructions must be a string');
    expect(tavilyMapPlan({ url: 'a.example', instructions: 'find billing pages' }).request.search).toBe('billing');
  });
});

describe('Tavily map answers', () => {
  it('list the URLs alone, in the map’s order, with base_url as sent', () => {
    const out = {
      results: [
        { url: 'https://a.example/', source: 'sitemap', title: null, lastmod: null },
        { url: 'https://a.example/b', source: 'page', title: 'B', lastmod: null },
      ],
    } as MapResponse;
    const plan = tavilyMapPlan({ url: 'a.example' });
    expect(tavilyMapBody(plan, out, { requestId: 'req_1', startedAt: performance.now() - 1500 } as never)).toEqual({
      base_url: 'a.example',
      results: ['https://a.example/', 'https://a.example/b'],
      response_time: expect.any(Number),
      request_id: 'req_1',
    });
  });
});
