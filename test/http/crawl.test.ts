import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlResponse } from '../../src/schemas/crawl.ts';
import type { ExtractResponse } from '../../src/schemas/extract.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite, urlset } from '../map/map-fixture.ts';
import { type RefusedHopSite, startRefusedHopSite } from '../map/refused-hop-site.ts';

/**
 * POST /v1/crawl against loopback fixture sites through the operator allowlist: the site on
 * 127.0.0.2, another site on 127.0.0.3 (allowed, but off the site), and 127.0.0.1 left
 * refused. No assertion on time: the deadline cases only check what the answer says.
 */

let t: TestScout;
let site: Site;
let other: Site;
let slow: Site;
let loopback: FixtureServer;

/** About 6,000 characters of text in paragraphs, to be read on across calls. */
const LONG_TEXT = Array.from(
  { length: 60 },
  (_, i) => `Paragraph ${i + 1} of the long page, which a crawl returns a window of and extract reads on.`,
);

beforeAll(async () => {
  loopback = await startFixtureServer({ '/': { body: 'never to be read' } }, { host: '127.0.0.1' });
  other = await startMapSite({ '/landing': html('Another site') }, '127.0.0.3');
  site = await startMapSite(
    {
      '/robots.txt': { body: (o) => `User-agent: *\nDisallow: /private\n\nSitemap: ${o.self}/sitemap.xml\n` },
      '/sitemap.xml': { type: 'application/xml', body: (o) => urlset([`${o.self}/`, `${o.self}/orphan`]) },
      '/': html('Home', ['/a', '/b', '/private/x', '/to-offsite', '/long', 'mailto:x@example.com']),
      '/a': html('Page A', ['/b', '/a/deep', '/']),
      '/b': html('Page B', ['/a', '/b/deep']),
      '/a/deep': html('Deep A', ['/a/deep/deeper']),
      '/a/deep/deeper': html('Deeper A'),
      '/b/deep': html('Deep B'),
      '/private/x': html('Private'),
      '/to-offsite': { status: 302, location: (o) => `${o.other}/landing` },
      '/long': {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><html><head><title>Long</title></head><body><main>${LONG_TEXT.map((p) => `<p>${p}</p>`).join('')}</main></body></html>`,
      },
      '/orphan': html('Orphan, only in the sitemap'),
      // Links to 30 pages that do not exist (404): fetched, failed, counted against the fetch budget.
      '/broken': html(
        'Broken links',
        Array.from({ length: 30 }, (_, i) => `/gone/${i}`),
      ),
    },
    '127.0.0.2',
    { other: other.origin },
  );
  slow = await startMapSite({ '/': html('Slow home', ['/slow', '/ok']), '/slow': { hang: true }, '/ok': html('Fine') });
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32,127.0.0.3/32',
    // A page that never answers fails on this deadline alone.
    SCOUT_FETCH_TIMEOUT_MS: '2000',
    SCOUT_MAP_DELAY_MS: '0',
  });
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
  await other?.server.close();
  await slow?.server.close();
  await loopback?.close();
});

const crawl = (body: Record<string, unknown>) => t.request<CrawlResponse>('POST', '/v1/crawl', { body });
const paths = (r: CrawlResponse, origin = site.origin) => r.pages.map((p) => p.url.replace(origin, ''));

describe('POST /v1/crawl', () => {
  it('reads the site breadth first to max_depth, in crawl order, one fetch per page', async () => {
    site.log.length = 0;
    const res = await crawl({ url: `${site.origin}/` });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(paths(body)).toEqual(['/', '/a', '/b', '/long', '/a/deep', '/b/deep']);
    expect(body.pages.map((p) => p.depth)).toEqual([0, 1, 1, 1, 2, 2]);
    const a = body.pages[1];
    expect(a).toMatchObject({ url: `${site.origin}/a`, final_url: `${site.origin}/a`, title: 'Page A' });
    expect(a?.content).toContain('Page A: a page of the fixture site.');
    expect(a?.chars).toBe(a?.content.length);
    expect(a?.next_index).toBeNull();
    // /a/deep/deeper is three links away: the depth bound left it.
    expect(body.complete).toBe(false);
    expect(body.stopped).toBe('depth');
    expect(site.log).not.toContain('/a/deep/deeper');
    // The link loop A → B → A (and back to /) ends: each page requested once, links and content from that one fetch.
    for (const p of ['/', '/a', '/b', '/long'])
      expect(
        site.log.filter((x) => x === p),
        p,
      ).toHaveLength(1);
    // robots.txt: read once, Disallow honoured.
    expect(site.log.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(site.log.filter((p) => p.startsWith('/private'))).toEqual([]);
    expect(body.skipped).toContainEqual({ url: `${site.origin}/private/x`, reason: 'disallowed by robots.txt' });
    // A redirect off the site is not followed.
    expect(other.server.requests).toEqual([]);
    expect(body.skipped).toContainEqual({
      url: `${site.origin}/to-offsite`,
      reason: `redirected off the site to ${other.origin}/landing; not followed`,
    });
    // The sitemap is not read unless asked for.
    expect(site.log).not.toContain('/sitemap.xml');
    expect(body.sitemaps_read).toBe(0);
    // One request per page fetched (the off-site redirect included); robots.txt is free.
    expect(body.pages_read).toBe(7);
    expect(body.charged).toBe(body.pages_read);
  });

  it('reads the start page alone with max_depth 0, and everything within reach with a deeper max_depth', async () => {
    const zero = (await crawl({ url: `${site.origin}/`, max_depth: 0 })).body;
    expect(paths(zero)).toEqual(['/']);
    expect(zero.stopped).toBe('depth');
    const all = (await crawl({ url: `${site.origin}/`, max_depth: 5 })).body;
    expect(paths(all)).toEqual(['/', '/a', '/b', '/long', '/a/deep', '/b/deep', '/a/deep/deeper']);
    expect(all.complete).toBe(true);
    expect(all.stopped).toBeNull();
  });

  it('returns at most limit pages, the first in crawl order, and says it stopped there', async () => {
    const body = (await crawl({ url: `${site.origin}/`, limit: 2 })).body;
    expect(paths(body)).toEqual(['/', '/a']);
    expect(body.complete).toBe(false);
    expect(body.stopped).toBe('limit');
    expect(body.pages_read).toBe(2);
  });

  it('fetches at most limit + 20 pages, failures included, and says it stopped at that budget', async () => {
    const body = (await crawl({ url: `${site.origin}/broken`, max_depth: 1, limit: 2 })).body;
    expect(paths(body)).toEqual(['/broken']);
    expect(body.pages_read).toBe(22);
    expect(body.charged).toBe(22);
    expect(body.stopped).toBe('fetch_budget');
    expect(body.skipped).toContainEqual({ url: `${site.origin}/gone/0`, reason: 'origin answered 404 (Not Found)' });
  });

  it('reads only the paths include_paths matches and exclude_paths does not (the start page for its links only)', async () => {
    site.log.length = 0;
    const body = (
      await crawl({ url: `${site.origin}/`, max_depth: 5, include_paths: ['/a/**'], exclude_paths: ['/a/deep/*'] })
    ).body;
    expect(paths(body)).toEqual(['/a', '/a/deep']);
    expect(body.complete).toBe(true);
    expect(site.log).toContain('/');
    expect(site.log.filter((p) => p.startsWith('/b') || p === '/a/deep/deeper')).toEqual([]);
  });

  it('queues the sitemap URLs one link from the start page with sitemap: include', async () => {
    const body = (await crawl({ url: `${site.origin}/`, max_depth: 1, sitemap: 'include' })).body;
    expect(paths(body)).toEqual(['/', '/a', '/b', '/long', '/orphan']);
    expect(body.pages.at(-1)?.depth).toBe(1);
    expect(body.sitemaps_read).toBe(1);
    expect(body.charged).toBe(body.pages_read + body.sitemaps_read);
  });

  it('cuts each page to max_chars, and /v1/extract reads on from its next_index exactly', async () => {
    const body = (await crawl({ url: `${site.origin}/long`, max_depth: 0, max_chars: 1000 })).body;
    const page = body.pages[0];
    expect(page?.chars).toBeLessThanOrEqual(1000);
    expect(page?.truncated).toBe(true);
    expect(page?.next_index).toBe(page?.chars);
    const rest = await t.request<ExtractResponse>('POST', '/v1/extract', {
      body: { urls: [page?.url], start_index: page?.next_index, max_chars: 200000 },
    });
    const whole = await t.request<ExtractResponse>('POST', '/v1/extract', {
      body: { urls: [page?.url], max_chars: 200000 },
    });
    const restEntry = rest.body.results[0];
    const wholeEntry = whole.body.results[0];
    if (restEntry?.ok !== true || wholeEntry?.ok !== true) throw new Error('extract failed');
    expect(`${page?.content}${restEntry.content}`).toBe(wholeEntry.content);
    expect(page?.total_chars).toBe(wholeEntry.total_chars);
  });

  it('returns the passages of each page relevant to query, as /v1/extract does', async () => {
    const body = (await crawl({ url: `${site.origin}/`, max_depth: 1, query: 'page B fixture', max_passages: 1 })).body;
    const b = body.pages.find((p) => p.url === `${site.origin}/b`);
    expect(b?.passages).toHaveLength(1);
    expect(b?.content).toContain('Page B');
    for (const p of body.pages) expect(p.passages?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it('refuses unknown fields and bad values with the Error shape, before any request', async () => {
    const before = site.server.requests.length;
    for (const body of [
      { url: `${site.origin}/`, depth: 2 },
      { url: `${site.origin}/`, limit: 101 },
      { url: `${site.origin}/`, limit: 0 },
      { url: `${site.origin}/`, max_depth: 6 },
      { url: `${site.origin}/`, max_chars: 100 },
      { url: `${site.origin}/`, timeout_ms: 120001 },
      { url: `${site.origin}/`, sitemap: 'only' },
      { url: `${site.origin}/`, include_paths: ['a/**'] },
      { url: `${site.origin}/`, max_passages: 2 },
      { url: 'ftp://example.com/' },
      { url: `${site.origin}/logo.png` },
      {},
    ]) {
      const res = await crawl(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await crawl({ url: `${site.origin}/`, depth: 2 })).text).toContain('depth');
    expect((await crawl({ url: `${site.origin}/`, limit: 101 })).text).toContain('limit');
    expect(site.server.requests.length).toBe(before);
  });

  it('answers 403 when the start itself is on a refused address', async () => {
    const res = await crawl({ url: `${loopback.origin}/` });
    expect(res.status).toBe(403);
    expect(loopback.requests).toEqual([]);
  });

  it('needs a key', async () => {
    const res = await t.request('POST', '/v1/crawl', { body: { url: `${site.origin}/` }, key: null });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/crawl: slow pages and the deadline', () => {
  it('lets a page that never answers fail alone on its fetch deadline, and returns the others', async () => {
    const body = (await crawl({ url: `${slow.origin}/`, max_depth: 1 })).body;
    expect(paths(body, slow.origin)).toEqual(['/', '/ok']);
    const failed = body.skipped.find((s) => s.url === `${slow.origin}/slow`);
    expect(failed?.reason).toMatch(/took longer than|timed out|deadline/i);
    expect(body.complete).toBe(true);
  });

  it('answers the pages it has when timeout_ms runs out, saying so', async () => {
    const res = await crawl({ url: `${slow.origin}/`, max_depth: 1, timeout_ms: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(false);
    expect(res.body.stopped).toBe('deadline');
    expect(paths(res.body, slow.origin)).toEqual(['/']);
  });
});

describe('POST /v1/crawl: a redirect to a refused address on the site', () => {
  let hop: RefusedHopSite;
  beforeAll(async () => {
    hop = await startRefusedHopSite();
  });
  afterAll(() => hop?.close());

  it('lists the refused hop in skipped, and the crawl goes on', async () => {
    const { start, inner, site: named, scout: s } = hop;
    const res = await s.request<CrawlResponse>('POST', '/v1/crawl', {
      body: { url: start, include_subdomains: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.pages.map((p) => p.url)).toEqual([start, `${start}ok`]);
    const refused = res.body.skipped.find((x) => x.url === `${inner}/x`);
    expect(refused?.reason).toMatch(
      /^not crawling http:\/\/inner\.site\.test:\d+: its robots\.txt could not be read \(.*refused/,
    );
    expect(named.log).toContain('/ok');
  });
});

describe('POST /v1/crawl: the rate limit', () => {
  let s: TestScout;
  beforeAll(async () => {
    s = await startTestScout({
      SCOUT_RATE_LIMIT_RPM: '3',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_MAP_DELAY_MS: '0',
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('charges each page as it goes and stops with what it has when the key runs out', async () => {
    const res = await s.request<CrawlResponse>('POST', '/v1/crawl', { body: { url: `${site.origin}/` } });
    expect(res.status).toBe(200);
    expect(res.body.stopped).toBe('rate_limited');
    expect(res.body.charged).toBe(3);
    expect(res.body.pages_read).toBe(3);
    expect(paths(res.body)).toEqual(['/', '/a', '/b']);
    expect((await s.request('POST', '/v1/crawl', { body: { url: `${site.origin}/` } })).status).toBe(429);
  });
});
