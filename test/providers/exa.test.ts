import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExaProvider, exaBody } from '../../src/providers/exa.ts';
import { NOW, fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

const KEY = 'exa-test-key-abcdef';

describe('exa adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('exa', 'search.json') }));
  });
  afterAll(() => mock.close());

  const provider = () => createExaProvider({ url: `${mock.url}/search`, apiKey: KEY, now: () => NOW });

  it('POSTs with x-api-key and maps count, domains, dates and country', async () => {
    mock.requests.length = 0;
    await provider().search(
      query({
        maxResults: 5,
        includeDomains: ['tokio.rs'],
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        country: 'de',
      }),
      noAbort(),
    );
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(JSON.parse(req.body)).toEqual({
      query: 'rust async runtime',
      type: 'auto',
      numResults: 5,
      contents: { highlights: true },
      includeDomains: ['tokio.rs'],
      startPublishedDate: '2024-01-01T00:00:00.000Z',
      endPublishedDate: '2024-12-31T23:59:59.999Z',
      userLocation: 'DE',
    });
  });

  it('sends excludes only when there are no includes (Scout applies the rest)', () => {
    expect(exaBody(query({ excludeDomains: ['a.com'] })).excludeDomains).toEqual(['a.com']);
    const both = exaBody(query({ includeDomains: ['b.com'], excludeDomains: ['a.com'] }));
    expect(both.includeDomains).toEqual(['b.com']);
    expect(both.excludeDomains).toBeUndefined();
  });

  it('builds snippets from highlights, else summary, else text', async () => {
    const results = await provider().search(query(), noAbort());
    expect(results[0]).toEqual({
      title: 'Tokio - An asynchronous Rust runtime',
      url: 'https://tokio.rs/',
      content:
        'Tokio is an asynchronous runtime for the Rust programming language. … It provides the building blocks needed for writing network applications.',
      publishedDate: '2024-11-12T09:31:28Z',
      favicon: 'https://tokio.rs/favicon.ico',
    });
    expect(results[1]?.content).toBe('A survey of async runtimes in Rust and their scheduling strategies.');
    expect(results[2]).toEqual({
      title: '',
      url: 'https://smol.example.dev/docs',
      content: 'smol is a small and fast async runtime.',
    });
  });
});
