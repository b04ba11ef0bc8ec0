import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSerperProvider, parseSerperResponse, serperBody } from '../../src/providers/serper.ts';
import { NOW, fixture, jsonFixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

const KEY = 'serper-test-key-987';

describe('serper adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('serper', 'search.json') }));
  });
  afterAll(() => mock.close());

  const provider = () => createSerperProvider({ url: `${mock.url}/search`, apiKey: KEY, now: () => NOW });

  it('POSTs with X-API-KEY; gl, tbs and site: operators are native', async () => {
    mock.requests.length = 0;
    await provider().search(
      query({
        maxResults: 15,
        country: 'FR',
        freshness: 'day',
        startDate: '2025-01-07',
        includeDomains: ['tokio.rs', 'docs.rs'],
        excludeDomains: ['spam.example'],
      }),
      noAbort(),
    );
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(JSON.parse(req.body)).toEqual({
      q: 'rust async runtime (site:tokio.rs OR site:docs.rs) -site:spam.example',
      num: 20,
      gl: 'fr',
      tbs: 'qdr:d',
    });
  });

  it('maps a date range to Google custom dates and skips site: past ten domains', () => {
    expect(serperBody(query({ startDate: '2024-01-05', endDate: '2024-02-01' })).tbs).toBe(
      'cdr:1,cd_min:1/5/2024,cd_max:2/1/2024',
    );
    const many = Array.from({ length: 11 }, (_, i) => `d${i}.example`);
    expect(serperBody(query({ includeDomains: many })).q).toBe('rust async runtime');
    expect(serperBody(query({ includeDomains: ['one.example'] })).q).toBe('rust async runtime site:one.example');
  });

  it('parses organic results and Google display dates', async () => {
    const results = await provider().search(query(), noAbort());
    expect(results).toEqual([
      {
        title: 'Tokio - An asynchronous Rust runtime',
        url: 'https://tokio.rs/?srsltid=AfmBOoq123',
        content: 'Tokio is an asynchronous runtime for the Rust programming language.',
      },
      {
        title: 'Async Rust in 2025 - Blog',
        url: 'https://blog.example.com/async-rust-2025',
        content: '3 days ago — A look at runtimes, executors and the ecosystem.',
        publishedDate: '2025-01-05',
      },
      {
        title: 'Announcing Tokio 1.43',
        url: 'https://tokio.rs/blog/2025-01-tokio-1-43',
        content: 'We are happy to announce the release of Tokio 1.43.',
        publishedDate: '2025-01-05',
      },
    ]);
    expect(parseSerperResponse(jsonFixture('serper', 'empty.json'), NOW)).toEqual([]);
  });
});
