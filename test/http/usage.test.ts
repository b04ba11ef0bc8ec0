import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/schemas/usage.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

// Every response is checked against the strict Usage or Error schema by t.request.
let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '4', SCOUT_MONTHLY_SEARCH_BUDGET: '6' });
});
afterAll(() => t.close());

const nextMonth = (): string => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
};

describe('GET /v1/usage', () => {
  it('needs a valid key, like search', async () => {
    const none = await t.request('GET', '/v1/usage', { key: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="scout"');
    expect((await t.request('GET', '/v1/usage', { key: 'scout_nope' })).status).toBe(401);
    const viaHeader = await t.request('GET', '/v1/usage', { key: null, headers: { 'x-api-key': t.key } });
    expect(viaHeader.status).toBe(200);
  });

  it("reports the key's bucket without taking from it, and the budget without charging it", async () => {
    const key = (await t.scout.keys.create('pacing')).key;
    // Ten reads in a row, the last one looked at: reading takes nothing from the bucket.
    for (let i = 0; i < 9; i++) await t.request('GET', '/v1/usage', { key });
    const res = await t.request<Usage>('GET', '/v1/usage', { key });
    expect(res.status).toBe(200);
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.rate_limit).toEqual({
      limit_per_minute: 4,
      remaining: 4,
      reset_seconds: 0,
      retry_after_seconds: 0,
    });
    expect(res.headers.get('ratelimit-remaining')).toBe('4');
    expect(res.body.budget).toEqual({
      period: new Date().toISOString().slice(0, 7),
      units_total: 6,
      units_used: 0,
      units_left: 6,
      resets_at: nextMonth(),
      search_cost: { basic: 1, advanced: 2 },
    });
  });

  it('after N searches, used is N (units served, not the block leased ahead); an empty bucket is reported, not refused', async () => {
    const key = (await t.scout.keys.create('searcher')).key;
    expect((await t.request('POST', '/v1/search', { body: { query: 'scout' }, key })).status).toBe(200);
    expect((await t.request('GET', '/v1/search?q=scout', { key })).status).toBe(200);
    expect(
      (await t.request('POST', '/v1/search', { body: { query: 'scout', search_depth: 'advanced' }, key })).status,
    ).toBe(200);
    const after = await t.request<Usage>('GET', '/v1/usage', { key });
    expect(after.status).toBe(200);
    expect(after.body.budget).toMatchObject({ units_used: 4, units_left: 2 });
    expect(after.body.rate_limit).toMatchObject({ limit_per_minute: 4, remaining: 1, retry_after_seconds: 0 });
    expect(after.body.rate_limit.reset_seconds).toBeGreaterThan(0);
    expect(after.headers.get('ratelimit-remaining')).toBe('1');
    expect(after.headers.get('ratelimit-reset')).toBe(String(after.body.rate_limit.reset_seconds));

    // An invalid search takes the last request (400s count) but is not charged.
    expect((await t.request('POST', '/v1/search', { body: { query: '' }, key })).status).toBe(400);
    expect((await t.request('POST', '/v1/search', { body: { query: 'scout' }, key })).status).toBe(429);
    const empty = await t.request<Usage>('GET', '/v1/usage', { key });
    expect(empty.status).toBe(200);
    expect(empty.body.rate_limit.remaining).toBe(0);
    expect(empty.body.rate_limit.retry_after_seconds).toBeGreaterThan(0);
    expect(empty.body.rate_limit.retry_after_seconds).toBeLessThanOrEqual(15);
    expect(empty.body.budget.units_used).toBe(4);
  });

  it('keeps the count across a restart, and reports an exhausted budget as 0 left with 200', async () => {
    await t.restart();
    const key = (await t.scout.keys.create('after-restart')).key;
    expect((await t.request<Usage>('GET', '/v1/usage', { key })).body.budget).toMatchObject({
      units_used: 4,
      units_left: 2,
    });
    expect(
      (await t.request('POST', '/v1/search', { body: { query: 'scout', search_depth: 'advanced' }, key })).status,
    ).toBe(200);
    expect((await t.request('POST', '/v1/search', { body: { query: 'scout' }, key })).status).toBe(503);
    const spent = await t.request<Usage>('GET', '/v1/usage', { key });
    expect(spent.status).toBe(200);
    expect(spent.body.budget).toMatchObject({ units_total: 6, units_used: 6, units_left: 0, resets_at: nextMonth() });
  });
});
