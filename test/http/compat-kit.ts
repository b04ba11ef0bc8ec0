import { expect } from 'vitest';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { stubProbe, stubResolver } from '../sponsored/sponsored-fixture.ts';

/** What the compat shapes' tests (searxng, tavily) share: their corpus and a few helpers. */

export const TODAY = new Date().toISOString().slice(0, 10);

/**
 * `n` quillwort pages: the odd ones published today, the even ones years ago; each says
 * "quillwort" a different number of times, so they rank apart.
 */
export const quillwortPages = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    url: `https://plants${i + 1}.example/quillwort`,
    title: `Quillwort notes ${i + 1}`,
    content: `${'Quillwort '.repeat(15 - i)}grows at the edge of cold lakes, page ${i + 1}.`,
    published_date: i % 2 === 0 ? TODAY : '2019-05-01',
  }));

/** Three running-shoe reviews, the words a test campaign bids on. */
export const SHOES = [1, 2, 3].map((n) => ({
  url: `https://runners${n}.example/shoes`,
  title: `Running shoes review ${n}`,
  content: `${'Running shoes '.repeat(4 - n)}for trails and roads, review ${n}.`,
}));

/** A resolver and landing probe that never leave the machine (campaigns' landing checks). */
export const offline = () => ({ resolver: stubResolver().resolver, landingProbe: stubProbe().probe });

export const organicUrls = (body: SearchResponse): string[] =>
  body.results.filter((r) => r.type === 'organic').map((r) => r.url);

/** Waits (bounded: a hang, not a speed check) until a new campaign shows on /v1/search. */
export async function untilSponsored(s: TestScout, query: string): Promise<void> {
  for (const end = performance.now() + 30_000; performance.now() < end; ) {
    const r = await s.request<SearchResponse>('POST', '/v1/search', { body: { query } });
    if (r.body.meta.sponsored_count > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the campaign never showed on /v1/search');
}

/**
 * What a compat shape's metrics must show after its calls (POSTs answered 2xx under each
 * of `routes`, and at least `atLeast` answers under `shape`), and never: the key, which a
 * path-key route carries in its path. Read from GET /metrics with the admin token.
 */
export async function expectCompatMetrics(
  t: TestScout,
  adminToken: string,
  routes: readonly string[],
  shape?: { name: string; atLeast: number },
): Promise<void> {
  const { text } = await t.request('GET', '/metrics', {
    key: null,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  for (const route of routes)
    expect(text).toMatch(
      new RegExp(
        `^scout_http_requests_total\\{route="${route}",method="POST",status_class="2xx",outcome="ok"\\} [1-9]`,
        'm',
      ),
    );
  if (shape !== undefined) {
    const count = new RegExp(
      `^scout_compat_requests_total\\{shape="${shape.name}",status_class="2xx"\\} (\\d+)`,
      'm',
    ).exec(text);
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(shape.atLeast);
  }
  expect(text).not.toContain(t.key);
}

/** The operator token the compat shapes' site-walk tests read /metrics with. */
export const WALK_ADMIN_TOKEN = 'admin-token-0123456789abcdef';

/**
 * A Scout for the compat shapes' site walks (Tavily's and Firecrawl's map and crawl): keys in
 * the path too, the loopback site on 127.0.0.2 allowed, no pause between a walk's pages, and
 * an operator token for its metrics.
 */
export const startWalkScout = (): Promise<TestScout> =>
  startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_PATH_KEYS: 'true',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_FETCH_TIMEOUT_MS: '30000',
    SCOUT_MAP_DELAY_MS: '0',
    SCOUT_ADMIN_TOKEN: WALK_ADMIN_TOKEN,
  });
