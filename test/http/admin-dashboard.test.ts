import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminKey, AdminOverview } from '../../src/schemas/admin.ts';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { Usage } from '../../src/schemas/usage.ts';
import { requestKind } from '../../src/admin/activity.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { html, startMapSite, type Site } from '../map/map-fixture.ts';

const TOKEN = 'dashboard-admin-token-0123456789abcdef';
const admin = { key: null, headers: { authorization: `Bearer ${TOKEN}` } };
const ARTICLE =
  '<!doctype html><html><head><title>Counted terns</title></head><body><main><article><h1>Counted terns</h1>' +
  '<p>Arctic terns fly from pole to pole every year and see more daylight than any other animal.</p></article></main></body></html>';

describe("the dashboard's data: /admin/v1/overview and /admin/v1/keys after known traffic", () => {
  let t: TestScout;
  let page: FixtureServer;
  let other: string;
  let otherId: string;

  beforeAll(async () => {
    page = await startFixtureServer({
      '/terns': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
    });
    t = await startTestScout({
      SCOUT_ADMIN_TOKEN: TOKEN,
      SCOUT_RATE_LIMIT_RPM: '4',
      SCOUT_MONTHLY_SEARCH_BUDGET: '100',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    });
    const created = await t.scout.keys.create('other');
    other = created.key;
    otherId = created.id;
    // The test key: 2 searches, 1 fetch, 1 refused fetch, then one over the limit of 4.
    expect((await t.request('POST', '/v1/search', { body: { query: 'getting started' } })).status).toBe(200);
    expect((await t.request('GET', '/v1/search?q=fetching')).status).toBe(200);
    expect((await t.request('POST', '/v1/fetch', { body: { url: page.url('/terns') } })).status).toBe(200);
    expect((await t.request('POST', '/v1/fetch', { body: { url: 'http://127.0.0.1:9/private' } })).status).toBe(403);
    expect((await t.request('POST', '/v1/search', { body: { query: 'one too many' } })).status).toBe(429);
    // The other key: one bad request (400).
    expect((await t.request('POST', '/v1/search', { key: other, body: { query: '' } })).status).toBe(400);
  });
  afterAll(async () => {
    await t?.close();
    await page?.close();
  });

  it('needs the admin token; answers are never cached', async () => {
    for (const path of ['/admin/v1/overview', '/admin/v1/keys']) {
      const r = await t.request('GET', path);
      expect(r.status).toBe(401);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    const ok = await t.request('GET', '/admin/v1/overview', admin);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it("counts the agents' traffic by outcome (not the operator's own calls), with latencies", async () => {
    // Polling the dashboard itself must not show up as traffic.
    for (let i = 0; i < 3; i++) await t.request('GET', '/admin/v1/overview', admin);
    const o = (await t.request<AdminOverview>('GET', '/admin/v1/overview', admin)).body;
    type Bucket = AdminOverview['traffic']['hour']['buckets'][number];
    const sum = (buckets: Bucket[], k: 'ok' | 'client_error' | 'rate_limited' | 'server_error') =>
      buckets.reduce((n, b) => n + (b[k] ?? 0), 0);
    for (const window of ['hour', 'day'] as const) {
      const b = o.traffic[window].buckets;
      expect(b).toHaveLength(window === 'hour' ? 60 : 24);
      expect(o.traffic[window].bucket_seconds).toBe(window === 'hour' ? 60 : 3600);
      expect(sum(b, 'ok')).toBe(3);
      expect(sum(b, 'client_error')).toBe(2);
      expect(sum(b, 'rate_limited')).toBe(1);
      expect(sum(b, 'server_error')).toBe(0);
      const busy = b.filter((x: { ok: number }) => x.ok > 0);
      expect(busy.every((x) => x.p50_ms !== null && x.p50_ms > 0 && x.p95_ms! >= x.p50_ms)).toBe(true);
      // Searches and fetches were made, no MCP request, map or crawl: each kind's latency apart.
      type Kind = { p50_ms: number | null; p95_ms: number | null };
      const kinds = (k: keyof Bucket['latency']) => b.map((x) => x.latency[k]);
      expect(kinds('search').some((l: Kind) => l.p50_ms !== null && l.p95_ms! >= l.p50_ms)).toBe(true);
      expect(kinds('fetch').some((l: Kind) => l.p50_ms !== null && l.p95_ms! >= l.p50_ms)).toBe(true);
      for (const none of ['mcp', 'map', 'crawl'] as const)
        expect(
          kinds(none).every((l: Kind) => l.p50_ms === null && l.p95_ms === null),
          none,
        ).toBe(true);
    }
    expect(Date.parse(o.started_at)).toBeLessThanOrEqual(Date.parse(o.generated_at));
    expect(o.storage).toBe('embedded');
  });

  it("shows each key's requests, refusals and last use, as the store has them", async () => {
    const before = Date.now();
    const { keys } = (await t.request<{ keys: AdminKey[] }>('GET', '/admin/v1/keys', admin)).body;
    const mine = keys.find((k: { name: string }) => k.name === 'test');
    expect(mine).toMatchObject({ requests: 5, refusals: 1, revoked_at: null });
    expect(Date.parse(mine!.last_used_at!)).toBeLessThanOrEqual(before);
    expect(keys.find((k: { id: string }) => k.id === otherId)).toMatchObject({
      name: 'other',
      requests: 1,
      refusals: 0,
    });
    // The overview's table is the same list.
    expect((await t.request<AdminOverview>('GET', '/admin/v1/overview', admin)).body.keys).toEqual(keys);
  });

  it('reports the budget as /v1/usage does, with its projection', async () => {
    const usage = (await t.request<Usage>('GET', '/v1/usage')).body;
    const { budget } = (await t.request<AdminOverview>('GET', '/admin/v1/overview', admin)).body;
    expect(budget).toMatchObject({ total: 100, used: usage.budget.units_used, left: usage.budget.units_left });
    expect(budget!.used).toBeGreaterThan(0);
    expect(budget!.projected_used).toBeGreaterThanOrEqual(budget!.used);
  });

  it('lists fetch outcomes, the refused host, providers and the index', async () => {
    const o = (await t.request<AdminOverview>('GET', '/admin/v1/overview', admin)).body;
    expect(o.fetch.outcomes).toMatchObject({ ok: 1, refused: 1, blocked: 0 });
    expect(o.fetch.refused_domains).toEqual([
      { domain: '127.0.0.1', count: 1, outcomes: { refused: 1 }, last_at: expect.any(String) },
    ]);
    const local = o.providers.find((p: { name: string }) => p.name === 'local');
    expect(local).toMatchObject({ breaker: 'closed', errors: 0, timeouts: 0, waiting: 0, last_error: null });
    // Searched above: its last call answered.
    expect(local?.health).toBe('ok');
    expect(Date.parse(local?.last_call_at ?? '')).toBeGreaterThan(0);
    expect(local!.requests).toBeGreaterThanOrEqual(2);
    const stats = await t.scout.index.stats();
    expect(o.index).toMatchObject({
      documents: stats.documents,
      domains: stats.domains,
      state: t.scout.index.rankerStatus().state,
    });
    expect(o.campaigns).toEqual([]);
  });

  it('revokes a key: its next request is refused, a second revoke changes nothing, an unknown id is 404', async () => {
    const r = await t.request<AdminKey>('POST', `/admin/v1/keys/${otherId}/revoke`, admin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: otherId, name: 'other', requests: 1 });
    expect(r.body.revoked_at).not.toBeNull();
    expect((await t.request('POST', '/v1/search', { key: other, body: { query: 'terns' } })).status).toBe(401);
    const again = await t.request<AdminKey>('POST', `/admin/v1/keys/${otherId}/revoke`, admin);
    expect(again.body.revoked_at).toBe(r.body.revoked_at);
    const unknown = await t.request<ErrorBody>('POST', '/admin/v1/keys/key_nope/revoke', admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('/admin/v1/keys');
  });

  it('keeps key usage across a restart: the last batch is written on close', async () => {
    const mine = async () =>
      ((await t.request<{ keys: AdminKey[] }>('GET', '/admin/v1/keys', admin)).body.keys as { name: string }[]).find(
        (k) => k.name === 'test',
      );
    const before = await mine();
    // Counted in memory only: no flush comes before the close.
    expect((await t.request('GET', '/v1/usage')).status).toBe(200);
    await t.restart();
    expect(await mine()).toEqual({
      ...before,
      requests: (before as unknown as { requests: number }).requests + 1,
      last_used_at: expect.any(String),
    });
  });
});

describe('the dashboard page', () => {
  let t: TestScout;
  beforeAll(async () => {
    t = await startTestScout({ SCOUT_ADMIN_TOKEN: TOKEN });
  });
  afterAll(() => t?.close());

  it('is served without a token (it holds no data) under a strict Content-Security-Policy', async () => {
    const html = await fetch(`${t.baseUrl}/admin`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await html.text();
    for (const asset of [
      '/admin/dashboard.js',
      '/admin/dashboard.css',
      '/admin/vendor/uPlot.iife.min.js',
      '/admin/vendor/uPlot.min.css',
    ]) {
      expect(body).toContain(asset);
      const r = await fetch(t.baseUrl + asset);
      expect(r.status, asset).toBe(200);
      expect(r.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect((await r.text()).length).toBeGreaterThan(100);
    }
  });

  it('does not exist when SCOUT_ADMIN_TOKEN is unset', async () => {
    const off = await startTestScout({});
    try {
      for (const path of ['/admin', '/admin/dashboard.js', '/admin/v1/overview', '/admin/v1/keys']) {
        expect((await off.request('GET', path, admin)).status, path).toBe(404);
      }
    } finally {
      await off.close();
    }
  });
});

// Issue 27: site maps and crawls counted in the totals only, not as a kind of their own.
describe("the dashboard's latency of site walks: maps and crawls apart, in every shape", () => {
  let t: TestScout;
  let site: Site;

  beforeAll(async () => {
    site = await startMapSite({ '/': html('Home', ['/a']), '/a': html('A') });
    t = await startTestScout({
      SCOUT_ADMIN_TOKEN: TOKEN,
      SCOUT_RATE_LIMIT_RPM: '100000',
      SCOUT_PATH_KEYS: 'true',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_MAP_DELAY_MS: '0',
    });
  });
  afterAll(async () => {
    await t?.close();
    await site?.server.close();
  });

  it("draws each shape's maps and crawls on their own lines, by the templates the routes register", async () => {
    const url = `${site.origin}/`;
    const map = { url, limit: 2 };
    const crawl = { url, max_depth: 0 };
    // Scout's own, Tavily's and Firecrawl's (docs/compat.md), with and without a path key.
    const calls: [string, unknown][] = [
      ['/v1/map', map],
      ['/map', map],
      ['/k/:key/map', map],
      ['/v2/map', map],
      ['/k/:key/v2/map', map],
      ['/v1/crawl', crawl],
      ['/crawl', crawl],
      ['/k/:key/crawl', crawl],
    ];
    for (const [route, body] of calls) {
      // Under a path key the key is in the path only.
      const pathKey = route.startsWith('/k/');
      const res = await t.request('POST', route.replace(':key', t.key), { body, key: pathKey ? null : t.key });
      expect(res.status, route).toBe(200);
    }

    const o = (await t.request<AdminOverview>('GET', '/admin/v1/overview', admin)).body;
    for (const window of ['hour', 'day'] as const) {
      const b = o.traffic[window].buckets;
      const kinds = (k: keyof (typeof b)[number]['latency']) => b.map((x) => x.latency[k]);
      for (const walk of ['map', 'crawl'] as const)
        expect(
          kinds(walk).some((l) => l.p50_ms !== null && l.p95_ms! >= l.p50_ms),
          walk,
        ).toBe(true);
      for (const none of ['search', 'fetch', 'mcp'] as const)
        expect(
          kinds(none).every((l) => l.p50_ms === null && l.p95_ms === null),
          none,
        ).toBe(true);
    }

    // Each POST's route template, as the app reported it (the metrics' label), is of its kind:
    // a renamed route would fall out of its line without this.
    const { text } = await t.request('GET', '/metrics', admin);
    const routes = [...text.matchAll(/^scout_http_requests_total\{route="([^"]+)",method="POST",/gm)].map((m) => m[1]!);
    expect(Object.fromEntries(routes.map((r) => [r, requestKind(r)]))).toEqual({
      '/v1/map': 'map',
      '/map': 'map',
      '/k/:key/map': 'map',
      '/v2/map': 'map',
      '/k/:key/v2/map': 'map',
      '/v1/crawl': 'crawl',
      '/crawl': 'crawl',
      '/k/:key/crawl': 'crawl',
    });
  });
});
