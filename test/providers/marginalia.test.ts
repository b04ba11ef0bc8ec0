import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginaliaProvider } from '../../src/providers/marginalia.ts';
import { fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

describe('marginalia adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('marginalia', 'search.json') }));
  });
  afterAll(() => mock.close());

  it('GETs with the API-Key header and count', async () => {
    mock.requests.length = 0;
    const p = createMarginaliaProvider({ url: `${mock.url}/search`, apiKey: 'public' });
    const results = await p.search(query({ maxResults: 30 }), noAbort());
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.headers['api-key']).toBe('public');
    expect(Object.fromEntries(new URL(req.url, mock.url).searchParams)).toEqual({
      query: 'rust async runtime',
      count: '30',
    });
    expect(results).toEqual([
      {
        title: 'Why async Rust?',
        url: 'https://without.boats/blog/why-async-rust/',
        content: 'Async/await syntax in Rust was initially released to much fanfare and excitement.',
      },
      {
        title: 'Tokio - An asynchronous Rust runtime',
        url: 'https://tokio.rs/',
        content: 'Build reliable network applications without compromising speed.',
      },
    ]);
    expect(p.honours.size).toBe(0);
  });
});
