import { tavily } from '@tavily/core';
import { expectCompatMetrics, startWalkScout, WALK_ADMIN_TOKEN } from './compat-kit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlResponse } from '../../src/schemas/crawl.ts';
import type { TavilyCrawlResponse, TavilyError } from '../../src/schemas/tavily.ts';
import { thrown } from '../helpers/thrown.ts';
import type { TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite } from '../map/map-fixture.ts';

/**
 * Tavily's POST /crawl (docs/compat.md) on a real Scout over loopback, driven by the real
 * @tavily/core, unmodified, against a fixture site on 127.0.0.2 through the operator
 * allowlist; /v1/crawl on the same site is the reference.
 */

let t: TestScout;
let site: Site;

const page = (title: string, body: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
});

beforeAll(async () => {
  site = await startMapSite({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n' },
    '/': html('Home', ['/guide', '/docs/intro', '/private/x']),
    '/guide': html('Guide', ['/guide/setup', '/docs/deep']),
    '/guide/setup': html('Setup'),
    '/docs/intro': html('Intro', ['/docs/deep', '/docs/authentication']),
    '/docs/deep': html('Deep docs page'),
    '/docs/authentication': page(
      'Sign in',
      [
        `<p>${'Quotas are counted per calendar month, and the count starts again on the first day. '.repeat(6)}</p>`,
        `<p>${'Every request carries an API key in the Authorization header; authentication fails without it. '.repeat(4)}</p>`,
        `<p>${'Pagination returns a cursor with each page of results, to be sent back for the next one. '.repeat(6)}</p>`,
      ].join(''),
    ),
    '/rich': page(
      'Rich',
      '<p>Read the <a href="/docs/intro">introduction</a> first: it is <strong>short</strong>.</p><ul><li>one</li><li>two</li></ul>',
    ),
  });
  t = await startWalkScout();
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
});

const client = () => tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
/** /v1/crawl's pages as Tavily's results: what /crawl must answer for the same site and bounds. */
const v1 = async (body: Record<string, unknown>) => {
  const res = await t.request<CrawlResponse>('POST', '/v1/crawl', { body: { url: `${site.origin}/`, ...body } });
  expect(res.status).toBe(200);
  return res.body.pages.map((p) => ({ url: p.url, rawContent: p.content, images: [] }));
};
const paths = (results: { url: string }[]) => results.map((r) => r.url.replace(site.origin, ''));

describe('@tavily/core crawl', () => {
  it("returns /v1/crawl's pages and content for the same site at Tavily's depth 1, in crawl order", async () => {
    const res = await client().crawl(`${site.origin}/`);
    const reference = await v1({ max_depth: 1, limit: 50 });
    expect(res.results).toEqual(reference);
    expect(paths(res.results)).toEqual(['/', '/guide', '/docs/intro']);
    expect(res.results[1]?.rawContent).toContain('Guide: a page of the fixture site.');
    expect(res.baseUrl).toBe(`${site.origin}/`);
    expect(res.requestId).toMatch(/.+/);
    expect(typeof res.responseTime).toBe('number');
    expect(res.usage).toBeUndefined();
  });

  it('follows max_depth and stops at limit, the first pages of /v1/crawl’s', async () => {
    const deep = await client().crawl(`${site.origin}/`, { maxDepth: 2 });
    expect(deep.results).toEqual(await v1({ max_depth: 2 }));
    expect(paths(deep.results)).toEqual([
      '/',
      '/guide',
      '/docs/intro',
      '/guide/setup',
      '/docs/deep',
      '/docs/authentication',
    ]);
    const two = await client().crawl(`${site.origin}/`, { maxDepth: 2, limit: 2 });
    expect(paths(two.results)).toEqual(['/', '/guide']);
  });

  it('reads and returns only the pages select_paths matches and exclude_paths does not', async () => {
    site.log.length = 0;
    const res = await client().crawl(`${site.origin}/`, {
      maxDepth: 3,
      selectPaths: ['^/docs/.*'],
      excludePaths: ['/auth[a-z]+$'],
    });
    expect(paths(res.results)).toEqual(['/docs/intro', '/docs/deep']);
    // The start page is read for its links; /guide is kept out, so it is not read at all.
    expect(site.log).toContain('/');
    expect(site.log).not.toContain('/guide');
    expect(site.log).not.toContain('/docs/authentication');
  });

  it("refuses a pattern that needs backtracking with the SDK's error and Scout's message, before any request", async () => {
    site.log.length = 0;
    const err = await thrown(client().crawl(`${site.origin}/`, { selectPaths: ['/(docs)/\\1'] }));
    expect(err.message).toBe(
      'select_paths pattern "/(docs)/\\\\1" is not served: backreferences need a backtracking matcher, which Scout does not run on callers’ patterns. Scout matches patterns without backtracking (docs/compat.md lists what it takes)',
    );
    expect(site.log).toEqual([]);
  });

  it("takes the topic words of instructions as /v1/crawl's query: passages, pages without one left out", async () => {
    const res = await client().crawl(`${site.origin}/`, {
      maxDepth: 2,
      instructions: 'Find all pages about authentication',
    });
    const reference = (await v1({ max_depth: 2, query: 'authentication', max_passages: 3 })).filter(
      (r) => r.rawContent !== '',
    );
    expect(res.results).toEqual(reference);
    expect(paths(res.results)).toEqual(['/docs/authentication']);
    const auth = res.results.find((r) => r.url.endsWith('/docs/authentication'));
    expect(auth?.rawContent).toContain('Authorization header');
    expect(auth?.rawContent).not.toContain('calendar month');
  });

  it('answers format text as plain text: link text kept, markup gone', async () => {
    const md = await client().crawl(`${site.origin}/rich`, { maxDepth: 0 });
    expect(md.results[0]?.rawContent).toMatch(/\[introduction\]\(/);
    expect(md.results[0]?.rawContent).toContain('**short**');
    const text = await client().crawl(`${site.origin}/rich`, { maxDepth: 0, format: 'text' });
    const raw = text.results[0]?.rawContent ?? '';
    expect(raw).toContain('Read the introduction first: it is short.');
    expect(raw).not.toMatch(/\*\*|\]\(|^#/m);
  });

  it('works under a path key as the base URL', async () => {
    const res = await tavily({ apiKey: t.key, apiBaseURL: `${t.baseUrl}/k/${t.key}` }).crawl(`${site.origin}/`, {
      maxDepth: 0,
    });
    expect(paths(res.results)).toEqual(['/']);
  });
});

describe('raw JSON', () => {
  it('ignores unknown fields and those Scout does not honour, takes api_key in the body', async () => {
    const res = await t.request<TavilyCrawlResponse>('POST', '/crawl', {
      key: null,
      body: {
        url: `${site.origin}/`,
        api_key: t.key,
        max_breadth: 1,
        allow_external: true,
        extract_depth: 'advanced',
        include_images: true,
        include_favicon: true,
        include_usage: true,
        chunks_per_source: 2,
        categories: [],
        something_new: { a: 1 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => ({ url: r.url, rawContent: r.raw_content, images: r.images }))).toEqual(
      await v1({ max_depth: 1 }),
    );
  });

  it("refuses in Tavily's shape: no key, bad fields; /v1/crawl stays strict", async () => {
    const none = await t.request<TavilyError>('POST', '/crawl', { key: null, body: { url: `${site.origin}/` } });
    expect(none.status).toBe(401);
    expect(none.body.detail.error).toMatch(/api_key/);
    const bad = await t.request<TavilyError>('POST', '/crawl', { body: { url: `${site.origin}/`, limit: 0 } });
    expect([bad.status, bad.body.detail.error]).toEqual([400, 'limit must be a whole number from 1']);
    const format = await t.request<TavilyError>('POST', '/crawl', { body: { url: `${site.origin}/`, format: 'html' } });
    expect([format.status, format.body.detail.error]).toEqual([400, 'format must be "markdown" or "text"']);
    const categories = await t.request<TavilyError>('POST', '/crawl', {
      body: { url: `${site.origin}/`, categories: ['Documentation'] },
    });
    expect(categories.status).toBe(400);
    expect(categories.body.detail.error).toMatch(/^categories are not served/);
    const strict = await t.request('POST', '/v1/crawl', { body: { url: `${site.origin}/`, max_breadth: 1 } });
    expect(strict.status).toBe(400);
  });

  it('answers a refused start address 403, and another method 405, in Tavily’s shape', async () => {
    const refused = await t.request<TavilyError>('POST', '/crawl', { body: { url: 'http://127.0.0.1:9/' } });
    expect(refused.status).toBe(403);
    const get = await t.request<TavilyError>('GET', '/crawl');
    expect(get.status).toBe(405);
    expect(get.body).toEqual({ detail: { error: 'method GET is not allowed on /crawl; use POST' } });
  });
});

describe('metrics', () => {
  it('count /crawl under its templates and the tavily shape, never the path that carries the key', async () => {
    const body = { url: `${site.origin}/`, max_depth: 0 };
    await t.request('POST', `/k/${t.key}/crawl`, { key: null, body });
    await t.request('POST', '/crawl', { body });
    await expectCompatMetrics(t, WALK_ADMIN_TOKEN, ['/k/:key/crawl', '/crawl'], { name: 'tavily', atLeast: 1 });
  });
});
