import { tavily } from '@tavily/core';
import { expectCompatMetrics, startWalkScout, WALK_ADMIN_TOKEN } from './compat-kit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResponse } from '../../src/schemas/map.ts';
import type { TavilyError, TavilyMapResponse } from '../../src/schemas/tavily.ts';
import { thrown } from '../helpers/thrown.ts';
import type { TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite, urlset } from '../map/map-fixture.ts';

/**
 * Tavily's POST /map (docs/compat.md) on a real Scout over loopback, driven by the real
 * @tavily/core, unmodified, against a fixture site on 127.0.0.2 through the operator
 * allowlist; /v1/map on the same site is the reference.
 */

let t: TestScout;
let site: Site;

beforeAll(async () => {
  site = await startMapSite({
    '/robots.txt': { body: (o) => `User-agent: *\nDisallow: /private\n\nSitemap: ${o.self}/sitemap.xml\n` },
    '/sitemap.xml': {
      type: 'application/xml',
      body: (o) =>
        urlset([
          `${o.self}/`,
          `${o.self}/docs/intro`,
          `${o.self}/docs/authentication`,
          `${o.self}/blog/2024/05/release-notes`,
          `${o.self}/blog/hello`,
        ]),
    },
    '/': html('Home', ['/guide', '/docs/intro', '/private/x']),
    '/guide': html('Guide', ['/guide/setup', '/docs/deep']),
    '/guide/setup': html('Setup'),
    '/docs/intro': html('Intro', ['/docs/deep']),
    '/docs/deep': html('Deep docs page'),
    '/docs/authentication': html('Authentication'),
  });
  t = await startWalkScout();
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
});

const client = () => tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
const v1 = async (body: Record<string, unknown>): Promise<string[]> => {
  const res = await t.request<MapResponse>('POST', '/v1/map', { body: { url: `${site.origin}/`, ...body } });
  expect(res.status).toBe(200);
  return res.body.results.map((r) => r.url);
};
const paths = (urls: string[]) => urls.map((u) => u.replace(site.origin, ''));

describe('@tavily/core map', () => {
  it("returns /v1/map's URLs for the same site, in its order, with base_url as sent", async () => {
    const res = await client().map(`${site.origin}/`);
    const reference = await v1({});
    expect(res.results).toEqual(reference);
    // Sitemap entries first, in sitemap order, then the links of the pages read, breadth first.
    expect(paths(res.results)).toEqual([
      '/',
      '/docs/intro',
      '/docs/authentication',
      '/blog/2024/05/release-notes',
      '/blog/hello',
      '/guide',
      '/guide/setup',
      '/docs/deep',
    ]);
    expect(res.baseUrl).toBe(`${site.origin}/`);
    expect(res.requestId).toMatch(/.+/);
    expect(typeof res.responseTime).toBe('number');
  });

  it('returns at most limit URLs, the first of /v1/map’s', async () => {
    const res = await client().map(`${site.origin}/`, { limit: 3 });
    expect(res.results).toEqual((await v1({})).slice(0, 3));
  });

  it('keeps the URLs select_paths matches and exclude_paths does not, and reads only such pages', async () => {
    site.log.length = 0;
    const res = await client().map(`${site.origin}/`, {
      selectPaths: ['^/docs/.*'],
      excludePaths: ['/auth[a-z]+$'],
    });
    expect(paths(res.results)).toEqual(['/docs/intro', '/docs/deep']);
    // /guide is kept out, so it is not read for links either (as /v1/map's include_paths).
    expect(site.log).not.toContain('/guide');
    const years = await client().map(`${site.origin}/`, { selectPaths: ['/blog/\\d{4}/'] });
    expect(paths(years.results)).toEqual(['/blog/2024/05/release-notes']);
  });

  it("refuses a pattern that needs backtracking with the SDK's error and Scout's message, before any request", async () => {
    site.log.length = 0;
    const err = await thrown(client().map(`${site.origin}/`, { selectPaths: ['/(docs)/\\1'] }));
    expect(err.message).toBe(
      'select_paths pattern "/(docs)/\\\\1" is not served: backreferences need a backtracking matcher, which Scout does not run on callers’ patterns. Scout matches patterns without backtracking (docs/compat.md lists what it takes)',
    );
    const look = await thrown(client().map(`${site.origin}/`, { excludePaths: ['/docs(?!/intro)'] }));
    expect(look.message).toMatch(/^exclude_paths pattern "\/docs\(\?!\/intro\)" is not served: lookahead/);
    expect(site.log).toEqual([]);
  });

  it('takes the topic words of instructions as the map’s search', async () => {
    const res = await client().map(`${site.origin}/`, { instructions: 'Find all pages about authentication' });
    expect(res.results).toEqual(await v1({ search: 'authentication' }));
    expect(paths(res.results)).toEqual(['/docs/authentication']);
  });

  it('works under a path key as the base URL', async () => {
    const res = await tavily({ apiKey: t.key, apiBaseURL: `${t.baseUrl}/k/${t.key}` }).map(`${site.origin}/`, {
      limit: 1,
    });
    expect(paths(res.results)).toEqual(['/']);
  });
});

describe('raw JSON', () => {
  it('ignores unknown fields and the bounds Scout does not have, takes api_key in the body', async () => {
    const res = await t.request<TavilyMapResponse>('POST', '/map', {
      key: null,
      body: {
        url: `${site.origin}/`,
        api_key: t.key,
        max_depth: 3,
        max_breadth: 7,
        allow_external: true,
        include_usage: true,
        categories: [],
        something_new: { a: 1 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual(await v1({}));
  });

  it("refuses in Tavily's shape: no key, a bad limit, categories; /v1/map stays strict", async () => {
    const none = await t.request<TavilyError>('POST', '/map', { key: null, body: { url: `${site.origin}/` } });
    expect(none.status).toBe(401);
    expect(none.body.detail.error).toMatch(/api_key/);
    const bad = await t.request<TavilyError>('POST', '/map', { body: { url: `${site.origin}/`, limit: 0 } });
    expect([bad.status, bad.body.detail.error]).toEqual([400, 'limit must be a whole number from 1']);
    const categories = await t.request<TavilyError>('POST', '/map', {
      body: { url: `${site.origin}/`, categories: ['Documentation'] },
    });
    expect(categories.status).toBe(400);
    expect(categories.body.detail.error).toMatch(/^categories are not served/);
    const strict = await t.request('POST', '/v1/map', { body: { url: `${site.origin}/`, max_depth: 1 } });
    expect(strict.status).toBe(400);
  });

  it('answers a refused start address 403, and another method 405, in Tavily’s shape', async () => {
    const refused = await t.request<TavilyError>('POST', '/map', { body: { url: 'http://127.0.0.1:9/' } });
    expect(refused.status).toBe(403);
    const get = await t.request<TavilyError>('GET', '/map');
    expect(get.status).toBe(405);
    expect(get.body).toEqual({ detail: { error: 'method GET is not allowed on /map; use POST' } });
  });
});

describe("Tavily's endpoints Scout does not serve", () => {
  it('answer 404 in Tavily’s shape, naming /map and /crawl among those served', async () => {
    const res = await t.request<TavilyError>('POST', '/research', { body: { input: 'x' } });
    expect([res.status, res.body.detail.error]).toEqual([
      404,
      "no route POST /research: of Tavily's API Scout serves POST /search, POST /extract, POST /map and POST /crawl only (no research or usage; docs/compat.md)",
    ]);
  });
});

describe('metrics', () => {
  it('count /map under its templates and the tavily shape, never the path that carries the key', async () => {
    const body = { url: `${site.origin}/`, limit: 1 };
    await t.request('POST', `/k/${t.key}/map`, { key: null, body });
    await t.request('POST', '/map', { body });
    await expectCompatMetrics(t, WALK_ADMIN_TOKEN, ['/k/:key/map', '/map'], { name: 'tavily', atLeast: 2 });
  });
});
