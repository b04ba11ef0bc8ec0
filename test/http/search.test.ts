import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result, SearchResponse } from '../../src/schemas/search.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000' });
});
afterAll(() => t.close());

describe('search on the starter corpus', () => {
  it('finds Scout docs at once, numbered from 1, with domains and the provider header', async () => {
    const res = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'API keys authorization header' },
    });
    expect(res.status).toBe(200);
    expect(res.body.query).toBe('API keys authorization header');
    expect(res.body.results.length).toBeGreaterThan(0);
    expect(res.body.results.map((r) => r.position)).toEqual(res.body.results.map((_: unknown, i: number) => i + 1));
    for (const r of res.body.results) {
      expect(r.type).toBe('organic');
      expect(r.domain).not.toMatch(/^www\./);
      expect(r.url).toMatch(/^https?:\/\//);
    }
    expect(res.body.meta).toEqual({ sponsored_count: 0, result_count: res.body.results.length });
    expect(res.headers.get('x-scout-provider')).toBe('local');
  });

  it('GET and POST forms answer the same results', async () => {
    const post = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'fetch markdown', max_results: 1 },
    });
    const get = await t.request<SearchResponse>('GET', '/v1/search?q=fetch%20markdown&max_results=1');
    expect(get.body.results).toEqual(post.body.results);
    expect(get.body.results).toHaveLength(1);
  });

  it('any query text works: syntax never reaches the index raw', async () => {
    for (const q of [
      '"unbalanced',
      'AND OR NOT',
      '*',
      '-',
      'a:b (c',
      'NEAR(x y)',
      '🔍🙂',
      'ünïcödé',
      '^',
      'the of and',
    ]) {
      const res = await t.request('POST', '/v1/search', { body: { query: q } });
      expect(res.status, q).toBe(200);
    }
  });

  it('applies domain filters and a date filter excludes undated documents', async () => {
    const excluded = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'scout', exclude_domains: ['scout.invalid'] },
    });
    expect(excluded.body.results).toEqual([]);
    const dated = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'scout', freshness: 'year' },
    });
    expect(dated.body.results.every((r: { published_date?: string }) => r.published_date !== undefined)).toBe(true);
  });
});

describe('advanced depth on the local index', () => {
  it('adds raw_content from the stored text and passages, within max_content_tokens', async () => {
    const { countTokens } = await import('../../src/content/token-count.ts');
    const res = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'API keys authorization', search_depth: 'advanced', max_content_tokens: 100 },
    });
    expect(res.status).toBe(200);
    const withRaw = res.body.results.filter((r): r is Result & { raw_content: string } => r.raw_content !== undefined);
    expect(withRaw.length).toBeGreaterThan(0);
    const total = withRaw.reduce((n, r) => n + countTokens(r.raw_content), 0);
    expect(total).toBeLessThanOrEqual(100);
    const basic = await t.request<SearchResponse>('POST', '/v1/search', { body: { query: 'API keys authorization' } });
    expect(basic.body.results.some((r: { raw_content?: string }) => r.raw_content !== undefined)).toBe(false);
    expect(basic.body.results.map((r: { url: string }) => r.url)).toEqual(
      res.body.results.map((r: { url: string }) => r.url),
    );
  });
});
