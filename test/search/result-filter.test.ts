import { describe, expect, it } from 'vitest';
import { fetchCount, filterResults, scoutFilters, type FilterName } from '../../src/search/result-filter.ts';
import type { ProviderResult, SearchQuery } from '../../src/search/search-types.ts';

const q = (over: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'x',
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth: 'basic',
  ...over,
});
const r = (url: string, extra: Partial<ProviderResult> & { country?: string } = {}) => ({
  title: url,
  url,
  content: '',
  ...extra,
});
const none = new Set<FilterName>();
const dates = new Set<FilterName>(['dates']);
const urls = (xs: { url: string }[]) => xs.map((x) => x.url);

describe('filterResults', () => {
  const web = [
    r('https://docs.example.com/a'),
    r('https://www.example.com/b'),
    r('https://other.org/c'),
    r('https://notexample.com/d'),
  ];

  it('include_domains matches the domain and its subdomains, not look-alikes', () => {
    expect(urls(filterResults(web, q({ includeDomains: ['example.com'] }), none))).toEqual([
      'https://docs.example.com/a',
      'https://www.example.com/b',
    ]);
  });

  it('exclude wins over include', () => {
    const out = filterResults(web, q({ includeDomains: ['example.com'], excludeDomains: ['docs.example.com'] }), none);
    expect(urls(out)).toEqual(['https://www.example.com/b']);
  });

  it('checks domains even when the provider claims to filter them', () => {
    expect(urls(filterResults(web, q({ excludeDomains: ['other.org'] }), new Set(['domains'])))).not.toContain(
      'https://other.org/c',
    );
  });

  it('keeps dated results inside the inclusive window and drops the others', () => {
    const rs = [
      r('https://a.com/1', { publishedDate: '2024-12-31T23:59:59Z' }),
      r('https://a.com/2', { publishedDate: '2025-01-01T00:00:00Z' }),
      r('https://a.com/3', { publishedDate: '2025-01-31T23:00:00Z' }),
      r('https://a.com/4', { publishedDate: '2025-02-01T00:00:00Z' }),
    ];
    expect(urls(filterResults(rs, q({ startDate: '2025-01-01', endDate: '2025-01-31' }), dates))).toEqual([
      'https://a.com/2',
      'https://a.com/3',
    ]);
  });

  it('keeps undated results only when the provider applied the date filter itself', () => {
    const rs = [r('https://a.com/undated'), r('https://a.com/dated', { publishedDate: '2025-01-05T00:00:00Z' })];
    const query = q({ startDate: '2025-01-01' });
    expect(urls(filterResults(rs, query, dates))).toEqual(['https://a.com/undated', 'https://a.com/dated']);
    expect(urls(filterResults(rs, query, none))).toEqual(['https://a.com/dated']);
  });

  it('drops results whose known country differs, keeps those without one', () => {
    const rs = [
      r('https://a.com/de', { country: 'de' }),
      r('https://a.com/fr', { country: 'FR' }),
      r('https://a.com/web'),
    ];
    expect(urls(filterResults(rs, q({ country: 'DE' }), none))).toEqual(['https://a.com/de', 'https://a.com/web']);
  });

  it('passes everything when the query has no filter', () => {
    expect(filterResults(web, q(), none)).toEqual(web);
  });
});

describe('over-fetch', () => {
  it('asks for three times max_results (at most 50) only when Scout must filter', () => {
    expect(fetchCount(q({ maxResults: 10 }), none)).toBe(10);
    expect(fetchCount(q({ maxResults: 10, includeDomains: ['a.com'] }), none)).toBe(30);
    expect(fetchCount(q({ maxResults: 20, startDate: '2025-01-01' }), none)).toBe(50);
    expect(fetchCount(q({ maxResults: 10, includeDomains: ['a.com'] }), new Set(['domains']))).toBe(10);
    expect(fetchCount(q({ maxResults: 10, country: 'DE' }), none)).toBe(10);
    expect(scoutFilters(q({ endDate: '2025-01-01' }), dates)).toBe(false);
  });
});
