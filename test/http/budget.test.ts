import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_MONTHLY_SEARCH_BUDGET: '4' });
});
afterAll(() => t.close());

describe('monthly search budget', () => {
  it('charges basic 1 and advanced 2, refuses with 503 past it, not counting fetch, across restarts', async () => {
    expect((await t.request('POST', '/v1/search', { body: { query: 'scout' } })).status).toBe(200); // 1
    expect((await t.request('POST', '/v1/search', { body: { query: 'scout', search_depth: 'advanced' } })).status).toBe(
      200,
    ); // 3
    // fetch is not charged (its outcome does not matter here)
    await t.request('POST', '/v1/fetch', { body: { url: 'http://127.0.0.1/' } });
    await t.restart(); // the count survives
    const tooDear = await t.request<ErrorBody>('POST', '/v1/search', {
      body: { query: 'scout', search_depth: 'advanced' },
    });
    expect(tooDear.status).toBe(503);
    expect(tooDear.body.error.message).toMatch(
      /monthly free search budget \(4 units\) is exhausted; it resets at \d{4}-\d{2}-01T00:00:00\.000Z/,
    );
    expect(Number(tooDear.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.request('GET', '/v1/search?q=scout')).status).toBe(200); // 4: exactly at the limit
    expect((await t.request('GET', '/v1/search?q=scout')).status).toBe(503);
  });

  it('invalid requests are not charged', async () => {
    // budget is spent; a 400 must still be a 400, not a 503
    expect((await t.request('POST', '/v1/search', { body: { query: '' } })).status).toBe(400);
  });
});
