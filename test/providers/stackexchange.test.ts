import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import {
  createStackExchangeProvider,
  parseStackExchangeResponse,
  stackExchangeHost,
  stackExchangeParams,
  stackExchangeProvider,
  throttleWait,
} from '../../src/providers/stackexchange.ts';
import { scoutSettings } from '../../src/scout-settings.ts';
import { NOW, fixture, jsonFixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

/**
 * Fixtures model the Stack Exchange API 2.3 common wrapper as api.stackexchange.com answers
 * GET /2.3/search/excerpts?order=desc&sort=relevance&q=…&site=stackoverflow, as of 2025
 * (api.stackexchange.com/docs/excerpt-search, /docs/types/search-excerpt, /docs/wrapper,
 * /docs/error-handling, /docs/throttle):
 * - search.json: a question, one of its answers (its title is the question's) and another
 *   question; titles HTML-encoded, excerpts with <span class="highlight"> and &hellip;;
 * - empty.json: no match; backoff.json: an answer carrying `backoff`; quota-used-up.json:
 *   an answer with `quota_remaining: 0`;
 * - error-*.json: the error wrapper the API sends with HTTP 400 (throttle_violation 502,
 *   bad_parameter 400 for a missing site or a bad key, temporarily_unavailable 503).
 * The API compresses every answer: the mock serves them gzip-compressed.
 */

const UA = 'Scout/9.9 (self-hosted search gateway; contact: ops@example.org)';

describe('stackexchange adapter', () => {
  let mock: MockUpstream;
  let clock = NOW.getTime();
  const now = () => new Date(clock);
  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(() => mock.close());

  const serve = (file: string, status = 200) => {
    mock.reply = () => ({ status, body: fixture('stackexchange', file), gzip: true });
  };
  const provider = (over: { key?: string; site?: string } = {}) =>
    createStackExchangeProvider({
      url: `${mock.url}/2.3/search/excerpts`,
      site: over.site ?? 'stackoverflow',
      ...(over.key ? { key: over.key } : {}),
      userAgent: UA,
      now,
    });
  const failureOf = (p: ReturnType<typeof provider>) =>
    p.search(query(), noAbort()).then(
      () => undefined,
      (e: unknown) => e as ProviderError,
    );

  it('GETs the excerpt search with relevance order, site and page size, and the User-Agent', async () => {
    serve('search.json');
    mock.requests.length = 0;
    await provider().search(query({ maxResults: 5 }), noAbort());
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/2.3/search/excerpts?')).toBe(true);
    expect(req.headers['user-agent']).toBe(UA);
    expect(req.headers['accept-encoding']).toContain('gzip');
    expect(Object.fromEntries(new URL(req.url, mock.url).searchParams)).toEqual({
      order: 'desc',
      sort: 'relevance',
      q: 'rust async runtime',
      site: 'stackoverflow',
      pagesize: '5',
    });
  });

  it('sends the app key as key= when there is one', async () => {
    serve('empty.json');
    mock.requests.length = 0;
    await provider({ key: 'U4DMV*8nvpm3EOpvf69Rxw((' }).search(query(), noAbort());
    const params = new URL(defined(mock.requests[0], 'a request upstream').url, mock.url).searchParams;
    expect(params.get('key')).toBe('U4DMV*8nvpm3EOpvf69Rxw((');
  });

  it('maps the date window to fromdate/todate in unix seconds, the end day included', () => {
    const both = stackExchangeParams(query({ startDate: '2024-01-01', endDate: '2024-01-31' }), 'unix', NOW);
    expect(both.fromdate).toBe(1704067200);
    expect(both.todate).toBe(1706745599);
    expect(both.site).toBe('unix');
    // Freshness alone (start not resolved by the caller) counts back from the clock.
    expect(stackExchangeParams(query({ freshness: 'week' }), 'unix', NOW).fromdate).toBe(
      Date.parse('2025-01-01T00:00:00Z') / 1000,
    );
    const none = stackExchangeParams(query(), 'unix', NOW);
    expect(none.fromdate).toBeUndefined();
    expect(none.todate).toBeUndefined();
    expect(stackExchangeParams(query({ maxResults: 500 }), 'unix', NOW).pagesize).toBe(100);
  });

  it('sends the dates upstream and declares them native', async () => {
    serve('empty.json');
    mock.requests.length = 0;
    const p = provider();
    await p.search(query({ startDate: '2024-06-01' }), noAbort());
    const params = new URL(defined(mock.requests[0], 'a request upstream').url, mock.url).searchParams;
    expect(params.get('fromdate')).toBe('1717200000');
    expect(params.has('todate')).toBe(false);
    expect([...p.honours]).toEqual(['dates']);
  });

  it('reads a gzip answer: entities decoded, highlights removed, question and answer links, creation dates', async () => {
    serve('search.json');
    // The mock compresses as the API does: what reaches the adapter is gzip.
    const raw = await request(`${mock.url}/2.3/search/excerpts`);
    expect(raw.headers['content-encoding']).toBe('gzip');
    await raw.body.dump();
    const results = await provider().search(query(), noAbort());
    expect(results).toEqual([
      {
        title: "What's the difference between tokio and async-std?",
        url: 'https://stackoverflow.com/questions/56252798',
        content: "I'm choosing between tokio and async-std for a network service. Which runtime should I pick…",
        publishedDate: '2019-05-22T22:40:00Z',
      },
      {
        title: "What's the difference between tokio and async-std?",
        url: 'https://stackoverflow.com/a/56253186',
        content: 'Tokio is the most widely used runtime & has the larger ecosystem…',
        publishedDate: '2019-05-22T23:20:00Z',
      },
      {
        title: 'C++ & Rust: driving an async runtime from std::function<void()>',
        url: 'https://stackoverflow.com/questions/77001122',
        content: 'Calling into an async runtime from C++ with a callback of type std::function<void()>',
        publishedDate: '2024-01-01T00:00:00Z',
      },
    ]);
  });

  it('builds links on the host of the configured site', async () => {
    serve('search.json');
    const [first] = await provider({ site: 'unix.stackexchange.com' }).search(query(), noAbort());
    expect(defined(first, 'a result').url).toBe('https://unix.stackexchange.com/questions/56252798');
    const [q] = parseStackExchangeResponse(jsonFixture('stackexchange', 'search.json'), 'mathoverflow');
    expect(defined(q, 'a result').url).toBe('https://mathoverflow.net/questions/56252798');
  });

  it('trims to maxResults and answers [] when nothing matched', async () => {
    serve('search.json');
    expect((await provider().search(query({ maxResults: 1 }), noAbort())).map((r) => r.url)).toEqual([
      'https://stackoverflow.com/questions/56252798',
    ]);
    serve('empty.json');
    expect(await provider().search(query(), noAbort())).toEqual([]);
  });

  it('calls a wrapper without an item list malformed', () => {
    expect(() => parseStackExchangeResponse({ quota_max: 300 }, 'stackoverflow')).toThrow(
      'malformed response (items is not a list)',
    );
    expect(() => parseStackExchangeResponse('x', 'stackoverflow')).toThrow(/malformed response/);
  });

  it.each([
    ['error-bad-parameter.json', 'http', 'API error (bad_parameter)', 'site is required'],
    ['error-key.json', 'auth', 'API error (bad_parameter)', 'key'],
    ['error-unavailable.json', 'http', 'API error (temporarily_unavailable)', 'temporarily unavailable'],
  ])('reads the error of a 400 (%s) as %s', async (file, failure, message, detail) => {
    serve(file, 400);
    const err = await failureOf(provider());
    expect(err).toBeInstanceOf(ProviderError);
    expect(err?.provider).toBe('stackexchange');
    expect(err?.failure).toBe(failure);
    expect(err?.status).toBe(400);
    expect(err?.message).toBe(message);
    expect(err?.detail).toContain(detail);
  });

  it('takes a throttle violation for a rate limit and sends nothing more until its wait has passed', async () => {
    clock = NOW.getTime();
    const p = provider();
    serve('error-throttle.json', 400);
    const err = await failureOf(p);
    expect(err).toMatchObject({ failure: 'rate_limited', status: 400, message: 'API error (throttle_violation)' });
    expect(throttleWait(err?.detail)).toBe(82574);

    serve('search.json');
    mock.requests.length = 0;
    clock += 82_000_000;
    expect(await failureOf(p)).toMatchObject({
      failure: 'rate_limited',
      message: 'throttled by the API (574 s left)',
    });
    expect(mock.requests).toHaveLength(0);
    clock += 600_000;
    expect(await p.search(query(), noAbort())).toHaveLength(3);
    expect(mock.requests).toHaveLength(1);
  });

  it('returns an answer carrying backoff, then refuses calls itself until the backoff has passed', async () => {
    clock = NOW.getTime();
    const p = provider();
    serve('backoff.json');
    expect(await p.search(query(), noAbort())).toHaveLength(1);

    mock.requests.length = 0;
    clock += 4_000;
    const held = await failureOf(p);
    expect(held).toBeInstanceOf(ProviderError);
    expect(held).toMatchObject({ failure: 'rate_limited', message: 'backoff requested by the API (6 s left)' });
    expect(mock.requests).toHaveLength(0);

    serve('search.json');
    clock += 6_000;
    expect(await p.search(query(), noAbort())).toHaveLength(3);
    expect(mock.requests).toHaveLength(1);
  });

  it('returns the answer that used the quota up, then holds calls off for an hour', async () => {
    clock = NOW.getTime();
    const p = provider();
    serve('quota-used-up.json');
    expect(await p.search(query(), noAbort())).toHaveLength(1);

    mock.requests.length = 0;
    clock += 60_000;
    expect(await failureOf(p)).toMatchObject({ failure: 'rate_limited', message: 'daily quota used up (3540 s left)' });
    expect(mock.requests).toHaveLength(0);

    serve('empty.json');
    clock += 3_540_000;
    expect(await p.search(query(), noAbort())).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });

  it('keeps a key out of error details', async () => {
    const key = 'secret-looking-app-key';
    mock.reply = () => ({
      status: 400,
      body: `{"error_id":400,"error_message":"key ${key} is not valid","error_name":"bad_parameter"}`,
      gzip: true,
    });
    const err = await failureOf(provider({ key }));
    expect(err?.failure).toBe('auth');
    expect(err?.detail ?? '').not.toContain(key);
    expect(err?.message).not.toContain(key);
  });
});

describe('stack exchange site hosts', () => {
  it.each([
    ['stackoverflow', 'stackoverflow.com'],
    ['serverfault', 'serverfault.com'],
    ['superuser', 'superuser.com'],
    ['askubuntu', 'askubuntu.com'],
    ['mathoverflow', 'mathoverflow.net'],
    ['stackapps', 'stackapps.com'],
    ['unix', 'unix.stackexchange.com'],
    ['math', 'math.stackexchange.com'],
    ['meta', 'meta.stackexchange.com'],
    ['pt.stackoverflow', 'pt.stackoverflow.com'],
    ['meta.serverfault', 'meta.serverfault.com'],
    ['meta.mathoverflow', 'meta.mathoverflow.net'],
    ['stackoverflow.com', 'stackoverflow.com'],
    ['unix.stackexchange.com', 'unix.stackexchange.com'],
  ])('%s lives on %s', (site, host) => {
    expect(stackExchangeHost(site)).toBe(host);
  });
});

describe('the stackexchange descriptor', () => {
  const load = (env: Record<string, string>) =>
    loadConfig(env, { ...scoutSettings, ...stackExchangeProvider.settings }) as unknown as Record<string, unknown>;

  it('declares its settings with their defaults, no requirement, native dates and 100 results at most', () => {
    expect(Object.values(stackExchangeProvider.settings).map((s) => [s.env, s.default])).toEqual([
      ['SCOUT_STACKEXCHANGE_URL', 'https://api.stackexchange.com/2.3/search/excerpts'],
      ['SCOUT_STACKEXCHANGE_SITE', 'stackoverflow'],
      ['SCOUT_STACKEXCHANGE_KEY', ''],
      ['SCOUT_STACKEXCHANGE_RATE', '1'],
      ['SCOUT_STACKEXCHANGE_IN_FLIGHT', '1'],
    ]);
    expect(stackExchangeProvider.requires).toBeUndefined();
    expect([...stackExchangeProvider.honours]).toEqual(['dates']);
    expect(stackExchangeProvider.maxResults).toBe(100);
  });

  it('builds a paced provider that sends the configured site and key', async () => {
    expect(stackExchangeProvider.build(load({}) as never, {}).pacing).toEqual({ perSecond: 1, inFlight: 1 });
    const mock = await startMockUpstream(() => ({ body: fixture('stackexchange', 'search.json'), gzip: true }));
    try {
      const built = stackExchangeProvider.build(
        load({
          SCOUT_STACKEXCHANGE_URL: `${mock.url}/2.3/search/excerpts`,
          SCOUT_STACKEXCHANGE_SITE: ' ServerFault ',
          SCOUT_STACKEXCHANGE_KEY: ' k3y(( ',
          SCOUT_STACKEXCHANGE_RATE: '0.2',
          SCOUT_STACKEXCHANGE_IN_FLIGHT: '2',
        }) as never,
        { userAgent: UA },
      );
      expect(built.name).toBe('stackexchange');
      expect(built.pacing).toEqual({ perSecond: 0.2, inFlight: 2 });
      const [first] = await built.search(query(), noAbort());
      expect(defined(first, 'a result').url).toBe('https://serverfault.com/questions/56252798');
      const req = defined(mock.requests[0], 'a request upstream');
      const params = new URL(req.url, mock.url).searchParams;
      expect(params.get('site')).toBe('serverfault');
      expect(params.get('key')).toBe('k3y((');
      expect(req.headers['user-agent']).toBe(UA);
    } finally {
      await mock.close();
    }
  });

  it.each(['stack overflow', 'so/', 'https://stackoverflow.com'])(
    'refuses the site %j, naming the variable',
    (site) => {
      expect(() => load({ SCOUT_STACKEXCHANGE_SITE: site })).toThrow(ConfigError);
      expect(() => load({ SCOUT_STACKEXCHANGE_SITE: site })).toThrow(
        /^SCOUT_STACKEXCHANGE_SITE must be a Stack Exchange site/,
      );
    },
  );
});
