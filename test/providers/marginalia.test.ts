import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createMarginaliaProvider, marginaliaProvider } from '../../src/providers/marginalia.ts';
import { scoutSettings } from '../../src/scout-settings.ts';
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

  it('builds without a key: the shared `public` key, paced one search at a time', async () => {
    expect(marginaliaProvider.requires).toBeUndefined();
    expect(Object.values(marginaliaProvider.settings).map((x) => [x.env, x.default])).toEqual([
      ['SCOUT_MARGINALIA_URL', 'https://api2.marginalia-search.com/search'],
      ['SCOUT_MARGINALIA_API_KEY', 'public'],
      ['SCOUT_MARGINALIA_RATE', '1'],
      ['SCOUT_MARGINALIA_IN_FLIGHT', '1'],
    ]);
    expect(marginaliaProvider.settings.marginaliaApiKey.description).toContain('`public`');
    const load = (env: Record<string, string>) => loadConfig(env, scoutSettings) as unknown as Record<string, unknown>;
    const url = `${mock.url}/search`;
    for (const env of [{ SCOUT_MARGINALIA_URL: url }, { SCOUT_MARGINALIA_URL: url, SCOUT_MARGINALIA_API_KEY: '   ' }]) {
      mock.requests.length = 0;
      const p = marginaliaProvider.build(load(env) as never, { userAgent: 'Scout/test' });
      expect(p.pacing).toEqual({ perSecond: 1, inFlight: 1 });
      expect(await p.search(query(), noAbort())).toHaveLength(2);
      const req = defined(mock.requests[0], 'a request upstream');
      expect(req.headers['api-key']).toBe('public');
      expect(req.headers['user-agent']).toBe('Scout/test');
    }
    const own = marginaliaProvider.build(
      load({
        SCOUT_MARGINALIA_URL: url,
        SCOUT_MARGINALIA_API_KEY: ' my-key ',
        SCOUT_MARGINALIA_RATE: '0.25',
        SCOUT_MARGINALIA_IN_FLIGHT: '2',
      }) as never,
      {},
    );
    expect(own.pacing).toEqual({ perSecond: 0.25, inFlight: 2 });
    mock.requests.length = 0;
    await own.search(query(), noAbort());
    expect(defined(mock.requests[0], 'a request upstream').headers['api-key']).toBe('my-key');
  });
});
