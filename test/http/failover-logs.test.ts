import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  // SearXNG on a loopback port nothing listens on: refused at once, the local index answers.
  t = await startTestScout({ SCOUT_SEARCH_PROVIDERS: 'searxng,local', SCOUT_SEARXNG_URL: 'http://127.0.0.1:1/search' });
});
afterAll(() => t.close());

describe('failover through the HTTP API', () => {
  it('answers from the next provider, names it, and logs the failure with the request id', async () => {
    const res = await t.request<SearchResponse>('POST', '/v1/search', { body: { query: 'scout' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-scout-provider')).toBe('local');
    const lines = t.logs.filter((l) => l.request_id === res.body.request_id);
    expect(lines.some((l) => l.msg === 'search provider failed' && l.provider === 'searxng')).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('searxng');
  });
});

describe('every provider failing', () => {
  it('is 502 naming each provider and why, and the search is not charged', async () => {
    const down = await startTestScout({
      SCOUT_SEARCH_PROVIDERS: 'searxng',
      SCOUT_SEARXNG_URL: 'http://127.0.0.1:1/search',
    });
    try {
      const period = new Date().toISOString().slice(0, 7);
      const res = await down.request<ErrorBody>('POST', '/v1/search', { body: { query: 'scout' } });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toMatch(/^every search provider failed, try again later: searxng: /);
      expect(await down.scout.budget.used(period)).toBe(0);
    } finally {
      await down.close();
    }
  });
});
