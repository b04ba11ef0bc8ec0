import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadScoutConfig } from '../../src/scout-settings.ts';
import { domainAllowed } from '../../src/domain/domains.ts';
import { TITLE_WEIGHT } from '../../src/index/search-statements.ts';
import { SNIPPET_MAX_CHARS } from '../../src/index/snippet.ts';
import { attempt } from '../../src/providers/attempt.ts';
import { domainAncestors } from '../../src/providers/opensearch/bulk-document.ts';
import { openSearchConnection, type OpenSearchConnection } from '../../src/providers/opensearch/connection.ts';
import { createOpenSearchProvider } from '../../src/providers/opensearch/opensearch-provider.ts';
import { parseSearchResponse } from '../../src/providers/opensearch/search-response.ts';
import { ProviderError, type SearchProvider } from '../../src/providers/provider.ts';
import { createSearchBackend } from '../../src/providers/registry.ts';
import { defined } from '../helpers/defined.ts';
import { deadNodeUrl, startFakeNode, type FakeNode, type Reply } from './opensearch-fixture.ts';
import { NOW, fixture, jsonFixture, noAbort, query } from './mock-upstream.ts';

const OS = 'opensearch';

const connection = (nodes: string[], env: Record<string, string> = {}): OpenSearchConnection =>
  openSearchConnection(loadScoutConfig({ SCOUT_OPENSEARCH_URL: nodes.join(','), ...env }), 'test');

const provider = (nodes: string[], env: Record<string, string> = {}): SearchProvider =>
  createOpenSearchProvider(connection(nodes, env), { now: () => NOW });

/** The body of the last _search a node received. */
const lastSearch = (node: FakeNode): Record<string, unknown> => {
  const searches = node.requests.filter((r) => r.path === '/scout-pages/_search');
  return JSON.parse(defined(searches.at(-1), 'a _search request').body) as Record<string, unknown>;
};

const failure = async (p: SearchProvider): Promise<ProviderError> => {
  const e = await p.search(query(), noAbort()).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProviderError);
  return e as ProviderError;
};

const HIGHLIGHT = {
  fields: {
    content: {
      type: 'unified',
      fragment_size: SNIPPET_MAX_CHARS,
      number_of_fragments: 1,
      no_match_size: SNIPPET_MAX_CHARS,
      pre_tags: [''],
      post_tags: [''],
    },
  },
};

describe('opensearch provider: the _search request', () => {
  let node: FakeNode;
  beforeAll(async () => {
    node = await startFakeNode();
  });
  afterAll(() => node.close());

  it('posts a BM25 query with the title weighted as in the local index and every filter in bool.filter / must_not', async () => {
    await provider([node.url], { SCOUT_OPENSEARCH_USERNAME: 'scout', SCOUT_OPENSEARCH_PASSWORD: 'pw-1234' }).search(
      query({
        maxResults: 5,
        // Entries the caller did not normalise are normalised as the local index does (sorted, deduplicated).
        includeDomains: ['tokio.rs', 'https://www.Docs.RS/path', 'docs.rs'],
        excludeDomains: ['ads.tokio.rs'],
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        country: 'de',
      }),
      noAbort(),
    );
    const req = defined(node.requests.at(-1), 'a request');
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/scout-pages/_search');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('scout:pw-1234').toString('base64')}`);
    expect(JSON.parse(req.body)).toEqual({
      from: 0,
      size: 5,
      track_total_hits: false,
      _source: ['url', 'title', 'domain', 'published_date'],
      query: {
        bool: {
          must: [
            {
              multi_match: {
                query: 'rust async runtime',
                type: 'most_fields',
                fields: [`title^${TITLE_WEIGHT}`, 'content'],
                operator: 'or',
              },
            },
          ],
          filter: [
            { terms: { domain_ancestors: ['docs.rs', 'tokio.rs'] } },
            { range: { published_date: { format: 'strict_date', gte: '2024-01-01', lte: '2024-12-31||/d' } } },
            {
              bool: {
                should: [{ term: { country: 'DE' } }, { bool: { must_not: [{ exists: { field: 'country' } }] } }],
                minimum_should_match: 1,
              },
            },
          ],
          must_not: [{ terms: { domain_ancestors: ['ads.tokio.rs'] } }],
        },
      },
      highlight: HIGHLIGHT,
    });
  });

  it('turns freshness into a start day as the local index does, and sends no filter when there is none', async () => {
    await provider([node.url]).search(query({ freshness: 'week' }), noAbort());
    expect((lastSearch(node).query as { bool: unknown }).bool).toEqual({
      must: [
        {
          multi_match: {
            query: 'rust async runtime',
            type: 'most_fields',
            fields: [`title^${TITLE_WEIGHT}`, 'content'],
            operator: 'or',
          },
        },
      ],
      filter: [{ range: { published_date: { format: 'strict_date', gte: '2025-01-01' } } }],
    });
    await provider([node.url]).search(query({ endDate: '2024-06-30' }), noAbort());
    expect((lastSearch(node).query as { bool: { filter: unknown } }).bool.filter).toEqual([
      { range: { published_date: { format: 'strict_date', lte: '2024-06-30||/d' } } },
    ]);
    await provider([node.url]).search(query(), noAbort());
    expect(Object.keys((lastSearch(node).query as { bool: object }).bool)).toEqual(['must']);
  });

  it('asks for the whole content only for advanced searches, and clamps the size', async () => {
    await provider([node.url]).search(query({ depth: 'advanced', maxResults: 90 }), noAbort());
    expect(lastSearch(node)).toMatchObject({
      _source: ['url', 'title', 'domain', 'published_date', 'content'],
      size: 50,
    });
  });

  it('sends an Elasticsearch API key as Authorization: ApiKey', async () => {
    await provider([node.url], {
      SCOUT_OPENSEARCH_API_KEY: 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==',
    }).search(query(), noAbort());
    expect(node.requests.at(-1)?.headers.authorization).toBe(
      'ApiKey VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==',
    );
  });
});

describe('opensearch provider: domain filters mean what the local index means', () => {
  /** What `terms` on domain_ancestors in filter / must_not admits. */
  const admitted = (host: string, include: string[], exclude: string[]): boolean => {
    const ancestors = new Set(domainAncestors(host));
    return (include.length === 0 || include.some((d) => ancestors.has(d))) && !exclude.some((d) => ancestors.has(d));
  };
  const hosts = [
    'example.com',
    'docs.example.com',
    'a.b.example.com',
    'notexample.com',
    'example.com.au',
    'localhost',
    '127.0.0.2',
    'xn--bcher-kva.de',
  ];
  const filters: [string[], string[]][] = [
    [['example.com'], []],
    [['example.com'], ['docs.example.com']],
    [[], ['example.com']],
    [['com'], ['b.example.com']],
    [['example.com.au', 'localhost'], []],
    [['0.2'], []],
    [['xn--bcher-kva.de'], ['example.com']],
  ];
  it.each(filters)('include %j exclude %j', (include, exclude) => {
    for (const host of hosts)
      expect(admitted(host, include, exclude), host).toBe(domainAllowed(host, include, exclude));
  });

  it('lists a host and each of its parent domains', () => {
    expect(domainAncestors('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com', 'com']);
    expect(domainAncestors('localhost')).toEqual(['localhost']);
  });
});

describe('opensearch provider: the _search answer', () => {
  let node: FakeNode;
  beforeAll(async () => {
    node = await startFakeNode();
  });
  afterAll(() => node.close());

  it('reads hits: snippets from the highlights, plain and on one line; dates normalised; BM25 score kept', async () => {
    const results = await provider([node.url]).search(query(), noAbort());
    expect(results).toEqual([
      {
        title: 'Tokio tutorial: an asynchronous Rust runtime',
        url: 'https://tokio.rs/tokio/tutorial',
        content:
          'Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.',
        publishedDate: '2024-11-12T09:31:28Z',
        score: 9.413251,
      },
      {
        title: 'async_std - Rust',
        url: 'https://docs.rs/async-std/latest/async_std/',
        // A cluster that put its default <em> tags in anyway: removed.
        content: 'Async version of the Rust standard library & its ecosystem, with an async runtime.',
        publishedDate: '2025-01-06',
        score: 6.27014,
      },
      // No highlight and no content asked for: no snippet rather than a guess; the hit without a url is skipped.
      { title: 'Comparing Rust runtimes', url: 'https://blog.example.org/rust-runtimes', content: '', score: 3.0517 },
    ]);
  });

  it('returns the stored text for advanced searches and falls back to its opening for the snippet', async () => {
    node.search = () => ({ body: fixture(OS, 'search-advanced.json'), contentType: 'application/json' });
    const [hit] = await provider([node.url]).search(query({ depth: 'advanced' }), noAbort());
    expect(hit).toEqual({
      title: 'Comparing Rust runtimes',
      url: 'https://blog.example.org/rust-runtimes',
      content:
        '# Comparing Rust runtimes Tokio, async-std and smol each schedule futures differently. This post measures them.',
      rawContent:
        '# Comparing Rust runtimes\n\nTokio, async-std and smol each schedule futures differently.\n\nThis post measures them.',
      publishedDate: '2024-06-30T22:15:00Z',
      score: 4.1,
    });
  });

  it('cuts a long fragment to the local snippet length at a word boundary', () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const hits = parseSearchResponse(
      {
        hits: {
          hits: [{ _score: 1, _source: { url: 'https://a.test/', title: 'A' }, highlight: { content: [long] } }],
        },
      },
      NOW,
      false,
    );
    const r = defined(hits[0], 'a hit');
    expect(r.content.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(r.content).toMatch(/^word0 word1 .* word\d+…$/);
  });

  it('skips hits whose url is not http(s): the URLs are passed on as they are', () => {
    const hit = (url: string) => ({ _score: 1, _source: { url, title: 'T' }, highlight: { content: ['x'] } });
    const urls = parseSearchResponse(
      { hits: { hits: [hit('javascript:alert(1)'), hit('ftp://files.test/a'), hit('HTTPS://a.test/b')] } },
      NOW,
      false,
    ).map((r) => r.url);
    expect(urls).toEqual(['HTTPS://a.test/b']);
  });

  it('treats an empty answer as no results and anything not shaped like one as malformed', async () => {
    node.search = () => ({ body: fixture(OS, 'search-empty.json'), contentType: 'application/json' });
    expect(await provider([node.url]).search(query(), noAbort())).toEqual([]);
    expect(() => parseSearchResponse({ took: 1 }, NOW, false)).toThrow('malformed response (no hits object)');
    expect(() => parseSearchResponse({ hits: { hits: {} } }, NOW, false)).toThrow(
      'malformed response (hits.hits is not a list)',
    );
    node.search = () => ({ body: fixture('brave', 'truncated.json'), contentType: 'application/json' });
    const e = await failure(provider([node.url]));
    expect([e.failure, e.message]).toEqual(['malformed', 'malformed response (not JSON)']);
  });

  it('declares that it applies every filter and keeps URLs as imported', () => {
    const p = provider([node.url]);
    expect([...p.honours].sort()).toEqual(['country', 'dates', 'domains']);
    expect(p.uniqueUrls).toBe(true);
  });
});

describe('opensearch provider: error answers', () => {
  let node: FakeNode;
  beforeAll(async () => {
    node = await startFakeNode();
  });
  afterEach(() => {
    node.override = () => undefined;
  });
  afterAll(() => node.close());

  const json = (file: string, status: number): Reply => ({ status, body: jsonFixture(OS, file) as object });

  it.each([
    [
      'index missing',
      json('error-404-index.json', 404),
      'http',
      'HTTP 404 (index_not_found_exception)',
      'index_not_found_exception: no such index [scout-pages]',
    ],
    [
      'all shards failed',
      json('error-400-search.json', 400),
      'http',
      'HTTP 400 (search_phase_execution_exception)',
      'search_phase_execution_exception: all shards failed',
    ],
    [
      'OpenSearch security plugin, no credentials',
      { status: 401, body: fixture(OS, 'error-401.txt') },
      'auth',
      'HTTP 401 (credentials refused)',
      'Unauthorized',
    ],
    [
      'Elasticsearch 8 security',
      json('error-401-es.json', 401),
      'auth',
      'HTTP 401 (security_exception)',
      'security_exception: unable to authenticate user [scout] for REST request [/scout-pages/_search]',
    ],
    [
      'no permission',
      json('error-403.json', 403),
      'auth',
      'HTTP 403 (security_exception)',
      /^security_exception: no permissions for \[indices:data\/read\/search\]/,
    ],
    [
      'search queue full',
      json('error-429.json', 429),
      'rate_limited',
      'HTTP 429 (rejected_execution_exception)',
      /^rejected_execution_exception: rejected execution of coordinating operation/,
    ],
    [
      'cluster not recovered (the only node)',
      json('error-503.json', 503),
      'http',
      'HTTP 503 (cluster_block_exception)',
      /^cluster_block_exception: blocked by: \[SERVICE_UNAVAILABLE/,
    ],
  ] as const)('%s → %s', async (_, reply, kind, message, detail) => {
    node.override = (r) => (r.path.endsWith('/_search') ? reply : undefined);
    const e = await failure(provider([node.url]));
    expect(e.provider).toBe('opensearch');
    expect(e.failure).toBe(kind);
    expect(e.status).toBe(reply.status);
    expect(e.message).toBe(message);
    expect(e.detail).toMatch(detail);
    expect(e.message).not.toContain('127.0.0.1');
  });

  it('keeps credentials out of messages and logged details', async () => {
    const key = 'es-api-key-that-must-not-leak';
    node.override = () => ({
      status: 401,
      body: { error: { type: 'security_exception', reason: `invalid api key [${key}]` }, status: 401 },
    });
    const e = await failure(provider([node.url], { SCOUT_OPENSEARCH_API_KEY: key }));
    expect(e.message).toBe('HTTP 401 (security_exception)');
    expect(e.detail).toBe('security_exception: invalid api key [[redacted]]');
  });

  it('a refused connection is a network failure; a hung node is a timeout under the registry limit', async () => {
    const e = await failure(provider([await deadNodeUrl()]));
    expect([e.failure, e.message]).toEqual(['network', 'network error (ECONNREFUSED)']);
    node.override = () => ({ hang: true });
    const started = performance.now();
    const t = await attempt(provider([node.url]), query(), 150, undefined).then(
      () => {
        throw new Error('expected a timeout');
      },
      (err: unknown) => err as ProviderError,
    );
    // The hung node never answers: only the 150 ms limit ends the call; allowed over 10x that.
    expect(performance.now() - started).toBeLessThan(2000);
    expect([t.failure, t.message]).toEqual(['timeout', 'timeout after 150 ms']);
  });
});

describe('opensearch provider: several nodes', () => {
  const nodes: FakeNode[] = [];
  const startTwo = async (): Promise<[FakeNode, FakeNode]> => {
    const started = await Promise.all([startFakeNode(), startFakeNode()]);
    nodes.push(...started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.close()));
  });
  const searches = (n: FakeNode): number => n.requests.filter((r) => r.path.endsWith('/_search')).length;

  it('rotates searches between the nodes', async () => {
    const [a, b] = await startTwo();
    const p = provider([a.url, b.url]);
    for (let i = 0; i < 4; i++) await p.search(query(), noAbort());
    expect([searches(a), searches(b)]).toEqual([2, 2]);
  });

  it('fails over past a node that is down or unavailable, and then asks the others first', async () => {
    const [unavailable, healthy] = await startTwo();
    unavailable.override = () => ({ status: 503, body: jsonFixture(OS, 'error-503.json') as object });
    const p = provider([await deadNodeUrl(), unavailable.url, healthy.url]);
    expect(await p.search(query(), noAbort())).toHaveLength(3);
    expect([searches(unavailable), searches(healthy)]).toEqual([1, 1]);
    // The two failed nodes are in their cool-down: the next searches go straight to the healthy one.
    await p.search(query(), noAbort());
    await p.search(query(), noAbort());
    expect([searches(unavailable), searches(healthy)]).toEqual([1, 3]);
  });

  it("does not fail over on the cluster's answer to the request itself (a 4xx)", async () => {
    const [a, b] = await startTwo();
    for (const n of [a, b])
      n.override = () => ({ status: 404, body: jsonFixture(OS, 'error-404-index.json') as object });
    const e = await failure(provider([a.url, b.url]));
    expect(e.message).toBe('HTTP 404 (index_not_found_exception)');
    expect(searches(a) + searches(b)).toBe(1);
  });

  it("reports the last node's answer when every node is unavailable", async () => {
    const [a, b] = await startTwo();
    for (const n of [a, b]) n.override = () => ({ status: 503, body: jsonFixture(OS, 'error-503.json') as object });
    const e = await failure(provider([a.url, b.url]));
    expect([e.failure, e.message]).toEqual(['http', 'HTTP 503 (cluster_block_exception)']);
    expect([searches(a), searches(b)]).toEqual([1, 1]);
  });
});

describe('opensearch provider in the search backend', () => {
  it("is asked for exactly max_results (it filters natively) and its results still pass Scout's own checks", async () => {
    const node = await startFakeNode();
    try {
      const backend = createSearchBackend([provider([node.url])], { cacheTtlMs: 0 });
      // The fixture answers with three domains whatever the filter: only tokio.rs is kept.
      const answer = await backend.search(query({ maxResults: 7, includeDomains: ['tokio.rs'] }));
      expect(answer.providers).toEqual(['opensearch']);
      expect(answer.results.map((r) => r.url)).toEqual(['https://tokio.rs/tokio/tutorial']);
      expect(lastSearch(node).size).toBe(7);
    } finally {
      await node.close();
    }
  });
});
