import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveParams, createBraveProvider, parseBraveResponse } from '../../src/providers/brave.ts';
import { NOW, fixture, jsonFixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

const KEY = 'BSA-test-key-123456';

describe('brave adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('brave', 'search.json') }));
  });
  afterAll(() => mock.close());

  const provider = () => createBraveProvider({ url: `${mock.url}/res/v1/web/search`, apiKey: KEY, now: () => NOW });

  it('sends the key as X-Subscription-Token and maps the query to native parameters', async () => {
    mock.requests.length = 0;
    await provider().search(
      query({ maxResults: 5, country: 'DE', freshness: 'week', startDate: '2025-01-01' }),
      noAbort(),
    );
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.headers['x-subscription-token']).toBe(KEY);
    const params = new URL(req.url, mock.url).searchParams;
    expect(req.url.startsWith('/res/v1/web/search?')).toBe(true);
    expect(Object.fromEntries(params)).toEqual({
      q: 'rust async runtime',
      count: '5',
      text_decorations: 'false',
      result_filter: 'web',
      country: 'DE',
      freshness: 'pw',
    });
  });

  it('parses the documented response: plain snippets, dates, favicon, extra snippets', async () => {
    const results = await provider().search(query({ depth: 'advanced' }), noAbort());
    expect(results).toHaveLength(4);
    expect(results[0]).toEqual({
      title: 'Tokio - An asynchronous Rust runtime',
      url: 'https://tokio.rs/?utm_source=brave&utm_medium=search',
      content:
        'Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.',
      publishedDate: '2024-11-12T09:31:28Z',
      favicon: 'https://imgs.search.brave.com/meta-tokio/favicon.ico',
      extraSnippets: [
        'Tokio is a runtime for writing reliable asynchronous applications with Rust.',
        'It provides async I/O, networking, scheduling, timers, and more.',
      ],
    });
    // No page_age: the relative `age` is used; entities are decoded.
    expect(results[1]).toMatchObject({
      publishedDate: '2025-01-06',
      content: 'Async version of the Rust standard library & its ecosystem.',
    });
    expect(defined(results[3], 'a fourth result').publishedDate).toBeUndefined();
  });

  it('asks for extra snippets only for advanced searches', () => {
    expect(braveParams(query({ depth: 'advanced' }), '2025-01-08').extra_snippets).toBe('true');
    expect(braveParams(query(), '2025-01-08').extra_snippets).toBeUndefined();
  });

  it('maps a date range and sends ALL for a country Brave does not list', () => {
    const p = braveParams(query({ startDate: '2024-01-01', country: 'ZW' }), '2025-01-08');
    expect(p.freshness).toBe('2024-01-01to2025-01-08');
    expect(p.country).toBe('ALL');
    expect(braveParams(query({ endDate: '2024-06-30' }), '2025-01-08').freshness).toBe('1970-01-01to2024-06-30');
    expect(braveParams(query({ maxResults: 50 }), '2025-01-08').count).toBe(20);
  });

  it('treats an answer without web results as empty and anything else as malformed', () => {
    expect(parseBraveResponse(jsonFixture('brave', 'empty.json'), NOW)).toEqual([]);
    expect(() => parseBraveResponse({ type: 'search', web: { results: 'x' } }, NOW)).toThrow(/malformed response/);
    expect(() => parseBraveResponse([], NOW)).toThrow(/malformed response/);
  });

  it('declares what it honours natively', () => {
    expect([...provider().honours].sort()).toEqual(['country', 'dates']);
  });
});
