import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import type { SearxngResponse } from '../../src/schemas/searxng.ts';
import type { TavilySearchResponse } from '../../src/schemas/tavily.ts';
import { defined } from '../helpers/defined.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';
import { offline, organicUrls, quillwortPages, SHOES, TODAY, untilSponsored } from './compat-kit.ts';

/**
 * The SearXNG shape (docs/compat.md) on a real Scout over loopback, driven the way the apps
 * that take a SearXNG URL call it, on a local index of documents imported here.
 */

const QUILLWORT = quillwortPages(14);

// OpenWebUI's request, as its searxng.py sends it (its Connection header aside: fetch owns that).
const OPENWEBUI_HEADERS = {
  'user-agent': 'Open WebUI (https://github.com/open-webui/open-webui) RAG Bot',
  accept: 'text/html',
  'accept-encoding': 'gzip, deflate',
  'accept-language': 'en-US,en;q=0.5',
};
const openWebUiQuery = (q: string) =>
  `q=${encodeURIComponent(q)}&format=json&pageno=1&safesearch=1&language=en-US&time_range=&categories=&theme=simple&image_proxy=0`;
const perplexicaQuery = (q: string) =>
  `format=json&q=${encodeURIComponent(q)}&categories=general&language=en&engines=bing%2Cgoogle&pageno=1`;
// LibreChat's (@librechat/agents): its own engine list, a max_results SearXNG does not know.
const libreChatQuery = (q: string) =>
  `q=${encodeURIComponent(q)}&format=json&pageno=1&categories=general&language=all&safesearch=0&engines=google%2Cbing%2Cduckduckgo&max_results=8`;

const searxUrls = (body: SearxngResponse) => body.results.filter((r) => r.engine !== 'sponsored').map((r) => r.url);

/** Campaigns show a moment after they are stored: asked again until one does (as mcp-http.test). */

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_PATH_KEYS: 'true' }, offline());
  t.scout.index.upsert([...QUILLWORT, ...SHOES]);
});
afterAll(() => t?.close());

describe('GET /search as the apps send it', () => {
  it('OpenWebUI through a path key: JSON whatever Accept says, the same organic order as /v1/search', async () => {
    const res = await t.request<SearxngResponse>('GET', `/k/${t.key}/search?${openWebUiQuery('quillwort lakes')}`, {
      key: null,
      headers: OPENWEBUI_HEADERS,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-scout-provider')).toBe('local');
    expect(res.headers.get('ratelimit-limit')).toBe('100000');
    const v1 = await t.request<SearchResponse>('GET', '/v1/search?q=quillwort%20lakes');
    expect(searxUrls(res.body)).toEqual(organicUrls(v1.body));
    expect(res.body.results).toHaveLength(10);
    expect(res.body).toMatchObject({ query: 'quillwort lakes', number_of_results: 10, answers: [], suggestions: [] });
    expect(defined(res.body.results[0], 'a first result')).toMatchObject({
      engine: 'local',
      engines: ['local'],
      category: 'general',
      score: 1,
    });
    const dates = v1.body.results.map((r) => r.published_date);
    expect(res.body.results.map((r) => r.publishedDate)).toEqual(dates);
    expect(new Set(dates.map((d) => d?.slice(0, 10)))).toEqual(new Set([TODAY, '2019-05-01']));
  });

  it('Perplexica without a key: 401 in the Error shape naming how to send one; with a path key: 200', async () => {
    const res = await t.request<ErrorBody>('GET', `/search?${perplexicaQuery('quillwort')}`, { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="scout"');
    expect(res.body.error.message).toBe(
      'missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>" (keys in the query string are not accepted); a client that can only hold a URL can carry the key in its path: /k/<key>/search (docs/compat.md)',
    );
    const ok = await t.request<SearxngResponse>('GET', `/k/${t.key}/search?${perplexicaQuery('quillwort')}`, {
      key: null,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.results.length).toBeGreaterThan(0);
  });

  it('LibreChat with its X-API-Key header (and the JSON Content-Type it puts on a GET)', async () => {
    const res = await t.request<SearxngResponse>('GET', `/search?${libreChatQuery('quillwort')}`, {
      headers: { 'X-API-Key': t.key, 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const v1 = await t.request<SearchResponse>('GET', '/v1/search?q=quillwort');
    expect(searxUrls(res.body)).toEqual(organicUrls(v1.body));
  });
});

describe('GET /search: parameters', () => {
  it('honours time_range=day as /v1 freshness=day does: older pages are left out', async () => {
    const res = await t.request<SearxngResponse>('GET', '/search?q=quillwort&format=json&time_range=day');
    const v1 = await t.request<SearchResponse>('GET', '/v1/search?q=quillwort&freshness=day');
    expect(searxUrls(res.body)).toEqual(organicUrls(v1.body));
    expect(res.body.results).toHaveLength(7);
    for (const r of res.body.results) expect(r.publishedDate?.slice(0, 10)).toBe(TODAY);
  });

  it('pages by 10 through the 20 results /v1 gives at most: page 2 holds the rest, page 3 none', async () => {
    const all = await t.request<SearchResponse>('GET', '/v1/search?q=quillwort&max_results=20');
    expect(organicUrls(all.body)).toHaveLength(14);
    const page1 = await t.request<SearxngResponse>('GET', '/search?q=quillwort&format=json&pageno=1');
    const page2 = await t.request<SearxngResponse>('GET', '/search?q=quillwort&format=json&pageno=2');
    expect([...searxUrls(page1.body), ...searxUrls(page2.body)]).toEqual(organicUrls(all.body));
    expect(page2.body.results.map((r) => r.score)).toEqual([0.9, 0.89, 0.88, 0.87]);
    const page3 = await t.request<SearxngResponse>('GET', '/search?q=quillwort&format=json&pageno=3');
    expect(page3.status).toBe(200);
    expect(page3.body).toMatchObject({ number_of_results: 0, results: [] });
  });

  it('ignores parameters it does not know, while /v1/search still refuses them', async () => {
    const res = await t.request<SearxngResponse>(
      'GET',
      '/search?q=quillwort&format=json&foo=bar&engines=google&categories=news&language=fr&safesearch=2&image_proxy=%ZZ',
    );
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    const strict = await t.request<ErrorBody>('GET', '/v1/search?q=quillwort&foo=bar');
    expect(strict.status).toBe(400);
    expect(strict.body.error.message).toMatch(/^unknown query parameter "foo"/);
  });

  it('refuses what it would otherwise answer wrongly, in the Error shape', async () => {
    const cases: [string, string][] = [
      ['/search?q=quillwort&format=html', 'format html is not served'],
      ['/search?format=json', 'q is required'],
      ['/search?q=quillwort&time_range=decade', 'time_range must be day, week, month or year'],
      ['/search?q=quillwort&pageno=0', 'pageno must be a whole number from 1'],
      ['/search?q=caf%E9', 'q is not valid percent-encoded UTF-8'],
    ];
    for (const [path, message] of cases) {
      const res = await t.request<ErrorBody>('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toContain(message);
    }
    // HEAD would run (and charge) a search to send no body.
    const head = await fetch(`${t.baseUrl}/search?q=quillwort`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
  });
});

describe('POST /search', () => {
  it('takes a SearXNG form and answers as GET does, a form field winning over the query string', async () => {
    const form = await t.request<SearxngResponse>('POST', '/search?q=ignored', {
      rawBody: 'q=quillwort&format=json&pageno=1&categories=general',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    const get = await t.request<SearxngResponse>('GET', '/search?q=quillwort&format=json');
    expect(form.body.results).toEqual(get.body.results);
    const fromQuery = await t.request<SearxngResponse>('POST', `/k/${t.key}/search?q=quillwort&format=json`, {
      key: null,
    });
    expect(fromQuery.body.results).toEqual(get.body.results);
  });

  it('decodes the form as strictly as a query string: a bad escape in q is 400, in an ignored field nothing', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const bad = await t.request<ErrorBody>('POST', '/search', { rawBody: 'q=caf%E9', headers: form });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^q is not valid percent-encoded UTF-8/);
    const ignored = await t.request<SearxngResponse>('POST', '/search', {
      rawBody: 'q=quillwort&theme=%ZZ',
      headers: form,
    });
    expect(ignored.status).toBe(200);
  });

  it('takes a JSON body as the Tavily shape and refuses any other type but a form with 415', async () => {
    const json = await t.request<TavilySearchResponse>('POST', '/search', { body: { query: 'quillwort' } });
    expect(json.status).toBe(200);
    expect(json.body.answer).toBeNull();
    const text = await t.request<ErrorBody>('POST', '/search', {
      rawBody: 'quillwort',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.error.message).toBe(
      'POST /search takes a SearXNG form (Content-Type: application/x-www-form-urlencoded) or a Tavily JSON body (Content-Type: application/json)',
    );
    // The /v1 routes keep their own rule: JSON only, 400 otherwise.
    const v1 = await t.request<ErrorBody>('POST', '/v1/search', {
      rawBody: 'query=quillwort',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(v1.status).toBe(400);
  });
});

describe('sponsored entries in the SearXNG shape', () => {
  beforeAll(async () => {
    await t.scout.sponsored.admin.create(
      campaignFile({ incentive: { kind: 'code', code: 'RUN10', benefit: '10% off the first pair' } }),
    );
    await untilSponsored(t, 'running shoes');
  });

  it('come first, above every organic score, saying they are ads and who pays; organic order unchanged', async () => {
    const res = await t.request<SearxngResponse>('GET', '/search?q=running%20shoes&format=json');
    const v1 = await t.request<SearchResponse>('POST', '/v1/search', { body: { query: 'running shoes' } });
    const [ad, ...rest] = res.body.results;
    expect(ad).toMatchObject({
      title: 'Sponsored: Acme trail running shoes',
      content:
        'Sponsored by Acme (an ad, not a search result). Light shoes for long runs. Offer: 10% off the first pair (code RUN10).',
      engine: 'sponsored',
      engines: ['sponsored'],
      category: 'sponsored',
    });
    // The click URL, as /v1 gives it: Scout's redirect, which counts the click.
    expect(defined(ad, 'the ad').url).toMatch(/\/v1\/r\/rec_[0-9A-Za-z]{52}$/);
    expect(rest.map((r) => r.url)).toEqual(organicUrls(v1.body));
    expect(rest.every((r) => r.engine === 'local')).toBe(true);
    const scores = res.body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(scores).size).toBe(scores.length);
    expect(res.body.number_of_results).toBe(rest.length);
  });

  it('are left off page 2 (the same search again)', async () => {
    const res = await t.request<SearxngResponse>('GET', '/search?q=running%20shoes&format=json&pageno=2');
    expect(res.body.results.filter((r) => r.engine === 'sponsored')).toEqual([]);
  });

  it('are off when SCOUT_COMPAT_SPONSORED leaves searxng out, and /v1 still shows them', async () => {
    const off = await startTestScout(
      { SCOUT_COMPAT_SPONSORED: 'tavily,firecrawl', SCOUT_RATE_LIMIT_RPM: '100000' },
      offline(),
    );
    try {
      off.scout.index.upsert(SHOES);
      await off.scout.sponsored.admin.create(campaignFile());
      await untilSponsored(off, 'running shoes');
      const res = await off.request<SearxngResponse>('GET', '/search?q=running%20shoes&format=json');
      expect(res.status).toBe(200);
      expect(res.body.results.map((r) => r.engine)).toEqual(['local', 'local', 'local']);
      expect(res.body.results.some((r) => r.title.startsWith('Sponsored'))).toBe(false);
    } finally {
      await off.close();
    }
  });
});

describe('the same rate limit and budget as /v1', () => {
  it('charges a search one unit, a page past the results none, and refuses past the rate limit with 429', async () => {
    const small = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '3' });
    try {
      expect((await small.request('GET', '/search?q=fetch%20markdown&format=json')).status).toBe(200);
      const past = await small.request<SearxngResponse>('GET', '/search?q=fetch%20markdown&format=json&pageno=3');
      expect(past.body.results).toEqual([]);
      const usage = await small.request<{ budget: { units_used: number } }>('GET', '/v1/usage');
      expect(usage.body.budget.units_used).toBe(1);
      expect((await small.request('GET', '/search?q=fetch%20markdown&format=json')).status).toBe(200);
      const refused = await small.request<ErrorBody>('GET', '/search?q=fetch%20markdown&format=json');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await small.close();
    }
  });
});

describe('metrics', () => {
  /** A sample's value in the exposition text, 0 when the series is absent. */
  const count = (text: string, series: string): number => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
  const searxng = 'scout_compat_requests_total{shape="searxng",status_class="2xx"}';
  const tavily = 'scout_compat_requests_total{shape="tavily",status_class="2xx"}';
  const v1Only = 'scout_compat_requests_total{shape="searxng",status_class="4xx"}';

  it('label each answer with the shape it was given in: POST /search by its body, /v1 by none', async () => {
    const before = await t.scout.metrics.render();
    await t.request('GET', '/search?q=quillwort&format=json');
    await t.request('POST', '/search', {
      rawBody: 'q=quillwort&format=json',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await t.request('POST', '/search', { body: { query: 'quillwort' } });
    await t.request('POST', '/v1/search', { body: { query: 'quillwort', max_results: 99 } });
    const after = await t.scout.metrics.render();
    expect(count(after, searxng) - count(before, searxng)).toBe(2);
    expect(count(after, tavily) - count(before, tavily)).toBe(1);
    // The /v1 request refused with 400 is no shape's.
    expect(count(after, v1Only)).toBe(count(before, v1Only));
  });
});
