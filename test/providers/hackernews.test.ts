import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import {
  createHackerNewsProvider,
  hackerNewsParams,
  hackerNewsProvider,
  parseHackerNewsResponse,
} from '../../src/providers/hackernews.ts';
import { ProviderError } from '../../src/providers/provider.ts';
import { scoutSettings } from '../../src/scout-settings.ts';
import { NOW, fixture, noAbort, query, startMockUpstream, type MockUpstream } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

/**
 * Fixtures model the JSON of Algolia's Hacker News Search API as hn.algolia.com answers
 * GET /api/v1/search?query=rust+async+runtime&tags=story, as of 2025 (hn.algolia.com/api):
 * - search.json: a story linking to an article (312 points, 85 comments), an Ask HN with
 *   `url: null` and an HTML `story_text` (entities, <p>, <i>, a link), and an old story
 *   with null points and comments, only `created_at_i` and a title with runs of spaces;
 *   each hit with the `_highlightResult` and `_tags` Algolia adds;
 * - empty.json: no hit;
 * - error-400.json, error-403.json, error-429.json: Algolia's `{"message","status"}` errors.
 */

const UA = 'Scout/9.9 (self-hosted search gateway; contact: ops@example.org)';

describe('hackernews adapter', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream(() => ({ body: fixture('hackernews', 'search.json') }));
  });
  afterAll(() => mock.close());

  const provider = () => createHackerNewsProvider({ url: `${mock.url}/api/v1/search`, userAgent: UA, now: () => NOW });
  const serve = (file: string, status = 200) => {
    mock.reply = () => ({ status, body: fixture('hackernews', file) });
  };

  it('GETs stories with the query and hitsPerPage, and the User-Agent', async () => {
    serve('search.json');
    mock.requests.length = 0;
    await provider().search(query({ maxResults: 8 }), noAbort());
    const req = defined(mock.requests[0], 'a request upstream');
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/api/v1/search?')).toBe(true);
    expect(req.headers['user-agent']).toBe(UA);
    expect(Object.fromEntries(new URL(req.url, mock.url).searchParams)).toEqual({
      query: 'rust async runtime',
      tags: 'story',
      hitsPerPage: '8',
    });
  });

  it('sends the date window as numericFilters on created_at_i, the end day included', async () => {
    serve('empty.json');
    mock.requests.length = 0;
    const p = provider();
    await p.search(query({ startDate: '2024-01-01', endDate: '2024-01-31' }), noAbort());
    const params = new URL(defined(mock.requests[0], 'a request upstream').url, mock.url).searchParams;
    expect(params.get('numericFilters')).toBe('created_at_i>=1704067200,created_at_i<1706745600');
    expect([...p.honours]).toEqual(['dates']);

    expect(hackerNewsParams(query({ endDate: '2024-01-31' }), NOW).numericFilters).toBe('created_at_i<1706745600');
    // Freshness alone (start not resolved by the caller) counts back from the clock.
    expect(hackerNewsParams(query({ freshness: 'day' }), NOW).numericFilters).toBe(
      `created_at_i>=${Date.parse('2025-01-07T00:00:00Z') / 1000}`,
    );
    expect(hackerNewsParams(query(), NOW).numericFilters).toBeUndefined();
    expect(hackerNewsParams(query({ maxResults: 400 }), NOW).hitsPerPage).toBe(100);
  });

  it('reads stories: article links, HN links for Ask HN, story text as plain text, else points and comments', async () => {
    serve('search.json');
    const results = await provider().search(query(), noAbort());
    expect(results).toEqual([
      {
        title: 'Choosing a Rust async runtime',
        url: 'https://example.dev/rust-async-runtimes',
        content:
          '312 points and 85 comments on Hacker News (discussion: https://news.ycombinator.com/item?id=38877000)',
        publishedDate: '2024-01-05T14:03:11Z',
      },
      {
        title: 'Ask HN: Which async runtime do you use in production?',
        url: 'https://news.ycombinator.com/item?id=39000111',
        content:
          "We run a large async service on tokio & it's fine. Has anyone moved to smol or glommio? See https://example.org/bench",
        publishedDate: '2024-01-15T09:30:00Z',
      },
      {
        title: 'Async I/O',
        url: 'http://example.com/async-io',
        content: '0 points and 0 comments on Hacker News (discussion: https://news.ycombinator.com/item?id=101)',
        publishedDate: '2006-10-09T18:21:51Z',
      },
    ]);
  });

  it('keeps the start of a long story text', () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const [r] = parseHackerNewsResponse(
      { hits: [{ objectID: '5', title: 'Ask HN: long', url: null, story_text: long, created_at_i: 1 }] },
      NOW,
    );
    const content = defined(r, 'a result').content;
    expect(content.length).toBeLessThanOrEqual(401);
    expect(content.endsWith('…')).toBe(true);
    expect(long.startsWith(content.slice(0, -1))).toBe(true);
  });

  it('skips hits without an id or a title, and says 1 point, 1 comment', () => {
    const results = parseHackerNewsResponse(
      {
        hits: [
          { objectID: '7', title: 'Kept', url: 'https://a.example/', points: 1, num_comments: 1 },
          { title: 'No id', url: 'https://b.example/' },
          { objectID: '8', title: '', url: 'https://c.example/' },
          { objectID: '9', title: null, comment_text: 'a comment, not a story' },
        ],
      },
      NOW,
    );
    expect(results).toEqual([
      {
        title: 'Kept',
        url: 'https://a.example/',
        content: '1 point and 1 comment on Hacker News (discussion: https://news.ycombinator.com/item?id=7)',
      },
    ]);
  });

  it('trims to maxResults and answers [] when nothing matched', async () => {
    serve('search.json');
    expect((await provider().search(query({ maxResults: 2 }), noAbort())).map((r) => r.url)).toEqual([
      'https://example.dev/rust-async-runtimes',
      'https://news.ycombinator.com/item?id=39000111',
    ]);
    serve('empty.json');
    expect(await provider().search(query(), noAbort())).toEqual([]);
  });

  it('calls an answer without a hit list malformed', async () => {
    expect(() => parseHackerNewsResponse({ nbHits: 0 }, NOW)).toThrow('malformed response (hits is not a list)');
    mock.reply = () => ({ body: { message: 'odd', hits: {} } });
    await expect(provider().search(query(), noAbort())).rejects.toMatchObject({ failure: 'malformed' });
  });

  it.each([
    ['error-400.json', 400, 'http', 'HTTP 400'],
    ['error-403.json', 403, 'blocked', 'HTTP 403 (the engine refused automated queries)'],
    ['error-429.json', 429, 'rate_limited', 'HTTP 429'],
  ])('reports %s as %s', async (file, status, failure, message) => {
    serve(file, status);
    const err = await provider()
      .search(query(), noAbort())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ provider: 'hackernews', failure, status, message });
  });
});

describe('the hackernews descriptor', () => {
  const load = (env: Record<string, string>) =>
    loadConfig(env, { ...scoutSettings, ...hackerNewsProvider.settings }) as unknown as Record<string, unknown>;

  it('declares its settings with their defaults, no requirement, native dates and 100 results at most', () => {
    expect(Object.values(hackerNewsProvider.settings).map((s) => [s.env, s.default])).toEqual([
      ['SCOUT_HACKERNEWS_URL', 'https://hn.algolia.com/api/v1/search'],
      ['SCOUT_HACKERNEWS_RATE', '2'],
      ['SCOUT_HACKERNEWS_IN_FLIGHT', '2'],
    ]);
    expect(hackerNewsProvider.requires).toBeUndefined();
    expect([...hackerNewsProvider.honours]).toEqual(['dates']);
    expect(hackerNewsProvider.maxResults).toBe(100);
  });

  it('builds a paced provider on the configured URL', async () => {
    expect(hackerNewsProvider.build(load({}) as never, {}).pacing).toEqual({ perSecond: 2, inFlight: 2 });
    const mock = await startMockUpstream(() => ({ body: fixture('hackernews', 'search.json') }));
    try {
      const built = hackerNewsProvider.build(
        load({
          SCOUT_HACKERNEWS_URL: `${mock.url}/api/v1/search`,
          SCOUT_HACKERNEWS_RATE: '1.5',
          SCOUT_HACKERNEWS_IN_FLIGHT: '4',
        }) as never,
        { userAgent: UA },
      );
      expect(built.name).toBe('hackernews');
      expect(built.pacing).toEqual({ perSecond: 1.5, inFlight: 4 });
      expect(await built.search(query({ maxResults: 1 }), noAbort())).toHaveLength(1);
      expect(defined(mock.requests[0], 'a request upstream').headers['user-agent']).toBe(UA);
    } finally {
      await mock.close();
    }
  });
});
