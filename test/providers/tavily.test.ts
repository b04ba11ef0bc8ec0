import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTavilyProvider, tavilyBody } from '../../src/providers/tavily.ts';
import { NOW, fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

const KEY = 'tvly-test-0123456789';

describe('tavily adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('tavily', 'search.json') }));
  });
  afterAll(() => mock.close());

  const provider = () => createTavilyProvider({ url: `${mock.url}/search`, apiKey: KEY, now: () => NOW });

  it('POSTs JSON with a Bearer key and native filters', async () => {
    mock.requests.length = 0;
    const q = query({
      maxResults: 7,
      depth: 'advanced',
      includeDomains: ['tokio.rs'],
      excludeDomains: ['spam.example'],
      startDate: '2024-01-01',
      endDate: '2024-12-31',
      country: 'GB',
    });
    await provider().search(q, noAbort());
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.method).toBe('POST');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      query: 'rust async runtime',
      max_results: 7,
      search_depth: 'advanced',
      topic: 'general',
      include_answer: false,
      include_raw_content: false,
      include_images: false,
      include_favicon: true,
      include_domains: ['tokio.rs'],
      exclude_domains: ['spam.example'],
      start_date: '2024-01-01',
      end_date: '2024-12-31',
      country: 'united kingdom',
    });
  });

  it('sends freshness as time_range without dates, and leaves out countries it cannot name', () => {
    const body = tavilyBody(query({ freshness: 'week', startDate: '2025-01-01', country: 'ZW' }));
    expect(body.time_range).toBe('week');
    expect(body.start_date).toBeUndefined();
    expect(body.country).toBeUndefined();
  });

  it('parses results with favicon, score and RFC 2822 or plain dates', async () => {
    const results = await provider().search(query(), noAbort());
    expect(results[0]).toEqual({
      title: 'Tokio - An asynchronous Rust runtime',
      url: 'https://tokio.rs/',
      content:
        'Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.',
      favicon: 'https://tokio.rs/favicon-32x32.png',
      score: 0.91,
    });
    expect(results[1]?.publishedDate).toBe('2025-01-06T10:00:00Z');
    expect(results[2]?.publishedDate).toBe('2025-01-04');
    expect([...provider().honours].sort()).toEqual(['country', 'dates', 'domains']);
  });
});
