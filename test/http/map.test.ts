import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResponse } from '../../src/schemas/map.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { gzipped, html, type Site, sitemapIndex, startMapSite, urlset } from '../map/map-fixture.ts';
import { type RefusedHopSite, startRefusedHopSite } from '../map/refused-hop-site.ts';

/**
 * POST /v1/map against loopback fixture sites through the operator allowlist: the docs site
 * on 127.0.0.2, another site on 127.0.0.3 (allowed, but off the site), and 127.0.0.1 left
 * refused. No assertion on time: the deadline case only checks what the answer says.
 */

let t: TestScout;
let site: Site;
let other: Site;
let loopback: FixtureServer;

beforeAll(async () => {
  loopback = await startFixtureServer({ '/': { body: 'never to be read' } }, { host: '127.0.0.1' });
  other = await startMapSite({ '/landing': html('Another site') }, '127.0.0.3');
  site = await startMapSite(
    {
      '/robots.txt': {
        body: (o) => `User-agent: *\nDisallow: /private\n\nSitemap: ${o.self}/sitemap-index.xml\n`,
      },
      '/sitemap-index.xml': {
        type: 'application/xml',
        body: (o) => sitemapIndex([`${o.self}/sitemap-docs.xml`, `${o.self}/sitemap-blog.xml.gz`]),
      },
      '/sitemap-docs.xml': {
        type: 'application/xml',
        body: (o) =>
          urlset([
            `${o.self}/`,
            { loc: `${o.self}/docs/intro`, lastmod: '2025-01-02' },
            `${o.self}/docs/authentication`,
            `${o.self}/private/secret`,
            `${o.other}/elsewhere`,
          ]),
      },
      '/sitemap-blog.xml.gz': {
        type: 'application/gzip',
        body: (o) => gzipped(urlset([`${o.self}/blog/hello`, `${o.self}/blog/authentication-news`])),
      },
      '/': html('Home', ['/a', '/docs/intro', '/to-offsite', '/to-loopback', '/private/x', 'mailto:x@example.com']),
      '/a': html('Page A', ['/b']),
      '/b': html('Page B', ['/a', '/docs/deep']),
      '/docs/intro': html('Intro'),
      '/docs/deep': html('Deep docs page'),
      '/to-offsite': { status: 302, location: (o) => `${o.other}/landing` },
      '/to-loopback': { status: 302, location: () => `${loopback.origin}/` },
      '/private/x': html('Private'),
    },
    '127.0.0.2',
    { other: other.origin },
  );
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32,127.0.0.3/32',
    SCOUT_FETCH_TIMEOUT_MS: '30000',
    SCOUT_MAP_DELAY_MS: '0',
  });
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
  await other?.server.close();
  await loopback?.close();
});

const map = (body: Record<string, unknown>) => t.request<MapResponse>('POST', '/v1/map', { body });
const urls = (r: MapResponse) => r.results.map((x) => x.url.replace(site.origin, ''));

describe('POST /v1/map', () => {
  it('maps a site from robots.txt, a sitemap index (one child gzipped) and the links of its pages', async () => {
    site.log.length = 0;
    const res = await map({ url: `${site.origin}/` });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.complete).toBe(true);
    expect(body.stopped).toBeNull();
    // Sitemap entries first, in sitemap order; then what the pages linked to.
    expect(urls(body)).toEqual([
      '/',
      '/docs/intro',
      '/docs/authentication',
      '/blog/hello',
      '/blog/authentication-news',
      '/a',
      '/to-offsite',
      '/to-loopback',
      '/b',
      '/docs/deep',
    ]);
    const byPath = new Map(body.results.map((r) => [r.url.replace(site.origin, ''), r]));
    expect(byPath.get('/docs/intro')).toEqual({
      url: `${site.origin}/docs/intro`,
      source: 'sitemap',
      title: 'Intro',
      lastmod: '2025-01-02',
    });
    expect(byPath.get('/b')).toMatchObject({ source: 'page', title: 'Page B', lastmod: null });
    expect(byPath.get('/blog/hello')).toMatchObject({ source: 'sitemap', title: null });
    expect(body.sitemaps_read).toBe(3);
    // Charged one request per sitemap or page fetched; robots.txt is free.
    expect(body.charged).toBe(body.sitemaps_read + body.pages_read);
    // robots.txt: Disallow honoured (never requested, never returned), read once.
    expect(site.log.filter((p) => p.startsWith('/private'))).toEqual([]);
    expect(site.log.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(body.skipped).toContainEqual({
      url: `${site.origin}/private/secret`,
      reason: 'disallowed by robots.txt; left out',
    });
    // The link loop A → B → A ends: each page requested once.
    expect(site.log.filter((p) => p === '/a')).toHaveLength(1);
    expect(site.log.filter((p) => p === '/b')).toHaveLength(1);
    // A redirect off the site is not followed into the other site, nor one to a refused address.
    expect(other.server.requests).toEqual([]);
    expect(loopback.requests).toEqual([]);
    expect(body.skipped).toContainEqual({
      url: `${site.origin}/to-offsite`,
      reason: `redirected off the site to ${other.origin}/landing; not followed`,
    });
    expect(body.skipped).toContainEqual({
      url: `${site.origin}/to-loopback`,
      reason: `redirected off the site to ${loopback.origin}/; not followed`,
    });
    expect(body.results.some((r) => r.url.startsWith(other.origin))).toBe(false);
  });

  it('reads only the sitemaps with sitemap: only, and only the pages with sitemap: skip', async () => {
    site.log.length = 0;
    const only = (await map({ url: `${site.origin}/`, sitemap: 'only' })).body;
    expect(only.pages_read).toBe(0);
    expect(only.results.every((r) => r.source === 'sitemap')).toBe(true);
    expect(site.log.filter((p) => !p.startsWith('/sitemap') && p !== '/robots.txt')).toEqual([]);
    site.log.length = 0;
    const skip = (await map({ url: `${site.origin}/`, sitemap: 'skip' })).body;
    expect(skip.sitemaps_read).toBe(0);
    expect(skip.results.every((r) => r.source === 'page')).toBe(true);
    expect(site.log.filter((p) => p.startsWith('/sitemap'))).toEqual([]);
  });

  it('keeps the paths include_paths matches and exclude_paths does not, and reads only such pages', async () => {
    site.log.length = 0;
    const body = (await map({ url: `${site.origin}/`, include_paths: ['/docs/**'], exclude_paths: ['/docs/auth*'] }))
      .body;
    // /docs/deep is linked only from /b, reached through /a: pages the patterns keep the map from reading.
    expect(urls(body)).toEqual(['/docs/intro']);
    expect(site.log.filter((p) => p === '/a' || p === '/b')).toEqual([]);
    // The start page is read whatever the patterns.
    expect(site.log).toContain('/');
  });

  it('returns at most limit URLs and says it stopped there', async () => {
    const body = (await map({ url: `${site.origin}/`, limit: 2 })).body;
    expect(urls(body)).toEqual(['/', '/docs/intro']);
    expect(body.complete).toBe(false);
    expect(body.stopped).toBe('limit');
  });

  it('keeps the URLs matching the search words, the best matches first', async () => {
    const body = (await map({ url: `${site.origin}/`, search: 'authentication news' })).body;
    expect(urls(body)).toEqual(['/blog/authentication-news', '/docs/authentication']);
    const prefix = (await map({ url: `${site.origin}/`, search: 'auth', sitemap: 'only' })).body;
    expect(urls(prefix).sort()).toEqual(['/blog/authentication-news', '/docs/authentication']);
  });

  it('refuses unknown fields and bad values with the Error shape, before any request', async () => {
    const before = site.server.requests.length;
    for (const body of [
      { url: `${site.origin}/`, depth: 2 },
      { url: `${site.origin}/`, limit: 0 },
      { url: `${site.origin}/`, limit: 5001 },
      { url: `${site.origin}/`, include_paths: ['docs/**'] },
      { url: `${site.origin}/`, exclude_paths: ['/a?b'] },
      { url: `${site.origin}/`, sitemap: 'yes' },
      { url: 'ftp://example.com/' },
      { url: `${site.origin}/logo.png` },
      {},
    ]) {
      const res = await map(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await map({ url: `${site.origin}/`, depth: 2 })).text).toContain('depth');
    expect(site.server.requests.length).toBe(before);
  });

  it('answers 403 when the start itself is on a refused address', async () => {
    const res = await map({ url: `${loopback.origin}/` });
    expect(res.status).toBe(403);
    expect(loopback.requests).toEqual([]);
  });

  it('needs a key', async () => {
    const res = await t.request('POST', '/v1/map', { body: { url: `${site.origin}/` }, key: null });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/map: bounds', () => {
  let bounded: Site;
  beforeAll(async () => {
    // 64 MiB of zeros gzip to about 64 KiB: read up to the 10 MiB cut, no further.
    const bomb = gzipped(Buffer.alloc(64 * 1024 * 1024));
    bounded = await startMapSite({
      '/robots.txt': {
        body: (o) => `User-agent: *\nAllow: /\nSitemap: ${o.self}/bomb.xml.gz\nSitemap: ${o.self}/sitemap.xml\n`,
      },
      '/bomb.xml.gz': { type: 'application/gzip', body: bomb },
      '/sitemap.xml': { type: 'text/xml', body: (o) => urlset([`${o.self}/kept`]) },
      '/': html('Slow home'),
      '/slow': { hang: true },
    });
  });
  afterAll(async () => {
    await bounded?.server.close();
  });

  it('reads a gzip bomb sitemap only up to its cut, and goes on with the next sitemap', async () => {
    const body = (await map({ url: `${bounded.origin}/`, sitemap: 'only' })).body;
    expect(body.results.map((r) => r.url)).toEqual([`${bounded.origin}/kept`]);
    expect(body.skipped).toContainEqual({
      url: `${bounded.origin}/bomb.xml.gz`,
      reason: 'sitemap larger than 10 MiB decompressed: read up to there',
    });
    expect(body.sitemaps_read).toBe(2);
  });

  it('answers what it found when timeout_ms runs out, saying so', async () => {
    const body = (await map({ url: `${bounded.origin}/slow`, sitemap: 'include', timeout_ms: 1500 })).body;
    expect(body.complete).toBe(false);
    expect(body.stopped).toBe('deadline');
    expect(body.results.map((r) => r.url)).toContain(`${bounded.origin}/kept`);
  });
});

describe('POST /v1/map: a redirect to a refused address on the site', () => {
  let hop: RefusedHopSite;
  beforeAll(async () => {
    hop = await startRefusedHopSite();
  });
  afterAll(() => hop?.close());

  it('refuses the hop by the address policy, and the map goes on', async () => {
    const { start, inner, site: named, scout: s } = hop;
    const res = await s.request<MapResponse>('POST', '/v1/map', {
      body: { url: start, sitemap: 'skip', include_subdomains: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => r.url)).toEqual([start, `${start}go`, `${start}ok`]);
    const refused = res.body.skipped.find((x) => x.url === `${inner}/x`);
    expect(refused?.reason).toMatch(
      /^not mapping http:\/\/inner\.site\.test:\d+: its robots\.txt could not be read \(.*refused/,
    );
    expect(named.log).toContain('/ok');
  });
});

describe('POST /v1/map: the rate limit', () => {
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

  it('charges each further fetch as it goes and stops when the key runs out', async () => {
    const res = await s.request<MapResponse>('POST', '/v1/map', { body: { url: `${site.origin}/` } });
    expect(res.status).toBe(200);
    expect(res.body.stopped).toBe('rate_limited');
    expect(res.body.charged).toBe(3);
    expect(res.body.sitemaps_read + res.body.pages_read).toBe(3);
    expect((await s.request('POST', '/v1/map', { body: { url: `${site.origin}/` } })).status).toBe(429);
  });
});
