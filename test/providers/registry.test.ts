import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createBraveProvider } from '../../src/providers/brave.ts';
import { createMarginaliaProvider } from '../../src/providers/marginalia.ts';
import type { SearchProvider } from '../../src/providers/provider.ts';
import { createSearchBackend, type SearchBackendOptions } from '../../src/providers/registry.ts';
import { createMemoryResultCache } from '../../src/store/memory/memory-result-cache.ts';
import type { BackendLogger } from '../../src/search/search-backend.ts';
import { createSearxngProvider } from '../../src/providers/searxng.ts';
import { createSerperProvider } from '../../src/providers/serper.ts';
import { createTavilyProvider } from '../../src/providers/tavily.ts';
import { NOW, fixture, query, startMockUpstream, type MockReply, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

/** Failover, errors, fusion, filters and cache, with real adapters against loopback mocks. */

const KEY = 'brave-secret-key-0001';
const mocks: Record<string, MockUpstream> = {};
const OK: Record<string, () => MockReply> = {
  brave: () => ({ body: fixture('brave', 'search.json') }),
  searxng: () => ({ body: fixture('searxng', 'search.json') }),
  serper: () => ({ body: fixture('serper', 'search.json') }),
  tavily: () => ({ body: fixture('tavily', 'search.json') }),
  marginalia: () => ({ body: fixture('marginalia', 'search.json') }),
};

beforeAll(async () => {
  for (const name of Object.keys(OK)) mocks[name] = await startMockUpstream(OK[name]);
});
afterAll(async () => {
  for (const m of Object.values(mocks)) await m.close();
});
beforeEach(() => {
  for (const [name, m] of Object.entries(mocks)) {
    m.reply = defined(OK[name], `the reply of ${name}`);
    m.requests.length = 0;
  }
});

const now = () => NOW;
const brave = () => createBraveProvider({ url: `${mocks.brave!.url}/search`, apiKey: KEY, now });
const searxng = () => createSearxngProvider({ url: `${mocks.searxng!.url}/search`, now });
const serper = () => createSerperProvider({ url: `${mocks.serper!.url}/search`, apiKey: 'serper-key-1', now });
const tavily = () => createTavilyProvider({ url: `${mocks.tavily!.url}/search`, apiKey: 'tvly-key-1', now });
const marginalia = () => createMarginaliaProvider({ url: `${mocks.marginalia!.url}/search`, apiKey: 'public' });

function logger() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const log: BackendLogger = {
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
  };
  return { log, lines };
}

// The loopback mocks answer in milliseconds; a provider limit of 300 ms was missed with both
// cores busy (issue 24). 2 s is far above that, and what a hung mock costs a test.
const PROVIDER_TIMEOUT_MS = 2000;
const fast: SearchBackendOptions = { providerTimeoutMs: PROVIDER_TIMEOUT_MS, cacheTtlMs: 0 };

async function upstreamError(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DomainError);
  expect((e as DomainError).kind).toBe('upstream');
  return e as DomainError;
}

describe('failover', () => {
  it('first provider fails (HTTP 500) → the second answers, and only the logs say so', async () => {
    mocks.brave!.reply = () => ({ status: 500, body: '{"error":"boom"}' });
    const { log, lines } = logger();
    const answer = await createSearchBackend([brave(), searxng()], { ...fast, logger: log }).search(query());
    expect(answer.providers).toEqual(['searxng']);
    expect(answer.results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://docs.rs/tokio/latest/tokio/',
      'https://news.example.org/2025/01/async-rust',
    ]);
    expect(Object.keys(answer).sort()).toEqual(['cached', 'providers', 'results']);
    expect(lines.find((l) => l.msg === 'search provider failed')?.obj).toMatchObject({
      provider: 'brave',
      failure: 'http',
      status: 500,
      reason: 'HTTP 500',
    });
    expect(lines.some((l) => l.msg === 'search answered after failover')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it('a provider that does not answer in time is skipped', async () => {
    mocks.brave!.reply = () => ({ hang: true });
    const answer = await createSearchBackend([brave(), searxng()], fast).search(query());
    expect(answer.providers).toEqual(['searxng']);
  });

  it('every provider failed → 502 listing each provider and why', async () => {
    mocks.brave!.reply = () => ({ hang: true });
    mocks.searxng!.reply = () => ({ status: 500, body: fixture('searxng', 'error-500.html') });
    mocks.serper!.reply = () => ({ body: '{"organic": [' });
    const e = await upstreamError(createSearchBackend([brave(), searxng(), serper()], fast).search(query()));
    expect(e.message).toBe(
      'every search provider failed, try again later: brave: timeout after 2000 ms; searxng: HTTP 500; serper: malformed response (not JSON)',
    );
    expect(e.message).not.toContain(KEY);
  });

  it('the overall deadline bounds the whole search', async () => {
    mocks.brave!.reply = () => ({ hang: true });
    mocks.searxng!.reply = () => ({ hang: true });
    const backend = createSearchBackend([brave(), searxng(), serper()], {
      providerTimeoutMs: 250,
      deadlineMs: 400,
      cacheTtlMs: 0,
    });
    const e = await upstreamError(backend.search(query()));
    expect(e.message).toMatch(
      /^every search provider failed, try again later: brave: timeout after 250 ms; searxng: timeout after \d+ ms \(search deadline\); serper: not tried \(search deadline of 400 ms reached\)$/,
    );
    expect(mocks.serper!.requests).toHaveLength(0);
  });

  it('a caller that goes away stops the search without counting against the provider', async () => {
    mocks.brave!.reply = () => ({ hang: true });
    const backend = createSearchBackend([brave(), searxng()], { providerTimeoutMs: 5000, cacheTtlMs: 0 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const e = await upstreamError(backend.search(query(), ac.signal));
    expect(e.message).toBe('the search was cancelled by the client');
    expect(mocks.searxng!.requests).toHaveLength(0);
    expect(backend.status()[0]).toEqual({ name: 'brave', state: 'closed', consecutiveFailures: 0 });
  });

  it('returns at most max_results, deduplicated, with cleaned URLs', async () => {
    const answer = await createSearchBackend([brave()], fast).search(query({ maxResults: 10 }));
    // The fixture's 4th result is www.tokio.rs/, the same page as the 1st (utm_* removed).
    expect(answer.results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://async.rs/',
      'https://rust-lang.github.io/async-book/',
    ]);
    const two = await createSearchBackend([brave()], fast).search(query({ maxResults: 2 }));
    expect(two.results).toHaveLength(2);
  });
});

describe('filters across providers', () => {
  it('a provider without native domain filters is over-fetched and filtered by Scout', async () => {
    const answer = await createSearchBackend([marginalia()], fast).search(
      query({ maxResults: 5, includeDomains: ['tokio.rs'] }),
    );
    expect(
      new URL(defined(mocks.marginalia!.requests[0], 'a request to Marginalia').url, 'http://x').searchParams.get(
        'count',
      ),
    ).toBe('15');
    expect(answer.results.map((r) => r.url)).toEqual(['https://tokio.rs/']);
  });

  it('a provider with native domain filters gets them and Scout still checks', async () => {
    const answer = await createSearchBackend([tavily()], fast).search(
      query({ maxResults: 5, excludeDomains: ['example.com'] }),
    );
    expect(JSON.parse(defined(mocks.tavily!.requests[0], 'a request to Tavily').body)).toMatchObject({
      max_results: 5,
      exclude_domains: ['example.com'],
    });
    // The fixture ignores the filter on purpose: blog.example.com must still go.
    expect(answer.results.map((r) => r.url)).toEqual(['https://tokio.rs/', 'https://news.example.net/rust-async']);
  });

  it('date filters: undated results survive only where the provider filtered dates', async () => {
    const window = query({ startDate: '2024-01-01', endDate: '2024-12-31' });
    const fromBrave = await createSearchBackend([brave()], fast).search(window);
    expect(fromBrave.results.map((r) => r.url)).toEqual(['https://tokio.rs/']);
    const fromSearxng = await createSearchBackend([searxng()], fast).search(window);
    expect(fromSearxng.results.map((r) => r.url)).toEqual(['https://tokio.rs/']);
    const fromMarginalia = await createSearchBackend([marginalia()], fast).search(window);
    expect(fromMarginalia.results).toEqual([]);
  });

  it('the same filters give the same guarantees whichever provider answers', async () => {
    const q = query({ includeDomains: ['tokio.rs'], excludeDomains: ['docs.rs'] });
    for (const make of [brave, searxng, serper, tavily, marginalia]) {
      const answer = await createSearchBackend([make()], fast).search(q);
      expect(answer.results.length).toBeGreaterThan(0);
      for (const r of answer.results) expect(new URL(r.url).hostname.endsWith('tokio.rs')).toBe(true);
    }
  });
});

describe('fusion', () => {
  it('queries every provider in parallel and merges the lists by reciprocal rank', async () => {
    const answer = await createSearchBackend([brave(), serper()], { ...fast, mode: 'fusion' }).search(query());
    expect(answer.providers).toEqual(['brave', 'serper']);
    const urls = answer.results.map((r) => r.url);
    // tokio.rs is first in both lists: one entry, first place, with Brave's favicon.
    expect(urls[0]).toBe('https://tokio.rs/');
    expect(urls.filter((u) => u === 'https://tokio.rs/')).toHaveLength(1);
    expect(answer.results[0]?.favicon).toBe('https://imgs.search.brave.com/meta-tokio/favicon.ico');
    expect(new Set(urls)).toEqual(
      new Set([
        'https://tokio.rs/',
        'https://async.rs/',
        'https://blog.example.com/async-rust-2025',
        'https://rust-lang.github.io/async-book/',
        'https://tokio.rs/blog/2025-01-tokio-1-43',
      ]),
    );
  });

  it('answers with the providers that answered when some fail, 502 when none does', async () => {
    mocks.serper!.reply = () => ({ status: 429, body: fixture('serper', 'error-429.json') });
    const backend = createSearchBackend([brave(), serper()], { ...fast, mode: 'fusion' });
    expect((await backend.search(query())).providers).toEqual(['brave']);
    mocks.brave!.reply = () => ({ status: 401, body: fixture('brave', 'error-401.json') });
    const e = await upstreamError(backend.search(query()));
    expect(e.message).toBe(
      'every search provider failed, try again later: brave: HTTP 401 (API key refused); serper: HTTP 429',
    );
  });
});

describe('result cache', () => {
  it('serves a repeated search without calling the provider again, until the TTL passes', async () => {
    let t = 1_000;
    const backend = createSearchBackend([brave()], { cacheTtlMs: 300_000, now: () => t });
    const first = await backend.search(query({ query: 'Rust  async runtime' }));
    const again = await backend.search(query({ query: 'rust async RUNTIME ' }));
    expect(first.cached).toBe(false);
    expect(again.cached).toBe(true);
    expect(again.results).toEqual(first.results);
    expect(again.providers).toEqual(['brave']);
    expect(mocks.brave!.requests).toHaveLength(1);
    await backend.search(query({ maxResults: 3 }));
    expect(mocks.brave!.requests).toHaveLength(2);
    t += 300_001;
    expect((await backend.search(query())).cached).toBe(false);
    expect(mocks.brave!.requests).toHaveLength(3);
  });

  // The local index's answers change with writes from anywhere: its revision keys the
  // cache, so a fused answer holding local results is never served after a write.
  it('keys answers by the revisions of providers that have one (fusion with a local index)', async () => {
    let revision = 'r1';
    let title = 'Old title';
    const local: SearchProvider = {
      name: 'local',
      honours: new Set(['domains', 'dates', 'country'] as const),
      uniqueUrls: true,
      revision: () => revision,
      search: async () => [{ title, url: 'https://local.test/a', content: 'quillwort', score: 1 }],
    };
    const backend = createSearchBackend([local, brave()], { mode: 'fusion', cacheTtlMs: 300_000 });
    const titles = async () => (await backend.search(query())).results.map((r) => r.title);
    expect(await titles()).toContain('Old title');
    expect((await backend.search(query())).cached).toBe(true);
    title = 'New title';
    revision = 'r2';
    expect(await titles()).toContain('New title');
    expect(mocks.brave!.requests).toHaveLength(2);
    expect((await backend.search(query())).cached).toBe(true);
  });

  it('uses the cache it is given (a shared one) instead of its own', async () => {
    const cache = createMemoryResultCache({ ttlMs: 60_000, max: 10 });
    const first = await createSearchBackend([brave()], { cache }).search(query());
    const other = await createSearchBackend([brave()], { cache }).search(query());
    expect(other).toEqual({ ...first, cached: true });
    expect(mocks.brave!.requests).toHaveLength(1);
  });

  it('does not cache failures', async () => {
    mocks.brave!.reply = () => ({ status: 503, body: '' });
    const backend = createSearchBackend([brave()], { providerTimeoutMs: PROVIDER_TIMEOUT_MS });
    await upstreamError(backend.search(query()));
    mocks.brave!.reply = OK.brave!;
    expect((await backend.search(query())).providers).toEqual(['brave']);
  });
});
