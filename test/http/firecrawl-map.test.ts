import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { expectCompatMetrics, startWalkScout, WALK_ADMIN_TOKEN } from './compat-kit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirecrawlError, FirecrawlMapResponse } from '../../src/schemas/firecrawl.ts';
import type { MapLink, MapResponse } from '../../src/schemas/map.ts';
import { thrown as rejection } from '../helpers/thrown.ts';
import type { TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite, urlset } from '../map/map-fixture.ts';

/** What the SDK throws, for assertions on its class, status and message. */
const thrown = (p: Promise<unknown>) => rejection(p, SdkError);

/**
 * Firecrawl's POST /v2/map (docs/compat.md) on a real Scout over loopback, driven by the real
 * @mendable/firecrawl-js, unmodified, against a fixture site on 127.0.0.2 through the operator
 * allowlist; /v1/map on the same site is the reference.
 */

let t: TestScout;
let site: Site;
let client: Firecrawl;

beforeAll(async () => {
  site = await startMapSite({
    '/robots.txt': { body: (o) => `User-agent: *\nSitemap: ${o.self}/sitemap.xml\n` },
    '/sitemap.xml': {
      type: 'application/xml',
      body: (o) => urlset([`${o.self}/`, `${o.self}/docs/intro`, `${o.self}/docs/authentication`]),
    },
    '/': html('Home', ['/guide', '/docs/intro', '/blog?page=2', '/blog']),
    '/guide': html('Guide', ['/guide/authentication-setup']),
    '/guide/authentication-setup': html('Setting up authentication'),
    '/docs/intro': html('Intro'),
    '/blog': html('Blog'),
  });
  t = await startWalkScout();
  client = new Firecrawl({ apiKey: t.key, apiUrl: t.baseUrl });
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
});

const v1 = async (body: Record<string, unknown>): Promise<MapLink[]> => {
  const res = await t.request<MapResponse>('POST', '/v1/map', { body: { url: `${site.origin}/`, ...body } });
  expect(res.status).toBe(200);
  return res.body.results;
};
/** /v1/map's results as the SDK gives Firecrawl's links: url, and title when the map read the page. */
const asLinks = (results: MapLink[]) =>
  results.map((r) => ({ url: r.url, title: r.title ?? undefined, description: undefined }));
const paths = (links: { url: string }[]) => links.map((l) => l.url.replace(site.origin, ''));

describe('@mendable/firecrawl-js map', () => {
  it("returns /v1/map's URLs and titles, in its order", async () => {
    const res = await client.map(`${site.origin}/`, { ignoreQueryParameters: false });
    expect(res.links).toEqual(asLinks(await v1({})));
    expect(paths(res.links)).toEqual([
      '/',
      '/docs/intro',
      '/docs/authentication',
      '/guide',
      '/blog?page=2',
      '/blog',
      '/guide/authentication-setup',
    ]);
    expect(res.links.find((l) => l.url === `${site.origin}/guide`)?.title).toBe('Guide');
    expect(res.agent_hints).toBeUndefined();
  });

  it('drops query parameters by default, as Firecrawl does, each URL once', async () => {
    const res = await client.map(`${site.origin}/`);
    expect(paths(res.links)).toEqual([
      '/',
      '/docs/intro',
      '/docs/authentication',
      '/guide',
      '/blog',
      '/guide/authentication-setup',
    ]);
  });

  it("honours search as /v1/map's search: the matching URLs, best first", async () => {
    const res = await client.map(`${site.origin}/`, { search: 'authentication setup' });
    expect(res.links).toEqual(asLinks(await v1({ search: 'authentication setup' })));
    expect(paths(res.links)).toEqual(['/guide/authentication-setup', '/docs/authentication']);
  });

  it("honours sitemap: 'only' (no page read) and 'skip'", async () => {
    site.log.length = 0;
    const only = await client.map(`${site.origin}/`, { sitemap: 'only' });
    expect(only.links).toEqual(asLinks(await v1({ sitemap: 'only' })));
    expect(paths(only.links)).toEqual(['/', '/docs/intro', '/docs/authentication']);
    expect(site.log.filter((p) => p !== '/robots.txt' && p !== '/sitemap.xml')).toEqual([]);
    const skip = await client.map(`${site.origin}/`, { sitemap: 'skip', ignoreQueryParameters: false });
    expect(skip.links).toEqual(asLinks(await v1({ sitemap: 'skip' })));
  });

  it('returns at most limit links, and says in agent_hints that the site has more', async () => {
    const res = await client.map(`${site.origin}/`, { limit: 2 });
    expect(paths(res.links)).toEqual(['/', '/docs/intro']);
    expect(res.agent_hints).toEqual([
      'the site has more URLs than limit: ask for a higher limit (at most 5000) or narrow with search',
    ]);
  });

  it('answers 401 without a key, and takes a path key as the base URL', async () => {
    const none = await thrown(new Firecrawl({ apiKey: '', apiUrl: t.baseUrl }).map(`${site.origin}/`));
    expect(none.status).toBe(401);
    expect(none.message).toMatch(/^missing API key/);
    const keyed = new Firecrawl({ apiKey: t.key, apiUrl: `${t.baseUrl}/k/${t.key}` });
    expect(paths((await keyed.map(`${site.origin}/`, { limit: 1 })).links)).toEqual(['/']);
  });

  it("refuses what Scout cannot read with the SDK's error: a bad sitemap, a refused address", async () => {
    const bad = await thrown(client.map(`${site.origin}/`, { sitemap: 'never' as 'only' }));
    expect([bad.status, bad.message]).toEqual([400, 'sitemap must be "include", "only" or "skip"']);
    const refused = await thrown(client.map('http://127.0.0.1:9/'));
    expect(refused.status).toBe(403);
  });
});

describe('raw JSON', () => {
  it('ignores unknown fields and location; /v1/map stays strict', async () => {
    const res = await t.request<FirecrawlMapResponse>('POST', '/v2/map', {
      body: {
        url: `${site.origin}/`,
        location: { country: 'DE', languages: ['de-DE'] },
        ignoreCache: true,
        integration: 'x',
        origin: 'js-sdk@0',
        somethingNew: [1],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.links.length).toBeGreaterThan(0);
    const none = await t.request<FirecrawlError>('POST', '/v2/map', { key: null, body: { url: `${site.origin}/` } });
    expect(none.body).toEqual({ success: false, error: expect.stringMatching(/^missing API key/) });
    const strict = await t.request('POST', '/v1/map', { body: { url: `${site.origin}/`, includeSubdomains: true } });
    expect(strict.status).toBe(400);
  });
});

describe("Firecrawl's job APIs Scout does not serve", () => {
  it('answer 404 in Firecrawl’s shape, naming /v2/map among those served', async () => {
    const batch = await thrown(client.startBatchScrape([`${site.origin}/`]));
    expect(batch.status).toBe(404);
    expect(batch.message).toBe(
      "no route POST /v2/batch/scrape: of Firecrawl's v2 API Scout serves POST /v2/scrape, POST /v2/search, POST /v2/map, and POST /v2/crawl with GET and DELETE /v2/crawl/{id} only (no extract or batch jobs, no crawl errors or active list; docs/compat.md)",
    );
  });
});

describe('metrics', () => {
  it('count /v2/map under its templates and the firecrawl shape, never the path that carries the key', async () => {
    const body = { url: `${site.origin}/`, limit: 1 };
    await t.request('POST', `/k/${t.key}/v2/map`, { key: null, body });
    await t.request('POST', '/v2/map', { body });
    await expectCompatMetrics(t, WALK_ADMIN_TOKEN, ['/k/:key/v2/map', '/v2/map'], { name: 'firecrawl', atLeast: 2 });
  });
});
