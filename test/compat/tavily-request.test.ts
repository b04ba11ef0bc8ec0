import { describe, expect, it } from 'vitest';
import { countryCode } from '../../src/compat/tavily-country.ts';
import { extractPlan, urlProblem } from '../../src/compat/tavily-extract.ts';
import { tavilyPlan } from '../../src/compat/tavily-request.ts';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('tavilyPlan', () => {
  it('reads what the SDKs send, nulls as absent, and defaults to five results', () => {
    expect(
      tavilyPlan({ query: 'q', max_results: null, time_range: null, include_domains: [], topic: 'general' }, NOW),
    ).toEqual({ query: 'q', request: { query: 'q', max_results: 5 }, rawContent: false });
  });

  it('clamps max_results into 1..20', () => {
    expect(tavilyPlan({ query: 'q', max_results: 0 }).request.max_results).toBe(1);
    expect(tavilyPlan({ query: 'q', max_results: 50 }).request.max_results).toBe(20);
    expect(() => tavilyPlan({ query: 'q', max_results: '5' })).toThrow('max_results must be an integer');
  });

  it('maps search_depth (fast and ultra-fast as basic) and include_raw_content onto advanced', () => {
    expect(tavilyPlan({ query: 'q', search_depth: 'fast' }).request.search_depth).toBe('basic');
    expect(tavilyPlan({ query: 'q', search_depth: 'ultra-fast' }).request.search_depth).toBe('basic');
    expect(tavilyPlan({ query: 'q', search_depth: 'advanced' })).toMatchObject({
      request: { search_depth: 'advanced' },
      rawContent: false,
    });
    for (const v of [true, 'markdown', 'text'])
      expect(tavilyPlan({ query: 'q', include_raw_content: v })).toMatchObject({
        request: { search_depth: 'advanced' },
        rawContent: true,
      });
    expect(() => tavilyPlan({ query: 'q', include_raw_content: 'html' })).toThrow('include_raw_content');
  });

  it('takes time_range long or short, and days only for news, as Tavily applies it', () => {
    for (const [v, f] of [
      ['d', 'day'],
      ['W', 'week'],
      ['month', 'month'],
      ['y', 'year'],
    ])
      expect(tavilyPlan({ query: 'q', time_range: v }).request.freshness).toBe(f);
    expect(tavilyPlan({ query: 'q', days: 3 }, NOW).request.start_date).toBeUndefined();
    expect(tavilyPlan({ query: 'q', days: 3, topic: 'news' }, NOW).request.start_date).toBe('2026-03-07');
    expect(tavilyPlan({ query: 'q', days: 3, topic: 'news', start_date: '2026-01-01' }, NOW).request.start_date).toBe(
      '2026-01-01',
    );
    expect(() => tavilyPlan({ query: 'q', end_date: '10/03/2026' })).toThrow('end_date must be a date YYYY-MM-DD');
  });

  it('refuses a filter it cannot apply whole rather than drop it', () => {
    const many = Array.from({ length: 51 }, (_, i) => `d${i}.example`);
    expect(() => tavilyPlan({ query: 'q', include_domains: many })).toThrow('at most 50 domains');
    expect(() => tavilyPlan({ query: 'q', country: 'atlantis' })).toThrow('country must be');
    expect(() => tavilyPlan({ query: '' })).toThrow('query is required');
    expect(() => tavilyPlan([])).toThrow('send a JSON object');
  });
});

describe('countryCode', () => {
  it('takes a lowercase English name, any case, or a 2-letter code', () => {
    expect(countryCode('united states')).toBe('US');
    expect(countryCode('United  Kingdom')).toBe('GB');
    expect(countryCode('south korea')).toBe('KR');
    expect(countryCode('czech republic')).toBe('CZ');
    expect(countryCode('germany')).toBe('DE');
    expect(countryCode('de')).toBe('DE');
    expect(countryCode('atlantis')).toBeUndefined();
  });
});

describe('extract URLs', () => {
  it('takes a string or a list of at most 20, and says why a URL cannot be fetched', () => {
    expect(extractPlan({ urls: 'https://a.example/' })).toEqual({ urls: ['https://a.example/'], format: 'markdown' });
    expect(extractPlan({ urls: ['https://a.example/'], format: 'text' }).format).toBe('text');
    expect(() => extractPlan({ urls: [] })).toThrow('urls is required');
    expect(() => extractPlan({ urls: Array(21).fill('https://a.example/') })).toThrow('at most 20 URLs');
    expect(() => extractPlan({ urls: 'https://a.example/', format: 'html' })).toThrow('format must be');
    expect(urlProblem('https://a.example/')).toBeUndefined();
    expect(urlProblem('mailto:x@a.example')).toBe('not an absolute http(s) URL');
    expect(urlProblem('/relative')).toBe('not an absolute http(s) URL');
  });
});
