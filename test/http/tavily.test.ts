import { TavilySearch } from '@langchain/tavily';
import { TavilyKeylessLimitError, tavily } from '@tavily/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/schemas/search.ts';
import type { TavilyError, TavilyExtractResponse, TavilySearchResponse } from '../../src/schemas/tavily.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { thrown } from '../helpers/thrown.ts';
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

/**
 * The Tavily shape (docs/compat.md) on a real Scout over loopback, driven by the real client
 * packages (@tavily/core, @langchain/tavily) and by raw JSON as older clients send it.
 */

const QUILLWORT = quillwortPages(12);
const ARTICLE =
  '<html><head><title>Fixture page</title></head><body><main><h1>Fixture page</h1><p>Scout fetched this paragraph from a loopback fixture server so the extract route can be tested end to end.</p></main></body></html>';

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

let t: TestScout;
let origin: FixtureServer;
beforeAll(async () => {
  origin = await startFixtureServer({
    '/article': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
    '/image': { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
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
  t.scout.index.upsert([...QUILLWORT, ...SHOES]);
});
afterAll(async () => {
  await t?.close();
  await origin?.close();
});

describe('@tavily/core search', () => {
  it('answers in /v1 order with scores in 0..1 falling strictly, null answer, empty images, no raw_content', async () => {
    const client = tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
    const res = await client.search('quillwort lakes', { maxResults: 10, includeAnswer: true, includeImages: true });
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'quillwort lakes', max_results: 10 },
    });
    expect(res.results.map((r) => r.url)).toEqual(organicUrls(v1.body));
    expect(res.results).toHaveLength(10);
    expect(res).toMatchObject({ query: 'quillwort lakes', answer: null, images: [] });
    expect(res.requestId).toMatch(/.+/);
    expect(typeof res.responseTime).toBe('number');
    const scores = res.results.map((r) => r.score);
    expect(scores.every((s) => s > 0 && s <= 1)).toBe(true);
    expect(new Set(scores).size).toBe(scores.length);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.results.every((r) => r.rawContent === null)).toBe(true);
    const first = defined(v1.body.results[0], 'a first /v1 result');
    expect(defined(res.results[0], 'a first result')).toMatchObject({
      title: first.title,
      content: first.content,
      publishedDate: first.published_date,
    });
  });

  it('gives five results by default, as Tavily does', async () => {
    const res = await tavily({ apiKey: t.key, apiBaseURL: t.baseUrl }).search('quillwort');
    expect(res.results).toHaveLength(5);
  });

  it('honours include_domains, exclude_domains and time_range', async () => {
    const client = tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
    const only = await client.search('quillwort', { includeDomains: ['plants3.example', 'plants4.example'] });
    expect(only.results.map((r) => r.url).sort()).toEqual([
      'https://plants3.example/quillwort',
      'https://plants4.example/quillwort',
    ]);
    const without = await client.search('quillwort', { maxResults: 20, excludeDomains: ['plants1.example'] });
    expect(without.results.map((r) => r.url)).not.toContain('https://plants1.example/quillwort');
    expect(without.results).toHaveLength(11);
    const day = await client.search('quillwort', { maxResults: 20, timeRange: 'day' });
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'quillwort', max_results: 20, freshness: 'day' },
    });
    expect(day.results.map((r) => r.url)).toEqual(organicUrls(v1.body));
    expect(day.results).toHaveLength(6);
    expect(day.results.every((r) => r.publishedDate === TODAY)).toBe(true);
  });

  it('carries raw_content when include_raw_content asks for it', async () => {
    const client = tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
    const res = await client.search('quillwort lakes', { maxResults: 3, includeRawContent: 'markdown' });
    expect(res.results).toHaveLength(3);
    for (const r of res.results) expect(r.rawContent).toMatch(/Quillwort/);
  });

  it('works under a path key as the base URL', async () => {
    const client = tavily({ apiKey: 'tvly-unused', apiBaseURL: `${t.baseUrl}/k/${t.key}` });
    const err = await thrown(client.search('quillwort'));
    // The SDK always sends its Bearer key: a different one from the path is refused.
    expect(err.message).toBe('the key in the path and the key in the header differ; send one key');
    const same = tavily({ apiKey: t.key, apiBaseURL: `${t.baseUrl}/k/${t.key}` });
    expect((await same.search('quillwort')).results).toHaveLength(5);
  });

  it("maps errors to the SDK's own: the message of detail.error for 400 and 401, never a keyless-limit error", async () => {
    const bad = await thrown(
      tavily({ apiKey: t.key, apiBaseURL: t.baseUrl }).search('quillwort', { timeRange: 'fortnight' as 'day' }),
    );
    expect(bad.message).toBe('time_range must be day, week, month, year or d, w, m, y');
    expect(bad).not.toBeInstanceOf(TavilyKeylessLimitError);
    const unknown = await thrown(tavily({ apiKey: 'scout_nope', apiBaseURL: t.baseUrl }).search('quillwort'));
    expect(unknown.message).toMatch(/key/i);
    expect(unknown).not.toBeInstanceOf(TavilyKeylessLimitError);
  });
});

describe('@tavily/core extract', () => {
  it('reads the pages it can and lists the others in failed_results with a short reason', async () => {
    const client = tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
    const res = await client.extract([
      origin.url('/article'),
      origin.url('/image'),
      'http://127.0.0.1:9/private',
      'ftp://files.example/x',
    ]);
    expect(res.results).toHaveLength(1);
    expect(defined(res.results[0], 'the article')).toMatchObject({ url: origin.url('/article'), images: [] });
    expect(defined(res.results[0], 'the article').rawContent).toMatch(/Scout fetched this paragraph/);
    expect(res.failedResults.map((r) => r.url)).toEqual([
      origin.url('/image'),
      'http://127.0.0.1:9/private',
      'ftp://files.example/x',
    ]);
    expect(res.failedResults.every((r) => typeof r.error === 'string' && r.error.length > 0)).toBe(true);
    // The reason /v1/fetch gives: the address policy applies as there.
    expect(defined(res.failedResults[1], 'the loopback URL').error).toMatch(/^refused: /);
    expect(defined(res.failedResults[2], 'the ftp URL').error).toBe('not an absolute http(s) URL');
  });

  it('gives raw_content as plain text for format "text": link text kept, markup gone', async () => {
    const client = tavily({ apiKey: t.key, apiBaseURL: t.baseUrl });
    const markdown = defined((await client.extract([origin.url('/article')])).results[0], 'markdown');
    const text = defined((await client.extract([origin.url('/article')], { format: 'text' })).results[0], 'text');
    expect(markdown.rawContent).toMatch(/^# Fixture page/m);
    expect(text.rawContent).not.toMatch(/^#/m);
    expect(text.rawContent).toContain('Scout fetched this paragraph from a loopback fixture server');
  });

  it('takes a single URL as a string, and answers both arrays', async () => {
    const res = await t.request<TavilyExtractResponse>('POST', `/k/${t.key}/extract`, {
      key: null,
      body: { urls: origin.url('/article'), extract_depth: 'advanced', format: 'text', include_images: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => r.url)).toEqual([origin.url('/article')]);
    expect(res.body.failed_results).toEqual([]);
  });

  it('refuses more than 20 URLs with 400 in the SDK', async () => {
    const urls = Array.from({ length: 21 }, (_, i) => origin.url(`/article?${i}`));
    const err = await thrown(tavily({ apiKey: t.key, apiBaseURL: t.baseUrl }).extract(urls));
    expect(err.message).toBe('urls may list at most 20 URLs; send 21 in batches');
  });
});

describe('metrics', () => {
  it('count the Tavily routes under their templates, never the path that carries the key', async () => {
    await t.request('POST', `/k/${t.key}/extract`, { key: null, body: { urls: [origin.url('/article')] } });
    await t.request('POST', '/extract', { body: { urls: origin.url('/article') } });
    await t.request('POST', '/search', { body: { query: 'quillwort' } });
    await expectCompatMetrics(t, ADMIN_TOKEN, ['/k/:key/extract', '/extract', '/search']);
  });
});

describe('@langchain/tavily', () => {
  it('TavilySearch with apiBaseUrl answers the same organic results', async () => {
    const tool = new TavilySearch({ maxResults: 3, tavilyApiKey: t.key, apiBaseUrl: t.baseUrl });
    // The tool's declared input type comes from its own zod copy; the call is the documented one.
    const out = (await tool.invoke({ query: 'running shoes' } as never)) as {
      results?: { url: string }[];
      error?: string;
    };
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'running shoes', max_results: 3 },
    });
    expect(out.error).toBeUndefined();
    expect(defined(out.results, 'results').map((r) => r.url)).toEqual(organicUrls(v1.body));
  });
});

describe('raw JSON as older clients send it', () => {
  it('ignores unknown fields and takes api_key in the body, time_range "d" and a country name', async () => {
    const res = await t.request<TavilySearchResponse>('POST', '/search', {
      key: null,
      body: {
        api_key: t.key,
        query: 'quillwort',
        max_results: 20,
        time_range: 'd',
        country: 'united kingdom',
        search_depth: 'ultra-fast',
        topic: 'general',
        days: 3,
        client_source: 'tavily-python',
        safe_search: false,
        include_answer: 'advanced',
        include_images: true,
        include_image_descriptions: true,
        include_favicon: true,
        auto_parameters: false,
        chunks_per_source: 3,
        include_raw_content: false,
        something_new: { nested: [1, 2] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(6);
    expect(res.body.results.every((r) => r.published_date === TODAY && r.raw_content === null)).toBe(true);
  });

  it('clamps max_results into 1..20: 0 gives one result', async () => {
    const res = await t.request<TavilySearchResponse>('POST', '/search', {
      body: { query: 'quillwort', max_results: 0 },
    });
    expect(res.body.results).toHaveLength(1);
  });

  it("refuses in Tavily's error shape: a bad country, no key, two different keys", async () => {
    const country = await t.request<TavilyError>('POST', '/search', { body: { query: 'q', country: 'atlantis' } });
    expect(country.status).toBe(400);
    expect(country.body.detail.error).toMatch(/^country must be/);
    const none = await t.request<TavilyError>('POST', '/search', { key: null, body: { query: 'q' } });
    expect(none.status).toBe(401);
    expect(none.body.detail.error).toMatch(/api_key/);
    const two = await t.request<TavilyError>('POST', '/search', { body: { query: 'q', api_key: 'scout_other' } });
    expect(two.status).toBe(401);
    expect(two.body.detail.error).toBe('the api_key in the body and the key in the header differ; send one key');
    const extract = await t.request<TavilyError>('POST', '/extract', { body: { urls: [] } });
    expect(extract.status).toBe(400);
    // The key never shows in a log line.
    expect(t.logText()).not.toContain(t.key);
  });

  it('leaves /v1 strict: a Tavily field on /v1/search is still 400', async () => {
    const res = await t.request<{ error: { message: string } }>('POST', '/v1/search', {
      body: { query: 'quillwort', include_answer: false },
    });
    expect(res.status).toBe(400);
  });
});

describe('sponsored entries in the Tavily shape', () => {
  beforeAll(async () => {
    await t.scout.sponsored.admin.create(
      campaignFile({ incentive: { kind: 'code', code: 'RUN10', benefit: '10% off the first pair' } }),
    );
    await untilSponsored(t, 'running shoes');
  });

  it('come first, scored above organic, saying they are ads and who pays; organic order unchanged', async () => {
    const res = await tavily({ apiKey: t.key, apiBaseURL: t.baseUrl }).search('running shoes');
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', {
      body: { query: 'running shoes', max_results: 5 },
    });
    const [ad, ...rest] = res.results;
    expect(ad).toMatchObject({
      title: 'Sponsored: Acme trail running shoes',
      content:
        'Sponsored by Acme (an ad, not a search result). Light shoes for long runs. Offer: 10% off the first pair (code RUN10).',
      rawContent: null,
    });
    expect(defined(ad, 'the ad').url).toMatch(/\/v1\/r\/rec_[0-9A-Za-z]{52}$/);
    expect(rest.map((r) => r.url)).toEqual(organicUrls(v1.body));
    const scores = res.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Math.max(...scores)).toBeLessThanOrEqual(1);
  });

  it('are off when SCOUT_COMPAT_SPONSORED leaves tavily out', async () => {
    const off = await startTestScout({ SCOUT_COMPAT_SPONSORED: 'searxng', SCOUT_RATE_LIMIT_RPM: '100000' }, offline());
    try {
      off.scout.index.upsert(SHOES);
      await off.scout.sponsored.admin.create(campaignFile());
      await untilSponsored(off, 'running shoes');
      const res = await tavily({ apiKey: off.key, apiBaseURL: off.baseUrl }).search('running shoes');
      expect(res.results.map((r) => r.url)).toEqual(SHOES.map((s) => s.url));
    } finally {
      await off.close();
    }
  });
});

describe('the same rate limit and budget as /v1', () => {
  it('refuses past the rate limit with 429 and Retry-After, in the SDK as in raw JSON', async () => {
    const small = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '2' });
    try {
      const client = tavily({ apiKey: small.key, apiBaseURL: small.baseUrl });
      await client.search('fetch markdown');
      await client.search('fetch markdown');
      const err = await thrown(client.search('fetch markdown'));
      expect(err.message).toMatch(/rate limit/i);
      expect(err).not.toBeInstanceOf(TavilyKeylessLimitError);
      const raw = await small.request<TavilyError>('POST', '/search', { body: { query: 'fetch markdown' } });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await small.close();
    }
  });

  it("answers 432 (Tavily's plan limit) when the monthly search budget is spent", async () => {
    const small = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_MONTHLY_SEARCH_BUDGET: '1' });
    try {
      expect((await small.request('POST', '/search', { body: { query: 'fetch markdown' } })).status).toBe(200);
      const spent = await small.request<TavilyError>('POST', '/search', { body: { query: 'fetch markdown' } });
      expect(spent.status).toBe(432);
      expect(spent.body.detail.error).toMatch(/monthly free search budget/);
      expect(Number(spent.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // /v1 keeps its 503 for the same cause.
      expect((await small.request('POST', '/v1/search', { body: { query: 'fetch markdown' } })).status).toBe(503);
    } finally {
      await small.close();
    }
  });
});

describe("Tavily's endpoints Scout does not serve", () => {
  it('answer 404 in Tavily’s error shape, which the SDK raises with Scout’s message', async () => {
    const err = await thrown(tavily({ apiKey: t.key, apiBaseURL: t.baseUrl }).research('quillwort'));
    expect(err.message).toMatch(/Scout serves POST \/search, POST \/extract, POST \/map and POST \/crawl only/);
    const raw = await t.request('POST', '/research', { body: { input: 'quillwort' } });
    expect(raw.status).toBe(404);
    expect(raw.body).toEqual({ detail: { error: expect.stringMatching(/no route POST \/research/) } });
  });
});
