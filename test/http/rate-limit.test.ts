import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '3' });
});
afterAll(() => t.close());

describe('per-key rate limit', () => {
  it('sends RateLimit-* headers and answers 429 with Retry-After past the limit', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/v1/search', { body: { query: 'scout' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      seen.push(Number(res.headers.get('ratelimit-remaining')));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    expect(seen).toEqual([2, 1, 0]);
    const limited = await t.request<ErrorBody>('POST', '/v1/search', { body: { query: 'scout' } });
    expect(limited.status).toBe(429);
    const retry = limited.headers.get('retry-after');
    expect(retry).toMatch(/^[1-9][0-9]*$/);
    expect(Number(retry)).toBeLessThanOrEqual(20);
    expect(limited.body.error.message).toContain('rate limit of 3 requests per minute');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('limits each key on its own', async () => {
    const other = await t.scout.keys.create('other');
    const res = await t.request('POST', '/v1/search', { body: { query: 'scout' }, key: other.key });
    expect(res.status).toBe(200);
  });
});
