import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  // SearXNG on a loopback port nothing listens on: refused at once, the local index answers.
  t = await startTestScout({ SCOUT_SEARCH_PROVIDERS: 'searxng,local', SCOUT_SEARXNG_URL: 'http://127.0.0.1:1/search' });
});
afterAll(() => t.close());

describe('failover through the HTTP API', () => {
  it('answers from the next provider, names it, and logs the failure with the request id', async () => {
    const res = await t.request('POST', '/v1/search', { body: { query: 'scout' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-scout-provider')).toBe('local');
    const lines = t.logs.filter((l) => l.request_id === res.body.request_id);
    expect(lines.some((l) => l.msg === 'search provider failed' && l.provider === 'searxng')).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('searxng');
  });
});
