import { loadScoutConfig } from '../../src/scout-settings.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMojeekProvider, mojeekParams, mojeekProvider, parseMojeekPage } from '../../src/providers/mojeek.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import type { ValuesOf } from '../../src/config/setting.ts';
import { fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

/**
 * The Mojeek adapter against pages shaped like www.mojeek.com/search (as of 2025, from its
 * public result page and SearXNG's mojeek engine), served on loopback:
 * - search.html: the result page for q=rust async runtime: header, search form and tabs, the
 *   count in div.top-info, ten results in ul.results-standard, pagination, sidebar, footer;
 * - no-results.html: the page for a query nothing matches ("No pages found matching:");
 * - blocked.html: the refusal ("Sorry your network appears to be sending automated queries"),
 *   sent with HTTP 403;
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

describe('mojeek adapter', () => {
  let mock: MockUpstream;
  const page = (file: string, status = 200) => {
    mock.reply = () => ({ status, body: fixture('mojeek', file) });
  };
  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(() => mock.close());

  const provider = () => createMojeekProvider({ url: `${mock.url}/search`, pacing: PACING, userAgent: 'test-agent' });

  it('GETs the result page with the query and the date window', async () => {
    page('search.html');
    mock.requests.length = 0;
    await provider().search(query({ startDate: '2024-12-01', endDate: '2024-12-31', country: 'DE' }), noAbort());
    await provider().search(query(), noAbort());
    const [first, second] = mock.requests;
    const req = defined(first, 'a request upstream');
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/search?')).toBe(true);
    expect(req.headers['user-agent']).toBe('test-agent');
    expect(req.headers.accept).toMatch(/^text\/html/);
    expect(req.body).toBe('');
    // `before` excludes its day, so the inclusive end_date is sent as the day after it; the
    // country is not sent (see mojeek.ts).
    expect(Object.fromEntries(new URL(req.url, mock.url).searchParams)).toEqual({
      q: 'rust async runtime',
      since: '20241201',
      before: '20250101',
    });
    const plain = defined(second, 'a second request');
    expect(Object.fromEntries(new URL(plain.url, mock.url).searchParams)).toEqual({ q: 'rust async runtime' });
  });

  it('reads the ten results in page order: titles, URLs and plain snippets', async () => {
    page('search.html');
    const results = await provider().search(query(), noAbort());
    expect(results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://async.rs/',
      'https://rust-lang.github.io/async-book/',
      'https://docs.rs/smol/latest/smol/',
      'https://without.boats/blog/why-async-rust/',
      // &amp; in the href is the URL's own &.
      'https://users.rust-lang.org/t/which-async-runtime-should-i-use/98765?u=alice&page=2',
      'https://kerkour.com/rust-async-await-what-is-a-runtime',
      'https://github.com/bastion-rs/bastion',
      'https://os.phil-opp.com/async-await/',
      'https://www.datadoghq.com/blog/engineering/introducing-glommio/',
    ]);
    expect(results[0]).toEqual({
      title: 'Tokio - An asynchronous Rust runtime',
      url: 'https://tokio.rs/',
      content:
        'Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.',
    });
    // Entities decoded, <strong> highlights gone, line breaks and runs of spaces folded.
    expect(results[2]?.content).toBe(
      "This book aims to be a comprehensive, up-to-date guide to using Rust's async language features and libraries.",
    );
    expect(results[1]?.content).toContain('Rust standard library & its ecosystem');
    expect(results[4]?.content).toContain('"This is going to open the flood gates."');
    expect(results[9]?.title).toBe('Glommio: a thread-per-core crate for Rust & Linux');
  });

  it('trims to the count asked for, and never returns more than the one page holds', async () => {
    page('search.html');
    const two = await provider().search(query({ maxResults: 2 }), noAbort());
    expect(two.map((r) => r.title)).toEqual(['Tokio - An asynchronous Rust runtime', 'async-std']);
    expect(await provider().search(query({ maxResults: 50 }), noAbort())).toHaveLength(10);
  });

  it('reports its refusal page as blocked even when it comes with a 200', async () => {
    page('blocked.html');
    const e = await failureOf(provider().search(query(), noAbort()));
    expect(e.failure).toBe('blocked');
    expect(e.message).toBe('blocked (Mojeek says the network is sending automated queries)');
  });

  it.each([403, 429])('reports HTTP %i as blocked', async (status) => {
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
    expect(e.detail).toBe('page title: rust async runtime - Mojeek Search');
  });

  it('takes the URL from the title link when a.ob is missing, and skips items without a title link', () => {
    const html = `<html><body><ul class="results-standard">
      <li class="r1"><h2><a class="title" href="https://example.org/a">A</a></h2><p class="s">first</p></li>
      <li class="r2"><a class="ob" href="https://example.org/b"><p class="i">example.org</p></a><p class="s">no title</p></li>
      <li class="r3"><a class="ob" href="/relative"><p class="i">mojeek</p></a><h2><a href="/relative">R</a></h2></li>
    </ul></body></html>`;
    expect(parseMojeekPage(html)).toEqual([
      { title: 'A', url: 'https://example.org/a', content: 'first' },
      { title: 'R', url: 'https://www.mojeek.com/relative', content: '' },
    ]);
  });

  it('does not read a result about automated queries as a block', () => {
    const html = `<html><body><ul class="results-standard">
      <li><a class="ob" href="https://example.org/bots"></a><h2><a href="https://example.org/bots">Bots</a></h2>
      <p class="s">Why is my network sending automated queries? A CAPTCHA explainer.</p></li>
    </ul></body></html>`;
    expect(parseMojeekPage(html)).toHaveLength(1);
  });
});

describe('mojeek parameters', () => {
  it('sends a start_date alone as since, an end_date alone as before', () => {
    expect(mojeekParams(query({ startDate: '2024-02-28' }))).toEqual({
      q: 'rust async runtime',
      since: '20240228',
      before: undefined,
    });
    // The day after the last day of a leap February.
    expect(mojeekParams(query({ endDate: '2024-02-29' })).before).toBe('20240301');
  });
});

describe('the mojeek descriptor', () => {
  type Config = ValuesOf<typeof mojeekProvider.settings>;
  // Its settings as Scout parses them (the descriptor is registered: they are in the table).
  const configOf = (env: Record<string, string> = {}): Config => loadScoutConfig(env);

  it('declares a keyless provider with its settings, filters and page size', () => {
    expect(mojeekProvider.name).toBe('mojeek');
    expect(Object.values(mojeekProvider.settings).map((s) => s.env)).toEqual([
      'SCOUT_MOJEEK_URL',
      'SCOUT_MOJEEK_RATE',
      'SCOUT_MOJEEK_IN_FLIGHT',
    ]);
    expect(mojeekProvider.requires).toBeUndefined();
    expect([...mojeekProvider.honours]).toEqual(['dates']);
    expect(mojeekProvider.maxResults).toBe(10);
    expect(configOf().mojeekUrl).toBe('https://www.mojeek.com/search');
  });

  it('builds a provider paced by its settings: 1 search per second, 1 at a time unless set', () => {
    const built = mojeekProvider.build(configOf(), {});
    expect(built.name).toBe('mojeek');
    expect(built.pacing).toEqual({ perSecond: 1, inFlight: 1 });
    expect(built.honours).toEqual(mojeekProvider.honours);
    const tuned = mojeekProvider.build(configOf({ SCOUT_MOJEEK_RATE: '0.25', SCOUT_MOJEEK_IN_FLIGHT: '3' }), {});
    expect(tuned.pacing).toEqual({ perSecond: 0.25, inFlight: 3 });
  });

  it('sends the User-Agent it was built with to the configured endpoint', async () => {
    const mock = await startMockUpstream(() => ({ body: fixture('mojeek', 'search.html') }));
    try {
      const built = mojeekProvider.build(configOf({ SCOUT_MOJEEK_URL: `${mock.url}/search` }), {
        userAgent: 'Scout/0.1 (self-hosted search gateway; contact: ops@example.org)',
      });
      expect(await built.search(query({ maxResults: 1 }), noAbort())).toHaveLength(1);
      const req = defined(mock.requests[0], 'a request upstream');
      expect(req.url).toBe('/search?q=rust+async+runtime');
      expect(req.headers['user-agent']).toBe('Scout/0.1 (self-hosted search gateway; contact: ops@example.org)');
    } finally {
      await mock.close();
    }
  });
});
