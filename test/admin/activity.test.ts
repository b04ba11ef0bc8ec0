import { describe, expect, it } from 'vitest';
import { createActivity, isAgentTraffic, requestKind, trafficClass } from '../../src/admin/activity.ts';
import { createRollingBuckets } from '../../src/admin/rolling-buckets.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);

describe('rolling buckets', () => {
  it('keeps the last n buckets, resets one the ring comes round to, and lists empty ones', () => {
    const r = createRollingBuckets(MIN, 3, () => ({ n: 0 }));
    r.at(T0).n += 1;
    r.at(T0 + MIN + 5).n += 2;
    expect(r.series(T0 + MIN).map((b) => b.bucket.n)).toEqual([0, 1, 2]);
    // Three minutes later the first slot is reused: its old count is gone.
    r.at(T0 + 3 * MIN).n += 7;
    expect(r.series(T0 + 3 * MIN).map((b) => [b.start - T0, b.bucket.n])).toEqual([
      [MIN, 2],
      [2 * MIN, 0],
      [3 * MIN, 7],
    ]);
    // Long idle: nothing stale is reported.
    expect(r.series(T0 + 10 * HOUR).map((b) => b.bucket.n)).toEqual([0, 0, 0]);
  });
});

describe('activity', () => {
  it("classes statuses and leaves the operator's own routes out of the traffic", () => {
    expect([200, 304, 400, 404, 429, 500, 503].map(trafficClass)).toEqual([
      'ok',
      'ok',
      'client_error',
      'client_error',
      'rate_limited',
      'server_error',
      'server_error',
    ]);
    expect(['/v1/search', '/v1/fetch', '/mcp', 'unmatched'].every(isAgentTraffic)).toBe(true);
    expect(['/admin', '/admin/v1/overview', '/metrics', '/healthz'].some(isAgentTraffic)).toBe(false);
  });

  // Issue 23: the dashboard drew one latency line of searches, fetches and MCP calls together.
  it('keeps the latency of searches, fetches, MCP requests, maps and crawls apart', () => {
    expect(
      [
        '/v1/search',
        '/search',
        '/k/:key/search',
        '/v1/fetch',
        '/v1/extract',
        '/extract',
        '/k/:key/extract',
        '/v2/scrape',
        '/mcp',
        '/v1/usage',
        'unmatched',
      ].map(requestKind),
    ).toEqual([
      'search',
      // The SearXNG and Tavily shapes' searches, with and without a path key (docs/compat.md).
      'search',
      'search',
      'fetch',
      // A batch of pages read in parallel.
      'fetch',
      // Tavily's extract and Firecrawl's scrape read pages.
      'fetch',
      'fetch',
      'fetch',
      'mcp',
      undefined,
      undefined,
    ]);
    const a = createActivity(() => T0);
    a.request(200, 0.001, 'search');
    a.request(200, 0.002, 'search');
    a.request(200, 2, 'fetch');
    a.request(200, 0.05, 'mcp');
    a.request(200, 8, 'map');
    a.request(200, 90, 'crawl');
    a.request(200, 30, undefined);
    for (const window of ['hour', 'day'] as const) {
      const { byKind, p95Ms } = a.traffic(window).points.at(-1)!;
      expect(byKind.search.p95Ms).toBeLessThan(3);
      expect(byKind.fetch.p50Ms).toBeGreaterThanOrEqual(2000);
      expect(byKind.fetch.p50Ms).toBeLessThan(3000);
      expect(byKind.mcp.p50Ms).toBeGreaterThanOrEqual(50);
      expect(byKind.mcp.p95Ms).toBeLessThan(100);
      // A quantile is its bucket's bound, at most 25% above the time (latency-sketch.ts).
      expect(byKind.map.p50Ms).toBeGreaterThanOrEqual(8000);
      expect(byKind.map.p95Ms).toBeLessThanOrEqual(8000 * 1.25);
      expect(byKind.crawl.p50Ms).toBeGreaterThanOrEqual(90_000);
      expect(byKind.crawl.p95Ms).toBeLessThanOrEqual(90_000 * 1.25);
      // The overall line still holds every request, the usage-like one too.
      expect(p95Ms).toBeGreaterThanOrEqual(30_000);
    }
    expect(a.traffic('hour').points.at(-2)!.byKind).toEqual({
      search: { p50Ms: null, p95Ms: null },
      fetch: { p50Ms: null, p95Ms: null },
      mcp: { p50Ms: null, p95Ms: null },
      map: { p50Ms: null, p95Ms: null },
      crawl: { p50Ms: null, p95Ms: null },
    });
  });

  // Issue 27: site maps and crawls counted in the totals only.
  it("keeps site maps and crawls apart, every shape of them, but not Firecrawl's job starts nor a job's status reads", () => {
    const kinds = (routes: string[]) => Object.fromEntries(routes.map((r) => [r, requestKind(r)]));
    // Scout's own, Tavily's and Firecrawl's, with and without a path key (docs/compat.md).
    const maps = ['/v1/map', '/map', '/k/:key/map', '/v2/map', '/k/:key/v2/map'];
    expect(kinds(maps)).toEqual(Object.fromEntries(maps.map((r) => [r, 'map'])));
    const crawls = ['/v1/crawl', '/crawl', '/k/:key/crawl'];
    expect(kinds(crawls)).toEqual(Object.fromEntries(crawls.map((r) => [r, 'crawl'])));
    // Starting a job (Firecrawl's POST /v2/crawl) and polling one answer at once: counted as
    // crawls, they would hide the walks' time.
    const status = ['/v2/crawl', '/k/:key/v2/crawl', '/v1/crawl/:id', '/v2/crawl/:id', '/k/:key/v2/crawl/:id'];
    expect(kinds(status)).toEqual(Object.fromEntries(status.map((r) => [r, undefined])));
  });

  it('counts traffic per minute for an hour and per hour for a day, with latency quantiles', () => {
    let now = T0;
    const a = createActivity(() => now);
    a.request(200, 0.01);
    a.request(200, 0.02);
    a.request(429, 0.001);
    now = T0 + 2 * MIN;
    a.request(500, 0.5);
    const hour = a.traffic('hour');
    expect(hour.bucketSeconds).toBe(60);
    expect(hour.points).toHaveLength(60);
    const last = hour.points.at(-1)!;
    const first = hour.points.at(-3)!;
    expect(first.start).toBe(T0);
    expect(first.counts).toEqual({ ok: 2, client_error: 0, rate_limited: 1, server_error: 0 });
    expect(last.counts).toEqual({ ok: 0, client_error: 0, rate_limited: 0, server_error: 1 });
    expect(last.p50Ms).toBeGreaterThanOrEqual(500);
    expect(hour.points.at(-2)!.p50Ms).toBeNull();
    const day = a.traffic('day');
    expect(day.bucketSeconds).toBe(3600);
    expect(day.points).toHaveLength(24);
    expect(day.points.at(-1)!.counts).toEqual({ ok: 2, client_error: 0, rate_limited: 1, server_error: 1 });
    // Two hours on, the hour's plot is empty and the day's still holds them.
    now = T0 + 2 * HOUR;
    expect(a.traffic('hour').points.every((p) => p.counts.ok === 0)).toBe(true);
    expect(a.traffic('day').points.at(-3)!.counts.ok).toBe(2);
  });

  it('sums provider calls over the last hour and fetch outcomes over the last day', () => {
    let now = T0;
    const a = createActivity(() => now);
    a.provider('brave', 'ok', 0.2);
    a.provider('brave', 'timeout', 6);
    a.provider('searxng', 'error', 0.05);
    a.fetch('https://www.Example.com/a', 'blocked');
    a.fetch('https://example.com/b', 'ok');
    a.fetch('http://127.0.0.1/x', 'refused');
    a.fetch('not a url', 'invalid');
    a.fetch('https://busy.example/', 'busy');
    expect(a.providers()).toEqual([
      { name: 'brave', requests: 2, errors: 0, timeouts: 1, p50Ms: expect.any(Number), p95Ms: expect.any(Number) },
      { name: 'searxng', requests: 1, errors: 1, timeouts: 0, p50Ms: expect.any(Number), p95Ms: expect.any(Number) },
    ]);
    expect(a.fetchOutcomes()).toMatchObject({ ok: 1, blocked: 1, refused: 1, invalid: 1, busy: 1, timeout: 0 });
    // www. folded, caller mistakes and Scout's own load left out.
    expect(a.refusedDomains(10).map((d) => [d.domain, d.count, d.outcomes])).toEqual([
      ['example.com', 1, { blocked: 1 }],
      ['127.0.0.1', 1, { refused: 1 }],
    ]);
    now = T0 + 2 * HOUR;
    expect(a.providers()).toEqual([]);
    expect(a.fetchOutcomes().blocked).toBe(1);
    now = T0 + 25 * HOUR;
    expect(a.fetchOutcomes().blocked).toBe(0);
  });
});
