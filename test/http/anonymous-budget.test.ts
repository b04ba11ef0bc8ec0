import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { Usage } from '../../src/schemas/usage.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { quillwortPages } from './compat-kit.ts';

/**
 * The anonymous tier's budget share (SCOUT_ANONYMOUS_BUDGET_SHARE) on a real Scout over
 * loopback, as a public free tier (no SCOUT_ANONYMOUS_CIDRS): 25% of 20 units is 5.
 */

const SHARE = 5;
let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({
    SCOUT_ANONYMOUS_RPM: '1000',
    SCOUT_MONTHLY_SEARCH_BUDGET: '20',
    SCOUT_ANONYMOUS_BUDGET_SHARE: '25',
  });
  t.scout.index.upsert(quillwortPages(3));
});
afterAll(() => t?.close());

const keyless = (path = '/v1/search', body: unknown = { query: 'quillwort' }) =>
  t.request<ErrorBody>('POST', path, { body, key: null });

describe('the anonymous share of the monthly budget', () => {
  it('stops keyless searches at the share, uncharged, while keyed callers are still served', async () => {
    for (let i = 0; i < SHARE; i++) expect((await keyless()).status).toBe(200);
    const refused = await keyless();
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toMatch(
      /^the anonymous share of the monthly search budget \(5 units\) is spent; it resets at \d{4}-\d\d-01T00:00:00\.000Z\. Requests with an API key are still served/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // An advanced search (2 units) is refused too, and so is the Tavily shape: its plan-limit 432.
    expect((await keyless('/v1/search', { query: 'quillwort', search_depth: 'advanced' })).status).toBe(503);
    const tavily = await t.request<{ detail: { error: string } }>('POST', '/search', {
      body: { query: 'quillwort' },
      key: null,
    });
    expect(tavily.status).toBe(432);
    expect(tavily.body.detail.error).toMatch(/anonymous share/);
    // Fetch costs no budget: still served to the anonymous caller (a 403 past authentication).
    expect((await keyless('/v1/fetch', { url: 'http://127.0.0.1:1/' })).status).toBe(403);

    // A key is served, and the refused anonymous searches took nothing from the month.
    const keyed = await t.request('POST', '/v1/search', { body: { query: 'quillwort' } });
    expect(keyed.status).toBe(200);
    const usage = await t.request<Usage>('GET', '/v1/usage');
    expect(usage.body.budget).toMatchObject({ units_total: 20, units_used: SHARE + 1, units_left: 20 - SHARE - 1 });

    // The anonymous caller is told its share: all of it used.
    const mine = await t.request<Usage>('GET', '/v1/usage', { key: null });
    expect(mine.status).toBe(200);
    expect(mine.body.budget).toMatchObject({ units_total: SHARE, units_used: SHARE, units_left: 0 });
    expect(mine.body.rate_limit.limit_per_minute).toBe(1000);
  });

  it('is off by default: a keyless request is 401, as without the tier', async () => {
    await t.restart({ SCOUT_ANONYMOUS_RPM: '0' });
    const r = await keyless();
    expect(r.status).toBe(401);
    expect(r.body.error.message).toMatch(/^missing API key/);
  });
});
