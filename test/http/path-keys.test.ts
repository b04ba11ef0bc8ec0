import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { SearxngResponse } from '../../src/schemas/searxng.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

/** Keys in the URL path (SCOUT_PATH_KEYS, docs/compat.md), on real Scouts over loopback. */

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

const search = (key: string) => `/k/${key}/search?q=fetch%20markdown&format=json`;

describe('path keys off (the default)', () => {
  let t: TestScout;
  beforeAll(async () => {
    t = await startTestScout();
  });
  afterAll(() => t?.close());

  it('/k/… is 404 in the Error shape, saying why, and never quotes the key back', async () => {
    const res = await t.request<ErrorBody>('GET', search(t.key), { key: null });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe(
      'no route GET /k/[redacted]/search: keys in the path are off on this server (the operator turns them on with SCOUT_PATH_KEYS=true); send the key in an Authorization or x-api-key header',
    );
    expect(t.logText()).not.toContain(t.key);
  });
});

describe('path keys on (SCOUT_PATH_KEYS=true)', () => {
  let t: TestScout;
  beforeAll(async () => {
    t = await startTestScout({ SCOUT_PATH_KEYS: 'true', SCOUT_RATE_LIMIT_RPM: '1000', SCOUT_ADMIN_TOKEN: ADMIN_TOKEN });
  });
  afterAll(() => t?.close());

  it('serve /k/<key>/search with the key as its credential, rate limited as that key', async () => {
    const res = await t.request<SearxngResponse>('GET', search(t.key), { key: null });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit-limit')).toBe('1000');
    // The same key in a header too is the same caller.
    const both = await t.request<SearxngResponse>('GET', search(t.key), { headers: { 'x-api-key': t.key } });
    expect(both.status).toBe(200);
  });

  it('never log the key: the request line shows /k/[redacted]/search', async () => {
    await t.request('GET', search(t.key), { key: null });
    await t.request('DELETE', `/k/${t.key}/search`, { key: null });
    await t.request('GET', `/k/${t.key}/nothing-here`, { key: null });
    const lines = t.logs.filter((l) => l.msg === 'request');
    expect(lines.map((l) => l.path)).toEqual(
      expect.arrayContaining(['/k/[redacted]/search', '/k/[redacted]/nothing-here']),
    );
    expect(t.logText()).not.toContain(t.key);
    // Nor do error messages quote it back (405 and 404 name the path).
    const wrongMethod = await t.request<ErrorBody>('DELETE', `/k/${t.key}/search`, { key: null });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.message).toBe('method DELETE is not allowed on /k/[redacted]/search; use GET, POST');
    expect(wrongMethod.text).not.toContain(t.key);
  });

  it('are counted under the route template, never the path that carries the key', async () => {
    await t.request('GET', search(t.key), { key: null });
    const metrics = await t.request('GET', '/metrics', {
      key: null,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(metrics.text).toMatch(
      /^scout_http_requests_total\{route="\/k\/:key\/search",method="GET",status_class="2xx",outcome="ok"\} [1-9]/m,
    );
    expect(metrics.text).not.toContain(t.key);
  });

  it('refuse a header key that differs from the path key with 401', async () => {
    const other = (await t.scout.keys.create('other')).key;
    const res = await t.request<ErrorBody>('GET', search(t.key), { headers: { authorization: `Bearer ${other}` } });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('the key in the path and the key in the header differ; send one key');
    expect(res.text).not.toContain(t.key);
  });

  it('refuse a revoked, unknown or malformed key in the path with 401, as in a header', async () => {
    const revoked = await t.scout.keys.create('revoked');
    expect((await t.request('GET', search(revoked.key), { key: null })).status).toBe(200);
    await t.scout.keys.revoke(revoked.id);
    const res = await t.request<ErrorBody>('GET', search(revoked.key), { key: null });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/^API key is not valid \(unknown or revoked\)/);
    const malformed = await t.request<ErrorBody>('GET', search('scout_nope'), { key: null });
    expect(malformed.status).toBe(401);
    expect(malformed.body.error.message).toMatch(/^API key is malformed/);
    expect(t.logText()).not.toContain(revoked.key);
  });

  it('are kept out of /openapi.json, and only the compat routes take them', async () => {
    const doc = (await t.request<{ paths: Record<string, unknown> }>('GET', '/openapi.json', { key: null })).body;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/k/'))).toEqual([]);
    expect(Object.keys(doc.paths)).toContain('/search');
    const v1 = await t.request<ErrorBody>('POST', `/k/${t.key}/v1/search`, { key: null, body: { query: 'x' } });
    expect(v1.status).toBe(404);
    expect(v1.text).not.toContain(t.key);
  });
});
