import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/keys/api-key-format.ts';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000' });
});
afterAll(() => t.close());

const search = { body: { query: 'scout' } };

describe('API keys on the wire', () => {
  it('accepts Bearer (any case of the scheme) and x-api-key', async () => {
    for (const authorization of [`Bearer ${t.key}`, `bearer ${t.key}`, `BEARER ${t.key}`]) {
      expect((await t.request('POST', '/v1/search', { ...search, headers: { authorization } })).status).toBe(200);
    }
    expect((await t.request('POST', '/v1/search', { ...search, headers: { 'x-api-key': t.key } })).status).toBe(200);
    expect(
      (
        await t.request('POST', '/v1/search', {
          ...search,
          headers: { 'x-api-key': t.key, authorization: `Bearer ${t.key}` },
        })
      ).status,
    ).toBe(200);
  });

  const refused: [string, Record<string, string>, string][] = [
    ['missing', {}, 'missing API key'],
    ['not bearer', { authorization: 'Basic abc' }, 'must be "Bearer <key>"'],
    ['malformed', { authorization: 'Bearer scout_short' }, 'malformed'],
    ['bad checksum', { 'x-api-key': `scout_${'a'.repeat(38)}` }, 'malformed'],
  ];
  it.each(refused)('%s → 401 with WWW-Authenticate', async (_n, headers, message) => {
    const res = await t.request<ErrorBody>('POST', '/v1/search', { ...search, headers, key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body.error.message).toContain(message);
  });

  it('unknown and revoked keys get one and the same message', async () => {
    const unknown = await t.request<ErrorBody>('POST', '/v1/search', { ...search, key: generateApiKey() });
    const created = await t.scout.keys.create('to-revoke');
    expect((await t.request('POST', '/v1/search', { ...search, key: created.key })).status).toBe(200);
    await t.scout.keys.revoke(created.id);
    const revoked = await t.request<ErrorBody>('POST', '/v1/search', { ...search, key: created.key });
    expect(unknown.status).toBe(401);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toBe(unknown.body.error.message);
  });

  it('two different keys in the two headers → 401', async () => {
    const other = await t.scout.keys.create('other');
    const res = await t.request<ErrorBody>('POST', '/v1/search', {
      ...search,
      headers: { authorization: `Bearer ${t.key}`, 'x-api-key': other.key },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('different keys');
  });

  it('a key in the query string is never accepted', async () => {
    for (const p of ['api_key', 'key', 'x-api-key']) {
      const res = await t.request('GET', `/v1/search?q=scout&${p}=${t.key}`, { key: null });
      expect(res.status).toBe(401);
    }
  });

  it('fetch needs a key too', async () => {
    const res = await t.request('POST', '/v1/fetch', { body: { url: 'https://example.com/' }, key: null });
    expect(res.status).toBe(401);
  });

  it('never logs a key', async () => {
    await t.request('POST', '/v1/search', { ...search, headers: { 'x-api-key': t.key } });
    await t.request('GET', `/v1/search?q=scout&api_key=${t.key}`, { key: null });
    expect(t.logText()).not.toContain(t.key.slice(6));
  });

  it('an unreadable key store is 503, never 401, and /healthz says so', async () => {
    await t.scout.stores.close(); // the real SQLite handle is gone: every read now throws
    try {
      const res = await t.request<ErrorBody>('POST', '/v1/search', search);
      expect(res.status).toBe(503);
      expect(res.body.error.message).toContain('key store is unavailable');
      const health = await t.request('GET', '/healthz', { key: null });
      expect(health.status).toBe(503);
    } finally {
      await t.restart();
    }
    expect((await t.request('GET', '/healthz', { key: null })).status).toBe(200);
  });
});
