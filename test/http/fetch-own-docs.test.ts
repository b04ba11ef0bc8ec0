import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { defined } from '../helpers/defined.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000' });
});
afterAll(() => t.close());

// Issue 23: a starter-corpus result linked to http://localhost:<port>/docs/…, which fetch
// refused (403, a loopback address).
describe('fetching a starter-corpus result', () => {
  it('answers the result url from Scout’s own docs, without the network', async () => {
    const found = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'API key Authorization header', max_results: 1 },
    });
    const result = defined(found.body.results[0], 'a search result');
    expect(result.url).toBe('https://scout.invalid/docs/getting-started.md#api-keys');
    expect(result.content).toBe('Every request needs an API key in the Authorization header.');

    const res = await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: result.url } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: result.url,
      final_url: result.url,
      title: 'Getting started with Scout',
      truncated: false,
      meta: { unwrapped: false, click_path: null, content_type: 'text/markdown' },
    });
    expect(res.body.content).toContain('## API keys\n\nEvery request needs an API key');
    expect(res.body.chars).toBe(res.body.content.length);
  });

  it('cuts at max_chars, and answers a path that is not a doc like an origin’s 404', async () => {
    const cut = await t.request<FetchResponse>('POST', '/v1/fetch', {
      body: { url: 'https://scout.invalid/docs/getting-started.md', max_chars: 500 },
    });
    expect(cut.status).toBe(200);
    expect(cut.body.content.length).toBeLessThanOrEqual(500);
    for (const url of [
      'https://scout.invalid/docs/absent.md',
      'https://scout.invalid/docs/..%2Fpackage.json',
      'http://scout.invalid/',
    ]) {
      const res = await t.request<ErrorBody>('POST', '/v1/fetch', { body: { url } });
      expect(res.status, url).toBe(502);
      expect(res.body.error.message, url).toMatch(/^origin answered 404 \(Not Found\): Scout's docs have no /);
    }
  });

  it('still refuses the server’s own loopback address', async () => {
    const res = await t.request('POST', '/v1/fetch', { body: { url: `${t.baseUrl}/docs/getting-started.md` } });
    expect(res.status).toBe(403);
  });
});
