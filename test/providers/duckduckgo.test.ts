import { loadScoutConfig } from '../../src/scout-settings.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDuckduckgoProvider,
  duckduckgoForm,
  duckduckgoFreshness,
  duckduckgoProvider,
  duckduckgoQuery,
  duckduckgoRegion,
  parseDuckduckgoPage,
  unwrapDuckLink,
} from '../../src/providers/duckduckgo.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import type { ValuesOf } from '../../src/config/setting.ts';
import { NOW, fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

/**
 * The DuckDuckGo adapter against pages shaped like html.duckduckgo.com/html/ (as of 2025,
 * from its no-JS page and SearXNG's duckduckgo engine), served on loopback:
 * - search.html: the result page for q=rust async runtime: header and form, two ads
 *   (result--ad, y.js links), ten organic results behind //duckduckgo.com/l/?uddg= redirects
 *   (one absolute), some dated, the next-page form;
 * - no-results.html: the page for a query nothing matches (div.no-results);
 * - blocked.html: the bot check (anomaly dialog, form#challenge-form), sent with HTTP 202;
 * - changed-markup.html: an invented redesign none of the parser's selectors match.
 */

const PACING = { perSecond: 2, inFlight: 1 };

async function failureOf(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ProviderError) return e;
    throw e;
  }
  throw new Error('expected the search to fail');
}

describe('duckduckgo adapter', () => {
  let mock: MockUpstream;
  const page = (file: string, status = 200) => {
    mock.reply = () => ({ status, body: fixture('duckduckgo', file) });
  };
  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(() => mock.close());

  const provider = () =>
    createDuckduckgoProvider({ url: `${mock.url}/html/`, pacing: PACING, userAgent: 'test-agent', now: () => NOW });

  it('POSTs the search form with the region, the freshness bucket and the page as Referer', async () => {
    page('search.html');
    mock.requests.length = 0;
    await provider().search(query({ country: 'GB', freshness: 'week', startDate: '2025-01-01' }), noAbort());
    await provider().search(query(), noAbort());
    const [first, second] = mock.requests;
    const req = defined(first, 'a request upstream');
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/html/');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers['user-agent']).toBe('test-agent');
    expect(req.headers.referer).toBe(`${mock.url}/html/`);
    expect(req.headers.accept).toMatch(/^text\/html/);
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      q: 'rust async runtime',
      b: '',
      kl: 'uk-en',
      df: 'w',
    });
    // No country: no region (wt-wt); no date window: no df at all.
    expect(Object.fromEntries(new URLSearchParams(defined(second, 'a second request').body))).toEqual({
      q: 'rust async runtime',
      b: '',
      kl: 'wt-wt',
    });
  });

  it('reads the ten organic results in page order, ads dropped and redirect links unwrapped', async () => {
    page('search.html');
    const results = await provider().search(query(), noAbort());
    expect(results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://docs.rs/tokio/latest/tokio/',
      // Its link is the absolute form https://duckduckgo.com/l/?uddg=…
      'https://rust-lang.github.io/async-book/',
      'https://without.boats/blog/async-await-final/',
      'https://github.com/smol-rs/smol',
      // The target's own query string survives the percent-decoding.
      'https://users.rust-lang.org/t/which-async-runtime-should-i-use/98765?page=2',
      'https://corrode.dev/blog/async/',
      'https://embassy.dev/',
      'https://docs.rs/glommio/latest/glommio/',
      'https://en.wikipedia.org/wiki/Async/await',
    ]);
    expect(results[0]).toEqual({
      title: 'Tokio - An asynchronous Rust runtime',
      url: 'https://tokio.rs/',
      content:
        'Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.',
      publishedDate: '2024-11-12T00:00:00Z',
      favicon: 'https://external-content.duckduckgo.com/ip3/tokio.rs.ico',
    });
    // Entities decoded (&amp; &quot; &mdash; &#x27;), highlight tags gone, white space folded.
    expect(results[3]).toMatchObject({
      title: 'Async & await in Rust: a full proposal',
      content:
        'The async/await syntax is designed to make "writing asynchronous code feel like writing synchronous code" — without a runtime built into the language.',
      publishedDate: '2018-05-04T00:00:00Z',
    });
    expect(results[2]?.content).toContain("using Rust's async language features");
    expect(results[1]?.publishedDate).toBeUndefined();
    expect(results.some((r) => /example\.(com|net)|y\.js/.test(r.url))).toBe(false);
    expect(results.some((r) => r.title.startsWith('Rust Training') || r.title.startsWith('Cloud Hosting'))).toBe(false);
  });

  it('trims to the count asked for, and never returns more than the one page holds', async () => {
    page('search.html');
    const three = await provider().search(query({ maxResults: 3 }), noAbort());
    expect(three.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://docs.rs/tokio/latest/tokio/',
      'https://rust-lang.github.io/async-book/',
    ]);
    expect(await provider().search(query({ maxResults: 50 }), noAbort())).toHaveLength(10);
  });

  it('reports the bot challenge page as blocked, whatever its status', async () => {
    page('blocked.html');
    const e = await failureOf(provider().search(query(), noAbort()));
    expect(e.failure).toBe('blocked');
    expect(e.message).toBe("blocked (DuckDuckGo's bot challenge)");
  });

  it.each([202, 403, 429])('reports HTTP %i as blocked', async (status) => {
    page('blocked.html', status);
    const e = await failureOf(provider().search(query(), noAbort()));
    expect(e.failure).toBe('blocked');
    expect(e.status).toBe(status);
    expect(e.message).toBe(`HTTP ${status} (the engine refused automated queries)`);
  });

  it('reads the no-results page as an empty list', async () => {
    page('no-results.html');
    expect(await provider().search(query({ query: 'zxqvj flurbleglorp async runtime 2719' }), noAbort())).toEqual([]);
  });

  it('reports a page whose markup it no longer knows as a parse failure, not as no results', async () => {
    page('changed-markup.html');
    const e = await failureOf(provider().search(query(), noAbort()));
    expect(e.failure).toBe('malformed');
    expect(e.message.startsWith('parse failed')).toBe(true);
    expect(e.detail).toBe('page title: rust async runtime at DuckDuckGo');
  });

  it('drops a result whose link is an ad redirect even without the ad class', () => {
    const html = `<html><body><div id="links" class="results">
      <div class="result results_links results_links_deep web-result">
        <h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example.com&amp;u3=x">Buy</a></h2>
        <a class="result__snippet" href="#">Sponsored</a>
      </div>
      <div class="result results_links results_links_deep web-result">
        <h2 class="result__title"><a class="result__a" href="https://example.org/direct">Direct link</a></h2>
      </div>
    </div></body></html>`;
    expect(parseDuckduckgoPage(html, NOW)).toEqual([
      { title: 'Direct link', url: 'https://example.org/direct', content: '' },
    ]);
  });
});

describe('duckduckgo links, regions, dates and long queries', () => {
  it('unwraps redirect links in both forms and keeps other links as they are', () => {
    expect(unwrapDuckLink('//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%3Fy%3D1%26z%3D2&rut=abc')).toBe(
      'https://a.example/x?y=1&z=2',
    );
    expect(unwrapDuckLink('https://duckduckgo.com/l/?uddg=https%3A%2F%2Fb.example%2F&rut=abc')).toBe(
      'https://b.example/',
    );
    expect(unwrapDuckLink('https://c.example/page')).toBe('https://c.example/page');
    // DuckDuckGo's own pages can be results (a search for "duckduckgo").
    expect(unwrapDuckLink('https://duckduckgo.com/about')).toBe('https://duckduckgo.com/about');
    expect(unwrapDuckLink('//duckduckgo.com/y.js?ad_domain=x.example')).toBeUndefined();
    expect(unwrapDuckLink('//duckduckgo.com/l/?rut=abc')).toBeUndefined();
    expect(unwrapDuckLink('//duckduckgo.com/l/?uddg=javascript%3Aalert(1)')).toBeUndefined();
    expect(unwrapDuckLink(null)).toBeUndefined();
  });

  it('maps ISO countries to DuckDuckGo regions, and the rest to no region', () => {
    expect(duckduckgoRegion('US')).toBe('us-en');
    expect(duckduckgoRegion('DE')).toBe('de-de');
    expect(duckduckgoRegion('GB')).toBe('uk-en');
    expect(duckduckgoRegion('SA')).toBe('xa-ar');
    expect(duckduckgoRegion('ZW')).toBe('wt-wt');
    expect(duckduckgoRegion(undefined)).toBe('wt-wt');
  });

  it('sends freshness as df, and a start_date as the smallest bucket that covers it', () => {
    // NOW is 2025-01-08T12:00Z.
    expect(duckduckgoFreshness(query({ freshness: 'month', startDate: '2024-12-08' }), NOW)).toBe('m');
    expect(duckduckgoFreshness(query({ startDate: '2025-01-08' }), NOW)).toBe('d');
    expect(duckduckgoFreshness(query({ startDate: '2025-01-07' }), NOW)).toBe('w');
    expect(duckduckgoFreshness(query({ startDate: '2025-01-02' }), NOW)).toBe('w');
    expect(duckduckgoFreshness(query({ startDate: '2024-12-20', endDate: '2024-12-31' }), NOW)).toBe('m');
    expect(duckduckgoFreshness(query({ startDate: '2024-06-01' }), NOW)).toBe('y');
    expect(duckduckgoFreshness(query({ startDate: '2023-06-01' }), NOW)).toBeUndefined();
    expect(duckduckgoFreshness(query({ endDate: '2024-06-30' }), NOW)).toBeUndefined();
  });

  it('cuts a query DuckDuckGo would refuse (500 characters or more) at a word boundary', () => {
    const long = `${'asynchronous '.repeat(45)}runtime`;
    const sent = duckduckgoQuery(long);
    expect(Array.from(sent).length).toBeLessThanOrEqual(499);
    expect(long.startsWith(sent)).toBe(true);
    expect(sent.endsWith('asynchronous')).toBe(true);
    expect(duckduckgoQuery('rust async runtime')).toBe('rust async runtime');
    expect(duckduckgoForm(query({ query: long }), NOW).q).toBe(sent);
  });
});

describe('the duckduckgo descriptor', () => {
  type Config = ValuesOf<typeof duckduckgoProvider.settings>;
  // Its settings as Scout parses them (the descriptor is registered: they are in the table).
  const configOf = (env: Record<string, string> = {}): Config => loadScoutConfig(env);

  it('declares a keyless provider with its settings, filters and page size', () => {
    expect(duckduckgoProvider.name).toBe('duckduckgo');
    expect(Object.values(duckduckgoProvider.settings).map((s) => s.env)).toEqual([
      'SCOUT_DUCKDUCKGO_URL',
      'SCOUT_DUCKDUCKGO_RATE',
      'SCOUT_DUCKDUCKGO_IN_FLIGHT',
    ]);
    expect(duckduckgoProvider.requires).toBeUndefined();
    expect([...duckduckgoProvider.honours]).toEqual(['country']);
    expect(duckduckgoProvider.maxResults).toBe(10);
    // The endpoint keeps its trailing slash (the general URL parser drops it).
    expect(configOf().duckduckgoUrl).toBe('https://html.duckduckgo.com/html/');
  });

  it('builds a provider paced by its settings: 1 search per second, 1 at a time unless set', () => {
    const built = duckduckgoProvider.build(configOf(), {});
    expect(built.name).toBe('duckduckgo');
    expect(built.pacing).toEqual({ perSecond: 1, inFlight: 1 });
    expect(built.honours).toEqual(duckduckgoProvider.honours);
    const tuned = duckduckgoProvider.build(
      configOf({ SCOUT_DUCKDUCKGO_RATE: '0.5', SCOUT_DUCKDUCKGO_IN_FLIGHT: '2' }),
      {},
    );
    expect(tuned.pacing).toEqual({ perSecond: 0.5, inFlight: 2 });
  });

  it('sends the User-Agent it was built with to the configured endpoint', async () => {
    const mock = await startMockUpstream(() => ({ body: fixture('duckduckgo', 'search.html') }));
    try {
      const built = duckduckgoProvider.build(configOf({ SCOUT_DUCKDUCKGO_URL: `${mock.url}/html/` }), {
        userAgent: 'Scout/0.1 (self-hosted search gateway; contact: ops@example.org)',
      });
      expect(await built.search(query({ maxResults: 2 }), noAbort())).toHaveLength(2);
      const req = defined(mock.requests[0], 'a request upstream');
      expect(req.url).toBe('/html/');
      expect(req.headers['user-agent']).toBe('Scout/0.1 (self-hosted search gateway; contact: ops@example.org)');
    } finally {
      await mock.close();
    }
  });
});
