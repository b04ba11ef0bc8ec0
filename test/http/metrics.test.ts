import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { freePort } from '../helpers/scout-process.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

const TOKEN = 'metrics-admin-token-0123456789abcdef';
const ARTICLE =
  '<!doctype html><html><head><title>Metered puffins</title></head><body><main><article><h1>Metered puffins</h1>' +
  '<p>Puffins nest on high cliffs and return to the same burrow every spring, year after year.</p></article></main></body></html>';

/** The value of one sample line (`name{labels} value`), or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics after known traffic', () => {
  let t: TestScout;
  let page: FixtureServer;
  let metricsPort: number;

  beforeAll(async () => {
    page = await startFixtureServer({
      '/puffins': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
      // A bot challenge served with 200: recognised in the extraction worker, counted as blocked.
      '/challenge': {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: readFileSync(
          new URL('../extract/fixtures/unreadable/block/cloudflare-legacy-iuam.html', import.meta.url),
          'utf8',
        ),
      },
    });
    metricsPort = await freePort();
    t = await startTestScout({
      SCOUT_ADMIN_TOKEN: TOKEN,
      SCOUT_RATE_LIMIT_RPM: '7',
      SCOUT_MONTHLY_SEARCH_BUDGET: '100',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_METRICS_PORT: String(metricsPort),
    });
    // Seven requests fit the rate limit of 7; the eighth is refused.
    expect((await t.request('POST', '/v1/search', { body: { query: 'getting started' } })).status).toBe(200);
    expect((await t.request('POST', '/v1/search', { body: { query: 'fetching pages' } })).status).toBe(200);
    expect((await t.request('POST', '/v1/fetch', { body: { url: page.url('/puffins') } })).status).toBe(200);
    expect((await t.request('POST', '/v1/fetch', { body: { url: 'http://127.0.0.1:9/private' } })).status).toBe(403);
    expect((await t.request('POST', '/v1/fetch', { body: { url: page.url('/challenge') } })).status).toBe(502);
    // An origin's 404 is answered 502 (upstream fetch failed): the site failed, not Scout.
    expect((await t.request('POST', '/v1/fetch', { body: { url: page.url('/no-such-page') } })).status).toBe(502);
    expect((await t.request('POST', '/v1/search', { body: { query: 'api keys' } })).status).toBe(200);
    expect((await t.request('POST', '/v1/search', { body: { query: 'one too many' } })).status).toBe(429);
  });
  afterAll(async () => {
    await t?.close();
    await page?.close();
  });

  it('counts requests by route template, method, status class and outcome, and 429s as rate-limit refusals', async () => {
    const r = await t.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(r.text, 'scout_http_requests_total{route="/v1/search",method="POST",status_class="2xx",outcome="ok"}'),
    ).toBe(3);
    expect(
      sample(
        r.text,
        'scout_http_requests_total{route="/v1/search",method="POST",status_class="4xx",outcome="client_error"}',
      ),
    ).toBe(1);
    expect(
      sample(r.text, 'scout_http_requests_total{route="/v1/fetch",method="POST",status_class="2xx",outcome="ok"}'),
    ).toBe(1);
    expect(
      sample(
        r.text,
        'scout_http_requests_total{route="/v1/fetch",method="POST",status_class="4xx",outcome="client_error"}',
      ),
    ).toBe(1);
    expect(
      sample(
        r.text,
        'scout_http_requests_total{route="/v1/fetch",method="POST",status_class="5xx",outcome="upstream_error"}',
      ),
    ).toBe(2);
    expect(sample(r.text, 'scout_rate_limit_refusals_total{route="/v1/search"}')).toBe(1);
    expect(sample(r.text, 'scout_http_request_duration_seconds_count{route="/v1/search",method="POST"}')).toBe(4);
  });

  it("an origin's 404 and a block page are upstream errors, not Scout's: the documented error alert stays at 0", async () => {
    const r = await t.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${TOKEN}` } });
    const requests = r.text.split('\n').filter((l) => l.startsWith('scout_http_requests_total{'));
    // docs/operations.md: sum(rate(scout_http_requests_total{outcome="server_error"}[5m])) / sum(rate(...)) > 0.05
    expect(requests.filter((l) => l.includes('outcome="server_error"'))).toEqual([]);
    expect(
      requests.every((l) => /,outcome="(ok|client_error|upstream_error|budget_exhausted|server_error)"\}/.test(l)),
    ).toBe(true);
    expect(sample(r.text, 'scout_fetch_requests_total{outcome="upstream"}')).toBe(1);
  });

  it('reports fetch outcomes, extraction, providers, the budget, the index and the process', async () => {
    const r = await t.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(sample(r.text, 'scout_fetch_requests_total{outcome="ok"}')).toBe(1);
    expect(sample(r.text, 'scout_fetch_requests_total{outcome="refused"}')).toBe(1);
    expect(sample(r.text, 'scout_fetch_requests_total{outcome="blocked"}')).toBe(1);
    expect(sample(r.text, 'scout_fetch_requests_total{outcome="timeout"}')).toBe(0);
    expect(sample(r.text, 'scout_fetch_content_bytes_total')).toBeGreaterThan(50);
    expect(sample(r.text, 'scout_extract_duration_seconds_count')).toBe(2);
    expect(sample(r.text, 'scout_provider_requests_total{provider="local",outcome="ok"}')).toBe(3);
    expect(sample(r.text, 'scout_provider_breaker_open{provider="local"}')).toBe(0);
    expect(sample(r.text, 'scout_provider_health{provider="local",health="ok"}')).toBe(1);
    expect(sample(r.text, 'scout_provider_health{provider="local",health="parse_failed"}')).toBe(0);
    expect(sample(r.text, 'scout_search_budget_units{state="total"}')).toBe(100);
    expect(sample(r.text, 'scout_search_budget_units{state="used"}')).toBe(3);
    expect(sample(r.text, 'scout_search_budget_units{state="left"}')).toBe(97);
    expect(sample(r.text, 'scout_index_documents')).toBe(t.scout.index.rankerStatus().documents);
    expect(sample(r.text, 'scout_sponsored_events_total{kind="impression"}')).toBe(0);
    expect(sample(r.text, 'scout_sponsored_event_backlog')).toBe(0);
    expect(sample(r.text, 'scout_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(r.text).toContain('scout_nodejs_eventloop_lag_seconds');
  });

  it('never puts a key, a query or a URL in a label', async () => {
    const r = await t.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${TOKEN}` } });
    for (const secret of [t.key, 'getting started', 'one too many', page.url('/puffins'), '127.0.0.1:9'])
      expect(r.text).not.toContain(secret);
    // Every sample line starts with scout_.
    for (const line of r.text.split('\n').filter((l) => l && !l.startsWith('#')))
      expect(line).toMatch(/^scout_[a-z0-9_]+[{ ]/);
  });

  it('needs the admin token: none or an API key is 401 in the error shape', async () => {
    expect((await t.request('GET', '/metrics', { key: null })).status).toBe(401);
    const withKey = await t.request<ErrorBody>('GET', '/metrics');
    expect(withKey.status).toBe(401);
    expect(withKey.body.error.message).toContain('API keys do not authorise');
  });

  it('SCOUT_METRICS_PORT serves the same metrics on loopback without a token, and nothing else', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'scout_rate_limit_refusals_total{route="/v1/search"}')).toBe(1);
    const post = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ error: { status: 405, message: '/metrics answers GET, not POST' } });
    const other = await fetch(`http://127.0.0.1:${metricsPort}/v1/search`);
    expect(other.status).toBe(404);
    expect((await other.json()).error.status).toBe(404);
  });
});

describe('GET /metrics without SCOUT_ADMIN_TOKEN', () => {
  it('is not served on the API port (404 in the error shape)', async () => {
    const t = await startTestScout();
    try {
      const r = await t.request('GET', '/metrics', { key: null });
      expect(r.status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('a taken SCOUT_METRICS_PORT stops the start in one line naming the setting', async () => {
    const taken = await startTestScout({ SCOUT_METRICS_PORT: String(await freePort()) });
    try {
      const port = taken.scout.metricsPort!;
      await expect(startTestScout({ SCOUT_METRICS_PORT: String(port) })).rejects.toThrow(
        `cannot serve metrics on 127.0.0.1:${port}: EADDRINUSE (set SCOUT_METRICS_PORT)`,
      );
    } finally {
      await taken.close();
    }
  });
});
