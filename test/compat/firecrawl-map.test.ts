import { describe, expect, it } from 'vitest';
import { firecrawlMapBody, firecrawlMapPlan } from '../../src/compat/firecrawl-map.ts';
import type { MapLink, MapResponse } from '../../src/schemas/map.ts';

describe('Firecrawl map requests', () => {
  it("take Firecrawl's defaults: subdomains, no query parameters, limit 5000", () => {
    expect(firecrawlMapPlan({ url: ' https://a.example/ ' })).toEqual({
      request: { url: 'https://a.example/', limit: 5000, include_subdomains: true },
      dropQuery: true,
    });
    expect(firecrawlMapPlan({ url: 'https://a.example/', limit: 100_000 }).request.limit).toBe(5000);
    const all = firecrawlMapPlan({
      url: 'https://a.example/',
      includeSubdomains: false,
      ignoreQueryParameters: false,
      sitemap: 'only',
      search: 'billing',
      timeout: 90_000,
      location: { country: 'DE' },
    });
    expect(all).toEqual({
      request: {
        url: 'https://a.example/',
        limit: 5000,
        include_subdomains: false,
        sitemap: 'only',
        search: 'billing',
        timeout_ms: 60_000,
      },
      dropQuery: false,
    });
    expect(firecrawlMapPlan({ url: 'https://a.example/', timeout: 10 }).request.timeout_ms).toBe(1000);
  });

  it('refuse what Scout cannot read, naming it', () => {
    const url = 'https://a.example/';
    expect(() => firecrawlMapPlan({ url: 'a.example' })).toThrow('url is not an absolute http(s) URL');
    expect(() => firecrawlMapPlan({ url, sitemap: 'yes' })).toThrow('sitemap must be "include", "only" or "skip"');
    expect(() => firecrawlMapPlan({ url, includeSubdomains: 'no' })).toThrow('includeSubdomains must be true or false');
    expect(() => firecrawlMapPlan({ url, limit: 0 })).toThrow('limit must be a whole number from 1');
    expect(() => firecrawlMapPlan({ url, search: 'x'.repeat(201) })).toThrow(
      'search must be a string of 1 to 200 characters',
    );
    expect(() => firecrawlMapPlan({ url, timeout: 'soon' })).toThrow(
      'timeout must be a positive number of milliseconds',
    );
  });
});

const link = (url: string, title: string | null = null): MapLink => ({ url, source: 'page', title, lastmod: null });

describe('Firecrawl map answers', () => {
  const out = {
    results: [link('https://a.example/'), link('https://a.example/b?page=2', 'B'), link('https://a.example/b?page=3')],
    stopped: null,
  } as unknown as MapResponse;

  it('drop query parameters by default, each URL once, titles where the map read the page', () => {
    expect(firecrawlMapBody(firecrawlMapPlan({ url: 'https://a.example/' }), out)).toEqual({
      success: true,
      links: [{ url: 'https://a.example/' }, { url: 'https://a.example/b', title: 'B' }],
    });
    expect(
      firecrawlMapBody(firecrawlMapPlan({ url: 'https://a.example/', ignoreQueryParameters: false }), out).links,
    ).toHaveLength(3);
  });

  it('say in agent_hints why a map stopped early', () => {
    const stopped = { ...out, stopped: 'deadline' } as MapResponse;
    expect(firecrawlMapBody(firecrawlMapPlan({ url: 'https://a.example/' }), stopped).agent_hints).toEqual([
      'the map reached its timeout before reading every sitemap and page: more URLs may exist',
    ]);
  });
});
