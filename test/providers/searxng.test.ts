import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearxngProvider, searxngParams } from '../../src/providers/searxng.ts';
import { NOW, fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

describe('searxng adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('searxng', 'search.json') }));
  });
  afterAll(() => mock.close());

  it('asks the instance for JSON, with freshness as time_range, and keeps its own query string', async () => {
    mock.requests.length = 0;
    const p = createSearxngProvider({ url: `${mock.url}/search?categories=general`, now: () => NOW });
    await p.search(query({ freshness: 'month', startDate: '2024-12-08' }), noAbort());
    const req = defined(mock.requests[0], 'a request upstream');
    expect(Object.fromEntries(new URL(req.url, mock.url).searchParams)).toEqual({
      categories: 'general',
      q: 'rust async runtime',
      format: 'json',
      pageno: '1',
      time_range: 'month',
    });
    expect(req.headers.authorization).toBeUndefined();
  });

  it('sends the optional key as a Bearer token', async () => {
    mock.requests.length = 0;
    await createSearxngProvider({ url: `${mock.url}/search`, apiKey: 'proxy-token' }).search(query(), noAbort());
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer proxy-token');
  });

  it('parses results, normalising publishedDate with and without a zone', async () => {
    const results = await createSearxngProvider({ url: `${mock.url}/search`, now: () => NOW }).search(
      query(),
      noAbort(),
    );
    expect(results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://docs.rs/tokio/latest/tokio/?fbclid=IwAR0abc',
      'https://news.example.org/2025/01/async-rust',
      'ftp://files.example.org/rust.tar.gz',
    ]);
    expect(results[0]).toEqual({
      title: 'Tokio - An asynchronous Rust runtime',
      url: 'https://tokio.rs/',
      content: 'Tokio is an asynchronous runtime for the Rust programming language.',
      publishedDate: '2024-11-12T09:31:28Z',
      score: 4,
    });
    expect(defined(results[1], 'a second result').publishedDate).toBeUndefined();
    expect(results[2]?.publishedDate).toBe('2025-01-02T07:00:00Z');
  });

  it('trims to the requested count and honours nothing natively', async () => {
    const p = createSearxngProvider({ url: `${mock.url}/search` });
    expect(await p.search(query({ maxResults: 2 }), noAbort())).toHaveLength(2);
    expect(p.honours.size).toBe(0);
    expect(searxngParams(query()).time_range).toBeUndefined();
  });
});
