import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import {
  createWikipediaProvider,
  parseWikipediaResponse,
  wikiTitlePath,
  wikipediaProvider,
} from '../../src/providers/wikipedia.ts';
import { scoutSettings } from '../../src/scout-settings.ts';
import { fixture, jsonFixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

/**
 * Fixtures model the MediaWiki Action API's JSON (format=json&formatversion=2) as
 * en.wikipedia.org/w/api.php answers action=query&list=search&srprop=snippet, as of 2025
 * (API:Search, API:Errors and warnings, Manual:Maxlag parameter):
 * - search.json: a result page for srsearch=async runtime (titles with `/`, `(`, `'`, `,`,
 *   non-ASCII; snippets with searchmatch spans and entities; one empty snippet);
 * - empty.json: the answer to a query that matches nothing;
 * - error-maxlag.json, error-ratelimited.json, error-badvalue.json: error answers, which
 *   the API sends with HTTP 200;
 * - error-403.txt: the text Wikimedia's edge answers with a 403 to a client that breaks its
 *   User-Agent policy.
 */

const UA = 'Scout/9.9 (self-hosted search gateway; contact: ops@example.org)';

describe('wikipedia adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('wikipedia', 'search.json') }));
  });
  afterAll(() => mock.close());

  const provider = () => createWikipediaProvider({ url: `${mock.url}/w/api.php`, userAgent: UA });

  it('GETs list=search with the count, JSON format version 2, only the snippet, and the User-Agent', async () => {
    mock.reply = () => ({ body: fixture('wikipedia', 'search.json') });
    mock.requests.length = 0;
    await provider().search(query({ maxResults: 7 }), noAbort());
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/w/api.php?')).toBe(true);
    expect(req.headers['user-agent']).toBe(UA);
    expect(req.headers.accept).toBe('application/json');
    expect(Object.fromEntries(new URL(req.url, mock.url).searchParams)).toEqual({
      action: 'query',
      list: 'search',
      srsearch: 'rust async runtime',
      srlimit: '7',
      srprop: 'snippet',
      format: 'json',
      formatversion: '2',
      utf8: '1',
    });
  });

  it('caps srlimit at 50 and sends no date parameter (none is native)', async () => {
    mock.reply = () => ({ body: fixture('wikipedia', 'search.json') });
    mock.requests.length = 0;
    await provider().search(query({ maxResults: 200, startDate: '2024-01-01', endDate: '2024-12-31' }), noAbort());
    const params = new URL(defined(mock.requests[0], 'a request upstream').url, mock.url).searchParams;
    expect(params.get('srlimit')).toBe('50');
    expect([...params.keys()].sort()).toEqual(
      ['action', 'format', 'formatversion', 'list', 'srlimit', 'srprop', 'srsearch', 'utf8'].sort(),
    );
    expect(provider().honours.size).toBe(0);
  });

  it('reads titles, builds /wiki/ links on the API host and gives plain snippets, without dates', async () => {
    mock.reply = () => ({ body: fixture('wikipedia', 'search.json') });
    const results = await provider().search(query({ maxResults: 10 }), noAbort());
    expect(results.map((r) => r.url)).toEqual([
      `${mock.url}/wiki/Async/await`,
      `${mock.url}/wiki/Rust_(programming_language)`,
      `${mock.url}/wiki/Futures_and_promises`,
      `${mock.url}/wiki/Amdahl%27s_law`,
      `${mock.url}/wiki/Node.js`,
      `${mock.url}/wiki/G%C3%B6del,_Escher,_Bach`,
    ]);
    expect(results[0]).toEqual({
      title: 'Async/await',
      url: `${mock.url}/wiki/Async/await`,
      content:
        'In computer programming, the async/await pattern is a syntactic feature of many programming languages that allows an asynchronous, non-blocking function returning Task<T> to be structured like an ordinary synchronous one',
    });
    expect(defined(results[1], 'a second result').content).toBe(
      'Rust is a general-purpose programming language emphasizing performance, type safety and concurrency. It has no standard async runtime; "Tokio" is the most used',
    );
    expect(defined(results[3], 'a fourth result').content).toContain('fixed workload & a runtime');
    expect(defined(results[4], 'a fifth result').content).toBe('');
    for (const r of results) {
      expect(r.content).not.toMatch(/<span|searchmatch|&[a-z]+;/);
      expect(r.publishedDate).toBeUndefined();
    }
  });

  it('trims to maxResults', async () => {
    mock.reply = () => ({ body: fixture('wikipedia', 'search.json') });
    const results = await provider().search(query({ maxResults: 2 }), noAbort());
    expect(results.map((r) => r.title)).toEqual(['Async/await', 'Rust (programming language)']);
  });

  it('answers [] for a query that matches nothing', async () => {
    mock.reply = () => ({ body: fixture('wikipedia', 'empty.json') });
    expect(await provider().search(query(), noAbort())).toEqual([]);
  });

  it.each([
    ['error-maxlag.json', 'rate_limited', 'API error (maxlag)', 'Waiting for 10.64.16.8: 7 seconds lagged.'],
    ['error-ratelimited.json', 'rate_limited', 'API error (ratelimited)', 'As an anti-abuse measure'],
    ['error-badvalue.json', 'http', 'API error (badvalue)', 'Unrecognized value for parameter "list"'],
  ])('an error answer with HTTP 200 (%s) is a %s failure', async (file, failure, message, detail) => {
    mock.reply = () => ({ body: fixture('wikipedia', file) });
    const err = await provider()
      .search(query(), noAbort())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ProviderError);
    const pe = err as ProviderError;
    expect(pe.provider).toBe('wikipedia');
    expect(pe.failure).toBe(failure);
    expect(pe.message).toBe(message);
    expect(pe.detail).toContain(detail);
  });

  it("reports Wikimedia's 403 to a client without a proper User-Agent as a block, and a 429 as a rate limit", async () => {
    mock.reply = () => ({ status: 403, body: fixture('wikipedia', 'error-403.txt'), contentType: 'text/plain' });
    await expect(provider().search(query(), noAbort())).rejects.toMatchObject({
      failure: 'blocked',
      status: 403,
      message: 'HTTP 403 (refused: Wikimedia asks for a User-Agent with a contact)',
    });
    mock.reply = () => ({ status: 429, body: 'Too many requests', contentType: 'text/plain' });
    await expect(provider().search(query(), noAbort())).rejects.toMatchObject({ failure: 'rate_limited' });
  });

  it('calls an answer without `query` or with a non-list `search` malformed, and reads a gzip answer', async () => {
    expect(() => parseWikipediaResponse({ batchcomplete: true }, 'https://en.wikipedia.org')).toThrow(
      'malformed response (no query member)',
    );
    expect(() => parseWikipediaResponse({ query: { search: {} } }, 'https://en.wikipedia.org')).toThrow(
      'malformed response (query.search is not a list)',
    );
    expect(() => parseWikipediaResponse([], 'https://en.wikipedia.org')).toThrow(/malformed response/);
    mock.reply = () => ({ body: fixture('wikipedia', 'empty.json'), gzip: true });
    expect(await provider().search(query(), noAbort())).toEqual([]);
  });
});

describe('wikipedia links', () => {
  it('writes titles as MediaWiki does: underscores, UTF-8 escapes, ;:@$!*(),/~ readable', () => {
    expect(wikiTitlePath('Rust (programming language)')).toBe('Rust_(programming_language)');
    expect(wikiTitlePath("Schrödinger's cat")).toBe('Schr%C3%B6dinger%27s_cat');
    expect(wikiTitlePath('AC/DC')).toBe('AC/DC');
    expect(wikiTitlePath('Star Wars: Episode IV – A New Hope')).toBe('Star_Wars:_Episode_IV_%E2%80%93_A_New_Hope');
    expect(wikiTitlePath('Crosby, Stills, Nash & Young')).toBe('Crosby,_Stills,_Nash_%26_Young');
    expect(wikiTitlePath('What? (film)')).toBe('What%3F_(film)');
    expect(wikiTitlePath('C++')).toBe('C%2B%2B');
    expect(wikiTitlePath('Yahoo!')).toBe('Yahoo!');
    expect(wikiTitlePath('東京')).toBe('%E6%9D%B1%E4%BA%AC');
  });

  it('keeps the host of the API URL, whatever wiki it is', () => {
    const [r] = parseWikipediaResponse(jsonFixture('wikipedia', 'search.json'), 'https://de.wikipedia.org');
    expect(defined(r, 'a result').url).toBe('https://de.wikipedia.org/wiki/Async/await');
  });
});

describe('the wikipedia descriptor', () => {
  const load = (env: Record<string, string>) =>
    loadConfig(env, { ...scoutSettings, ...wikipediaProvider.settings }) as unknown as Record<string, unknown>;

  it('declares its settings with their defaults, no requirement, and 50 results at most', () => {
    expect(Object.values(wikipediaProvider.settings).map((s) => [s.env, s.default])).toEqual([
      ['SCOUT_WIKIPEDIA_LANGUAGE', 'en'],
      ['SCOUT_WIKIPEDIA_URL', ''],
      ['SCOUT_WIKIPEDIA_RATE', '5'],
      ['SCOUT_WIKIPEDIA_IN_FLIGHT', '1'],
    ]);
    expect(wikipediaProvider.settings.wikipediaUrl.description).toContain(
      'https://<SCOUT_WIKIPEDIA_LANGUAGE>.wikipedia.org/w/api.php',
    );
    expect(wikipediaProvider.requires).toBeUndefined();
    expect(wikipediaProvider.maxResults).toBe(50);
    expect(wikipediaProvider.honours.size).toBe(0);
  });

  it('builds a paced provider on the language edition, or on the URL given', async () => {
    const built = wikipediaProvider.build(load({}) as never, {});
    expect(built.name).toBe('wikipedia');
    expect(built.pacing).toEqual({ perSecond: 5, inFlight: 1 });

    const mock = await startMockUpstream(() => ({ body: fixture('wikipedia', 'search.json') }));
    try {
      const paced = wikipediaProvider.build(
        load({
          SCOUT_WIKIPEDIA_URL: `${mock.url}/w/api.php`,
          SCOUT_WIKIPEDIA_RATE: '0.5',
          SCOUT_WIKIPEDIA_IN_FLIGHT: '3',
        }) as never,
        { userAgent: UA },
      );
      expect(paced.pacing).toEqual({ perSecond: 0.5, inFlight: 3 });
      const [first] = await paced.search(query(), noAbort());
      expect(defined(first, 'a result').url).toBe(`${mock.url}/wiki/Async/await`);
      expect(defined(mock.requests[0], 'a request upstream').headers['user-agent']).toBe(UA);
    } finally {
      await mock.close();
    }
  });

  it('derives the endpoint from the language when no URL is given', async () => {
    // No request leaves the machine: undici's MockAgent answers for pt.wikipedia.org.
    const agent = new MockAgent();
    agent.disableNetConnect();
    let asked = '';
    agent
      .get('https://pt.wikipedia.org')
      .intercept({ path: (p) => p.startsWith('/w/api.php?') })
      .reply(200, (opts) => {
        asked = String(opts.path);
        return fixture('wikipedia', 'search.json');
      });
    try {
      const pt = wikipediaProvider.build(load({ SCOUT_WIKIPEDIA_LANGUAGE: ' PT ' }) as never, { dispatcher: agent });
      const [first] = await pt.search(query(), noAbort());
      expect(new URL(asked, 'https://pt.wikipedia.org').searchParams.get('srsearch')).toBe('rust async runtime');
      expect(defined(first, 'a result').url).toBe('https://pt.wikipedia.org/wiki/Async/await');
    } finally {
      await agent.close();
    }
  });

  it.each(['en', 'de', 'pt', 'zh-yue', 'simple', 'be-tarask', 'zh-min-nan'])('accepts the language %s', (lang) => {
    expect(load({ SCOUT_WIKIPEDIA_LANGUAGE: lang }).wikipediaLanguage).toBe(lang);
  });

  it.each(['english', 'e', 'en_GB', 'en.wikipedia.org', 'de/'])(
    'refuses the language %j, naming the variable',
    (lang) => {
      expect(() => load({ SCOUT_WIKIPEDIA_LANGUAGE: lang })).toThrow(ConfigError);
      expect(() => load({ SCOUT_WIKIPEDIA_LANGUAGE: lang })).toThrow(
        /^SCOUT_WIKIPEDIA_LANGUAGE must be a Wikipedia language code/,
      );
    },
  );
});
