import Firecrawl, { type Document, SdkError, type SearchResultWeb } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import type { FirecrawlError, FirecrawlScrapeResponse, FirecrawlSearchResponse } from '../../src/schemas/firecrawl.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { thrown as rejection } from '../helpers/thrown.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';
import {
  expectCompatMetrics,
  offline,
  organicUrls,
  quillwortPages,
  SHOES,
  TODAY,
  untilSponsored,
} from './compat-kit.ts';

/** What the SDK throws, for assertions on its class, status and message. */
const thrown = (p: Promise<unknown>) => rejection(p, SdkError);

/**
 * The Firecrawl v2 shape (docs/compat.md) on a real Scout over loopback, driven by the real
 * client package (@mendable/firecrawl-js, unmodified) and by raw JSON.
 */

const QUILLWORT = quillwortPages(12);
const DESCRIPTION = 'How quillwort grows at the edge of cold lakes, and where to find it.';
const ARTICLE = `<!doctype html><html lang="en-GB"><head><title>Quillwort field notes</title>
<meta name="description" content="${DESCRIPTION}"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><h1>Quillwort field notes</h1>
<p>Quillwort is a small fern ally that grows under water at the edge of cold, clear lakes. Scout fetched this paragraph from a loopback fixture server.</p>
<p>Read the <a href="/plain">plain page</a>, the <a href="/plain#top">same page again</a> and <a href="https://ferns.example/isoetes">an outside page</a>.</p>
</main></body></html>`;
const PLAIN = `<html><head><title>Plain page</title></head><body><main><h1>Plain page</h1>
<p>This page has no description of its own, so its summary is its first paragraph, which says what it is about in plain words for a reader.</p>
<p>A second paragraph follows, about lakes and ferns, long enough to count as prose and to be kept in the markdown.</p>
</main></body></html>`;

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

const urlsOf = (web: (SearchResultWeb | Document)[] | undefined): string[] =>
  defined(web, 'web results').map((r) => ('url' in r ? String(r.url) : ''));

let t: TestScout;
let origin: FixtureServer;
let client: Firecrawl;
beforeAll(async () => {
  origin = await startFixtureServer({
    '/article': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
    '/plain': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: PLAIN },
    '/image': { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    // Answers nothing: only a timeout ends a read of it.
    '/never': () => {},
  });
  t = await startTestScout(
    {
      SCOUT_RATE_LIMIT_RPM: '100000',
      SCOUT_PATH_KEYS: 'true',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_FETCH_TIMEOUT_MS: '30000',
      SCOUT_ADMIN_TOKEN: ADMIN_TOKEN,
    },
    offline(),
  );
  t.scout.index.upsert([
    ...QUILLWORT,
    ...SHOES,
    { url: origin.url('/article'), title: 'Fixture article', content: 'Fixture fern notes from the loopback lake.' },
    { url: origin.url('/plain'), title: 'Fixture plain', content: 'Fixture fern page from the loopback.' },
  ]);
  client = new Firecrawl({ apiKey: t.key, apiUrl: t.baseUrl });
});
afterAll(async () => {
  await t?.close();
  await origin?.close();
});

describe('@mendable/firecrawl-js scrape', () => {
  it('gives the markdown /v1/fetch gives, with the metadata the SDK reads', async () => {
    const doc = await client.scrape(origin.url('/article'));
    const v1 = await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: origin.url('/article') } });
    expect(doc.markdown).toBe(v1.body.content);
    expect(doc.markdown).toMatch(/Scout fetched this paragraph/);
    expect(doc.metadata).toEqual({
      title: 'Quillwort field notes',
      description: DESCRIPTION,
      language: 'en-GB',
      sourceURL: origin.url('/article'),
      url: origin.url('/article'),
      statusCode: 200,
      contentType: 'text/html',
      cacheState: 'miss',
    });
    // Only the formats asked for (markdown by default).
    expect(doc.rawHtml).toBeUndefined();
    expect(doc.links).toBeUndefined();
  });

  it('gives links absolute and once each, rawHtml as served, summary from the description', async () => {
    const doc = await client.scrape(origin.url('/article'), {
      formats: ['links', 'rawHtml', 'summary', { type: 'markdown' }],
      onlyMainContent: true,
      maxAge: 300_000,
      mobile: true,
      waitFor: 1000,
      skipTlsVerification: true,
      removeBase64Images: true,
      blockAds: true,
      proxy: 'auto',
    });
    expect(doc.links).toEqual([
      `${origin.origin}/`,
      origin.url('/about'),
      origin.url('/plain'),
      'https://ferns.example/isoetes',
    ]);
    expect(doc.rawHtml).toBe(ARTICLE);
    expect(doc.summary).toBe(DESCRIPTION);
    expect(doc.markdown).toMatch(/^# Quillwort field notes/);
  });

  it('summarises a page without a description by its first paragraphs', async () => {
    const doc = await client.scrape(origin.url('/plain'), { formats: ['summary'] });
    expect(doc.summary).toMatch(/^This page has no description of its own, so its summary is its first paragraph/);
    expect(doc.summary).toMatch(/A second paragraph follows/);
    expect(defined(doc.summary, 'summary').length).toBeLessThanOrEqual(1001);
    expect(doc.markdown).toBeUndefined();
  });

  it("refuses what Scout's /v1/fetch refuses, as the SDK's error with the status", async () => {
    const loopback = await thrown(client.scrape('http://127.0.0.1:9/private'));
    expect(loopback.status).toBe(403);
    expect(loopback.message).toMatch(/^refused: /);
    const image = await thrown(client.scrape(origin.url('/image')));
    expect(image.status).toBe(415);
    const ftp = await thrown(client.scrape('ftp://files.example/x'));
    expect(ftp.status).toBe(400);
    expect(ftp.message).toBe('url is not an absolute http(s) URL');
  });

  it('refuses formats and options Scout cannot honour, naming them and what it can do', async () => {
    const shot = await thrown(client.scrape(origin.url('/article'), { formats: ['markdown', 'screenshot'] }));
    expect(shot.status).toBe(400);
    expect(shot.message).toBe(
      'format "screenshot" is not served: Scout reads pages without a browser and takes no screenshots. Scout serves markdown, rawHtml, links and summary',
    );
    const json = await thrown(
      client.scrape(origin.url('/article'), { formats: [{ type: 'json', prompt: 'the fern names' }] }),
    );
    expect(json.status).toBe(400);
    expect(json.message).toMatch(/^format "json" is not served: Scout runs no model/);
    const whole = await thrown(client.scrape(origin.url('/article'), { onlyMainContent: false }));
    expect(whole.message).toMatch(/^onlyMainContent false is not served/);
    const actions = await thrown(
      client.scrape(origin.url('/article'), { actions: [{ type: 'wait', milliseconds: 100 }] }),
    );
    expect(actions.message).toBe('actions is not served: Scout reads pages without a browser and runs no actions');
  });

  it('answers 408 when the page is not read within the timeout asked for', async () => {
    const late = await thrown(client.scrape(origin.url('/never'), { timeout: 300 }));
    expect(late.status).toBe(408);
    expect(late.message).toBe('the page was not read within the timeout of 300 ms');
  });
});

describe('@mendable/firecrawl-js search', () => {
  it('answers in /v1 order, five by default, limit honoured, positions from 1', async () => {
    const five = await client.search('quillwort lakes');
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'quillwort lakes', max_results: 5 },
    });
    expect(urlsOf(five.web)).toEqual(organicUrls(v1.body));
    expect(five.web).toHaveLength(5);
    const first = defined(v1.body.results[0], 'a first /v1 result');
    expect(defined(five.web?.[0], 'a first result')).toEqual({
      url: first.url,
      title: first.title,
      description: first.content,
      position: 1,
    });
    expect(five.warning).toBeUndefined();
    const three = await client.search('quillwort lakes', { limit: 3 });
    expect(urlsOf(three.web)).toEqual(organicUrls(v1.body).slice(0, 3));
    // Firecrawl allows 100; Scout serves 20, so 50 asks for 20.
    const many = await client.search('quillwort', { limit: 50 });
    const twenty = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'quillwort', max_results: 20 },
    });
    expect(urlsOf(many.web)).toEqual(organicUrls(twenty.body));
  });

  it('honours tbs qdr:d as /v1 freshness=day, and a cdr range as start_date/end_date', async () => {
    const day = await client.search('quillwort', { limit: 20, tbs: 'qdr:d' });
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'quillwort', max_results: 20, freshness: 'day' },
    });
    expect(urlsOf(day.web)).toEqual(organicUrls(v1.body));
    expect(day.web).toHaveLength(6);
    const [y, m, d] = TODAY.split('-');
    const range = await client.search('quillwort', {
      limit: 20,
      tbs: `cdr:1,cd_min:${m}/${d}/${y},cd_max:${m}/${d}/${y}`,
    });
    expect(urlsOf(range.web)).toEqual(organicUrls(v1.body));
    const hour = await thrown(client.search('quillwort', { tbs: 'qdr:h' }));
    expect(hour.status).toBe(400);
    expect(hour.message).toMatch(/^tbs qdr:h \(past hour\) is not served/);
  });

  it('takes the country from location ("Germany", "City,Region,Country") or country ("DE")', async () => {
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'quillwort', max_results: 5, country: 'DE' },
    });
    for (const options of [{ location: 'Germany' }, { location: 'Berlin,Berlin,Germany' }, { country: 'DE' }]) {
      const res = await client.search('quillwort', options);
      expect(urlsOf(res.web)).toEqual(organicUrls(v1.body));
    }
    const nowhere = await thrown(client.search('quillwort', { location: 'Atlantis' }));
    expect(nowhere.status).toBe(400);
    expect(nowhere.message).toMatch(/^location must end in a country Scout knows/);
    const both = await thrown(client.search('quillwort', { location: 'Germany', country: 'FR' }));
    expect(both.message).toBe('location and country name different countries (DE, FR); send one');
  });

  it('searches the web only: news or images beside it are said in warning, alone they are 400', async () => {
    const mixed = await client.search('quillwort', { sources: ['web', 'news', { type: 'images' }] });
    expect(mixed.web).toHaveLength(5);
    expect(mixed.news).toBeUndefined();
    expect(mixed.warning).toBe('Scout searched the web only: news and images not searched');
    const news = await thrown(client.search('quillwort', { sources: ['news'] }));
    expect(news.status).toBe(400);
    expect(news.message).toBe('sources must include "web": Scout searches the web only, not news');
  });

  it('reads each result with scrapeOptions, as /v2/scrape reads it', async () => {
    const res = await client.search('fixture fern', {
      limit: 2,
      scrapeOptions: { formats: ['markdown', 'links'] },
    });
    const web = defined(res.web, 'web results') as Document[];
    expect(web.map((r) => r.metadata?.sourceURL).sort()).toEqual([origin.url('/article'), origin.url('/plain')]);
    for (const r of web) {
      const alone = await client.scrape(defined(r.metadata?.sourceURL, 'the URL'), { formats: ['markdown', 'links'] });
      expect(r.markdown).toBe(alone.markdown);
      expect(r.links).toEqual(alone.links);
      expect(r.metadata).toEqual(alone.metadata);
    }
  });

  it('gives a result whose page cannot be read its reason in metadata.error, the search still answering', async () => {
    const res = await t.request<FirecrawlSearchResponse>('POST', '/v2/search', {
      body: { query: 'quillwort', limit: 1, scrapeOptions: { formats: ['markdown'] } },
    });
    expect(res.status).toBe(200);
    const [only] = res.body.data.web;
    expect(only?.markdown).toBeUndefined();
    expect(defined(only?.metadata?.error, 'the reason')).toMatch(/plants1\.example/);
  });
});

describe('sponsored entries in the Firecrawl shape', () => {
  beforeAll(async () => {
    await t.scout.sponsored.admin.create(
      campaignFile({ incentive: { kind: 'code', code: 'RUN10', benefit: '10% off the first pair' } }),
    );
    await untilSponsored(t, 'running shoes');
  });

  it('come first, labelled in title and description, without a position; organic order unchanged', async () => {
    const res = await client.search('running shoes');
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'running shoes', max_results: 5 },
    });
    const [ad, ...rest] = defined(res.web, 'web results') as SearchResultWeb[];
    expect(ad).toMatchObject({
      title: 'Sponsored: Acme trail running shoes',
      description:
        'Sponsored by Acme (an ad, not a search result). Light shoes for long runs. Offer: 10% off the first pair (code RUN10).',
      category: 'sponsored',
    });
    expect(ad?.position).toBeUndefined();
    expect(defined(ad, 'the ad').url).toMatch(/\/v1\/r\/rec_[0-9A-Za-z]{52}$/);
    expect(rest.map((r) => r.url)).toEqual(organicUrls(v1.body));
    expect(rest.map((r) => r.position)).toEqual(rest.map((_, i) => i + 1));
  });

  it('are off when SCOUT_COMPAT_SPONSORED leaves firecrawl out', async () => {
    const off = await startTestScout(
      { SCOUT_COMPAT_SPONSORED: 'searxng,tavily', SCOUT_RATE_LIMIT_RPM: '100000' },
      offline(),
    );
    try {
      off.scout.index.upsert(SHOES);
      await off.scout.sponsored.admin.create(campaignFile());
      await untilSponsored(off, 'running shoes');
      const res = await new Firecrawl({ apiKey: off.key, apiUrl: off.baseUrl }).search('running shoes');
      expect(urlsOf(res.web)).toEqual(SHOES.map((s) => s.url));
    } finally {
      await off.close();
    }
  });
});

describe('keys, limits and budget as /v1, in Firecrawl’s error shape', () => {
  it('answers 401 without a key, and takes a path key as the base URL', async () => {
    const none = await thrown(new Firecrawl({ apiKey: '', apiUrl: t.baseUrl }).search('quillwort'));
    expect(none.status).toBe(401);
    expect(none.message).toMatch(/^missing API key/);
    const pathKeyed = new Firecrawl({ apiKey: t.key, apiUrl: `${t.baseUrl}/k/${t.key}` });
    expect((await pathKeyed.search('quillwort')).web).toHaveLength(5);
    expect((await pathKeyed.scrape(origin.url('/article'))).markdown).toMatch(/Quillwort field notes/);
    const raw = await t.request<FirecrawlError>('POST', '/v2/search', { key: null, body: { query: 'q' } });
    expect(raw.body).toEqual({ success: false, error: expect.stringMatching(/^missing API key/) });
    expect(t.logText()).not.toContain(t.key);
  });

  it('answers 429 with Retry-After past the rate limit', async () => {
    const small = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '2' });
    try {
      const c = new Firecrawl({ apiKey: small.key, apiUrl: small.baseUrl });
      await c.search('fetch markdown');
      await c.search('fetch markdown');
      const err = await thrown(c.search('fetch markdown'));
      expect(err.status).toBe(429);
      expect(err.message).toMatch(/rate limit/i);
      const raw = await small.request<FirecrawlError>('POST', '/v2/search', { body: { query: 'fetch markdown' } });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await small.close();
    }
  });

  it("answers 402 (Firecrawl's payment required) when the monthly search budget is spent", async () => {
    const small = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_MONTHLY_SEARCH_BUDGET: '1' });
    try {
      const c = new Firecrawl({ apiKey: small.key, apiUrl: small.baseUrl });
      await c.search('fetch markdown');
      const err = await thrown(c.search('fetch markdown'));
      expect(err.status).toBe(402);
      expect(err.message).toMatch(/monthly free search budget/);
      const raw = await small.request<FirecrawlError>('POST', '/v2/search', { body: { query: 'fetch markdown' } });
      expect(raw.status).toBe(402);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // /v1 keeps its 503 for the same cause.
      expect((await small.request('POST', '/v1/search', { body: { query: 'fetch markdown' } })).status).toBe(503);
    } finally {
      await small.close();
    }
  });
});

describe('raw JSON', () => {
  it('ignores unknown fields on both routes; /v1 stays strict', async () => {
    const search = await t.request<FirecrawlSearchResponse>('POST', '/v2/search', {
      body: { query: 'quillwort', limit: 2, origin: 'js-sdk@0', highlights: true, integration: 'x', newField: [1] },
    });
    expect(search.status).toBe(200);
    expect(search.body.data.web).toHaveLength(2);
    const scrape = await t.request<FirecrawlScrapeResponse>('POST', '/v2/scrape', {
      body: { url: origin.url('/plain'), zeroDataRetention: false, storeInCache: true, somethingNew: { a: 1 } },
    });
    expect(scrape.status).toBe(200);
    expect(scrape.body.data.markdown).toMatch(/^This page has no description/);
    const strict = await t.request('POST', '/v1/search', { body: { query: 'quillwort', limit: 2 } });
    expect(strict.status).toBe(400);
  });
});

describe('what the shape does not serve', () => {
  it("answers Firecrawl's job APIs 404 and another method 405, in Firecrawl's error shape", async () => {
    const batch = await thrown(client.startBatchScrape([origin.url('/article')]));
    expect(batch.status).toBe(404);
    expect(batch.message).toBe(
      "no route POST /v2/batch/scrape: of Firecrawl's v2 API Scout serves POST /v2/scrape, POST /v2/search, POST /v2/map, and POST /v2/crawl with GET and DELETE /v2/crawl/{id} only (no extract or batch jobs, no crawl errors or active list; docs/compat.md)",
    );
    const get = await t.request<FirecrawlError>('GET', `/k/${t.key}/v2/scrape`, { key: null });
    expect(get.status).toBe(405);
    expect(get.body).toEqual({
      success: false,
      error: 'method GET is not allowed on /k/[redacted]/v2/scrape; use POST',
    });
  });
});

describe('metrics', () => {
  it('count the Firecrawl routes under their templates, never the path that carries the key', async () => {
    await t.request('POST', `/k/${t.key}/v2/search`, { key: null, body: { query: 'quillwort' } });
    await t.request('POST', `/k/${t.key}/v2/scrape`, { key: null, body: { url: origin.url('/plain') } });
    await t.request('POST', '/v2/search', { body: { query: 'quillwort' } });
    await t.request('POST', '/v2/scrape', { body: { url: origin.url('/plain') } });
    // The shape's own label: at least the four answers above.
    await expectCompatMetrics(t, ADMIN_TOKEN, ['/k/:key/v2/search', '/k/:key/v2/scrape', '/v2/search', '/v2/scrape'], {
      name: 'firecrawl',
      atLeast: 4,
    });
  });
});
