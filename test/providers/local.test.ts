import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../../src/search/search-types.ts';
import { createLocalProvider, freshnessStartDate } from '../../src/providers/local.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import { defined } from '../helpers/defined.ts';
import { doc, useTempIndexes } from '../index/temp-index.ts';

const t = useTempIndexes();
const NOW = new Date('2025-03-15T12:00:00Z');

const query = (extra: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'lynx',
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth: 'basic',
  ...extra,
});

function provider() {
  const index = t.open();
  index.upsert([
    doc('new', {
      url: 'https://news.example.com/new',
      content: 'lynx sighted today',
      published_date: '2025-03-14',
      country: 'SE',
    }),
    doc('old', {
      url: 'https://example.org/old',
      content: 'lynx history',
      published_date: '2020-01-01T10:00:00+01:00',
      country: 'FI',
    }),
    doc('undated', { url: 'https://other.net/u', content: 'lynx in general' }),
  ]);
  return { index, local: createLocalProvider(index, { now: () => NOW }) };
}
const signal = new AbortController().signal;
const urls = (rs: { url: string }[]) => rs.map((r) => r.url).sort();

describe('local provider', () => {
  it('declares the filters it applies itself', () => {
    const { local } = provider();
    expect(local.name).toBe('local');
    expect([...local.honours].sort()).toEqual(['country', 'dates', 'domains']);
  });

  it('maps hits to provider results with a unified ISO 8601 date', async () => {
    const { local } = provider();
    const results = await local.search(query({ includeDomains: ['example.org'] }), signal);
    expect(results).toEqual([
      {
        title: 'Document old',
        url: 'https://example.org/old',
        content: 'lynx history',
        publishedDate: '2020-01-01T09:00:00Z',
        score: expect.any(Number),
      },
    ]);
  });

  it('applies domains, dates, country and maxResults', async () => {
    const { local } = provider();
    expect(urls(await local.search(query({ excludeDomains: ['example.com'] }), signal))).toEqual([
      'https://example.org/old',
      'https://other.net/u',
    ]);
    expect(urls(await local.search(query({ startDate: '2025-01-01' }), signal))).toEqual([
      'https://news.example.com/new',
    ]);
    expect(urls(await local.search(query({ endDate: '2024-12-31' }), signal))).toEqual(['https://example.org/old']);
    expect(urls(await local.search(query({ country: 'FI' }), signal))).toEqual([
      'https://example.org/old',
      'https://other.net/u',
    ]);
    expect(await local.search(query({ maxResults: 1 }), signal)).toHaveLength(1);
  });

  it('turns freshness into a start date only when none is given', async () => {
    const { local } = provider();
    expect(urls(await local.search(query({ freshness: 'week' }), signal))).toEqual(['https://news.example.com/new']);
    expect(urls(await local.search(query({ freshness: 'week', startDate: '2019-01-01' }), signal))).toEqual([
      'https://example.org/old',
      'https://news.example.com/new',
    ]);
    expect(freshnessStartDate('day', NOW)).toBe('2025-03-14');
    expect(freshnessStartDate('month', NOW)).toBe('2025-02-12');
    expect(freshnessStartDate('year', NOW)).toBe('2024-03-14');
  });

  it('returns the stored text as rawContent on the advanced depth only', async () => {
    const { local } = provider();
    const [basic] = await local.search(query({ includeDomains: ['other.net'] }), signal);
    const [advanced] = await local.search(query({ includeDomains: ['other.net'], depth: 'advanced' }), signal);
    expect(defined(basic, 'a basic result').rawContent).toBeUndefined();
    expect(advanced?.rawContent).toBe('lynx in general');
  });

  it('answers a query without words with no results', async () => {
    const { local } = provider();
    expect(await local.search(query({ query: '🙂 -- ""' }), signal)).toEqual([]);
  });

  it('fails as a provider, with a message fit for the caller, when the index cannot be read', async () => {
    const { index, local } = provider();
    index.close();
    const failure = local.search(query(), signal);
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toThrow('the local index could not be read');
  });

  it('refuses to start on an aborted signal', async () => {
    const { local } = provider();
    const aborted = AbortSignal.abort();
    await expect(local.search(query(), aborted)).rejects.toMatchObject({ provider: 'local', failure: 'timeout' });
  });
});
