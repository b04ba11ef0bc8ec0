import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBraveProvider } from '../../src/providers/brave.ts';
import { createExaProvider } from '../../src/providers/exa.ts';
import { createMarginaliaProvider } from '../../src/providers/marginalia.ts';
import { ProviderError, type ProviderFailureKind, type SearchProvider } from '../../src/providers/provider.ts';
import { createSearxngProvider } from '../../src/providers/searxng.ts';
import { createSerperProvider } from '../../src/providers/serper.ts';
import { createTavilyProvider } from '../../src/providers/tavily.ts';
import { fixture, noAbort, query, startMockUpstream, type MockReply, type MockUpstream } from './mock-upstream.ts';

/** Every adapter against its provider's documented error answers, served on loopback. */

const KEY = 'secret-key-must-never-leak-42';

interface ErrorCase {
  status: number;
  file: string;
  failure: ProviderFailureKind;
  message: string;
}

interface Adapter {
  name: string;
  make(url: string): SearchProvider;
  errors: ErrorCase[];
  /** A 200 answer that is JSON but not the provider's shape. */
  wrongShape: object;
}

const ADAPTERS: Adapter[] = [
  {
    name: 'brave',
    make: (url) => createBraveProvider({ url, apiKey: KEY }),
    errors: [
      { status: 401, file: 'error-401.json', failure: 'auth', message: 'HTTP 401 (API key refused)' },
      { status: 422, file: 'error-422.json', failure: 'http', message: 'HTTP 422' },
      { status: 429, file: 'error-429.json', failure: 'rate_limited', message: 'HTTP 429' },
      { status: 502, file: 'error-502.html', failure: 'http', message: 'HTTP 502' },
    ],
    wrongShape: { type: 'ErrorResponse' },
  },
  {
    name: 'searxng',
    make: (url) => createSearxngProvider({ url }),
    errors: [
      {
        status: 403,
        file: 'error-403.html',
        failure: 'auth',
        message: 'HTTP 403 (is json enabled in search.formats of the instance?)',
      },
      { status: 429, file: 'error-429.html', failure: 'rate_limited', message: 'HTTP 429' },
      { status: 500, file: 'error-500.html', failure: 'http', message: 'HTTP 500' },
    ],
    wrongShape: { query: 'x', answers: [] },
  },
  {
    name: 'tavily',
    make: (url) => createTavilyProvider({ url, apiKey: KEY }),
    errors: [
      { status: 401, file: 'error-401.json', failure: 'auth', message: 'HTTP 401 (API key refused)' },
      { status: 429, file: 'error-429.json', failure: 'rate_limited', message: 'HTTP 429' },
      { status: 432, file: 'error-432.json', failure: 'rate_limited', message: 'HTTP 432 (plan usage limit reached)' },
      { status: 500, file: 'error-500.json', failure: 'http', message: 'HTTP 500' },
    ],
    wrongShape: { detail: { error: 'odd' } },
  },
  {
    name: 'exa',
    make: (url) => createExaProvider({ url, apiKey: KEY }),
    errors: [
      { status: 401, file: 'error-401.json', failure: 'auth', message: 'HTTP 401 (API key refused)' },
      { status: 429, file: 'error-429.json', failure: 'rate_limited', message: 'HTTP 429' },
      { status: 500, file: 'error-500.json', failure: 'http', message: 'HTTP 500' },
    ],
    wrongShape: { requestId: 'x' },
  },
  {
    name: 'serper',
    make: (url) => createSerperProvider({ url, apiKey: KEY }),
    errors: [
      { status: 403, file: 'error-403.json', failure: 'auth', message: 'HTTP 403 (API key refused)' },
      { status: 429, file: 'error-429.json', failure: 'rate_limited', message: 'HTTP 429' },
      { status: 500, file: 'error-500.json', failure: 'http', message: 'HTTP 500' },
    ],
    wrongShape: { organic: {} },
  },
  {
    name: 'marginalia',
    make: (url) => createMarginaliaProvider({ url, apiKey: KEY }),
    errors: [
      { status: 401, file: 'error-401.txt', failure: 'auth', message: 'HTTP 401 (API key refused)' },
      { status: 503, file: 'error-503.txt', failure: 'rate_limited', message: 'HTTP 503 (rate limited)' },
    ],
    wrongShape: { license: 'CC-BY-NC-SA 4.0' },
  },
];

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(() => mock.close());

async function failureOf(p: SearchProvider, reply: MockReply): Promise<ProviderError> {
  mock.reply = () => reply;
  const err = await p.search(query(), noAbort()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

function expectNoSecret(err: ProviderError): void {
  expect(err.message).not.toContain(KEY);
  expect(err.detail ?? '').not.toContain(KEY);
  expect(err.message).not.toContain('127.0.0.1');
}

describe.each(ADAPTERS)('$name error answers', (a) => {
  it.each(a.errors)('HTTP $status → $failure', async (c) => {
    const err = await failureOf(a.make(`${mock.url}/search`), { status: c.status, body: fixture(a.name, c.file) });
    expect(err.provider).toBe(a.name);
    expect(err.failure).toBe(c.failure);
    expect(err.status).toBe(c.status);
    expect(err.message).toBe(c.message);
    expectNoSecret(err);
  });

  it('a 200 that is not JSON is malformed', async () => {
    const err = await failureOf(a.make(`${mock.url}/search`), {
      body: fixture('brave', 'truncated.json'),
      contentType: 'application/json',
    });
    expect(err.failure).toBe('malformed');
    expect(err.message).toBe('malformed response (not JSON)');
  });

  it('a 200 JSON body of another shape is malformed', async () => {
    const err = await failureOf(a.make(`${mock.url}/search`), { body: a.wrongShape });
    expect(err.failure).toBe('malformed');
    expect(err.message).toMatch(/^malformed response \(/);
  });

  it('a refused connection is a network failure', async () => {
    const closed = await startMockUpstream();
    const url = `${closed.url}/search`;
    await closed.close();
    const err = (await a
      .make(url)
      .search(query(), noAbort())
      .catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.failure).toBe('network');
    expect(err.message).toBe('network error (ECONNREFUSED)');
  });
});

describe('upstream error text', () => {
  it('is kept for logs with the API key removed', async () => {
    const p = createTavilyProvider({ url: `${mock.url}/search`, apiKey: KEY });
    const err = await failureOf(p, { status: 401, body: { detail: { error: `invalid key ${KEY}` } } });
    expect(err.detail).toBe('{"detail":{"error":"invalid key [redacted]"}}');
  });
});
