import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scout } from '../../src/compose.ts';
import { startServer } from '../../src/main.ts';
import { defined } from '../helpers/defined.ts';
import { fixture, startMockUpstream, type MockUpstream } from './mock-upstream.ts';

/**
 * A start with SCOUT_SEARCH_PROVIDERS unset searches the web: DuckDuckGo's and Mojeek's
 * result pages and Wikipedia's API, fused with the local index. No machine here reaches those
 * engines, so their endpoints point at loopback stand-ins serving the recorded pages
 * (test/fixtures/providers/{duckduckgo,mojeek,wikipedia}: each fixture's header says which
 * real page it models). Everything else is the real start: startServer, its start-up lines,
 * the HTTP API.
 */

let ddg: MockUpstream;
let mojeek: MockUpstream;
let wiki: MockUpstream;
let scout: Scout;
let base: string;
let key: string;
let dataDir: string;
let out = '';
const ADMIN_TOKEN = 'admin-token-for-the-default-providers-test';

beforeAll(async () => {
  ddg = await startMockUpstream(() => ({ body: fixture('duckduckgo', 'search.html'), contentType: 'text/html' }));
  mojeek = await startMockUpstream(() => ({ body: fixture('mojeek', 'search.html'), contentType: 'text/html' }));
  wiki = await startMockUpstream(() => ({ body: fixture('wikipedia', 'search.json') }));
  dataDir = mkdtempSync(join(tmpdir(), 'scout-default-'));
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => (out += c.toString()));
  // No SCOUT_SEARCH_PROVIDERS and no SCOUT_SEARCH_MODE: the defaults.
  scout = await startServer(
    {
      SCOUT_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SCOUT_LOG_LEVEL: 'warn',
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_FETCH_WORKER_NICE: '0',
      SCOUT_DUCKDUCKGO_URL: `${ddg.url}/html/`,
      SCOUT_MOJEEK_URL: `${mojeek.url}/search`,
      SCOUT_WIKIPEDIA_URL: `${wiki.url}/w/api.php`,
      SCOUT_CONTACT: 'ops@example.org',
      SCOUT_ADMIN_TOKEN: ADMIN_TOKEN,
    },
    stream,
  );
  const address = scout.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  key = (await scout.keys.create('default-providers')).key;
});

afterAll(async () => {
  await scout?.close();
  await Promise.all([ddg?.close(), mojeek?.close(), wiki?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const search = async (query: string) => {
  const res = await fetch(`${base}/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, max_results: 20 }),
  });
  return { status: res.status, provider: res.headers.get('x-scout-provider'), body: (await res.json()) as never };
};

describe('the default start', () => {
  it('says what it searches, after the listening line', () => {
    const lines = out.split('\n');
    const listening = lines.findIndex((l) => l.startsWith('Scout listening on '));
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(lines[listening + 1]).toBe('search: duckduckgo, mojeek, wikipedia, local (fusion)');
  });

  it('a first search returns web pages from every engine, fused with the local index', async () => {
    const r = await search('python list comprehension');
    expect(r.status).toBe(200);
    expect(r.provider).toBe('duckduckgo,mojeek,wikipedia,local');
    const urls = (r.body as { results: { url: string }[] }).results.map((x) => x.url);
    // One page from each engine's recorded answer (DuckDuckGo's unwrapped from its redirect).
    expect(urls).toContain('https://tokio.rs/');
    expect(urls.some((u) => u.startsWith(`${wiki.url}/wiki/`))).toBe(true);
    expect(urls.length).toBeGreaterThan(10);
    // Each engine was asked once, as Scout, with the operator's contact.
    for (const m of [ddg, mojeek, wiki]) {
      expect(m.requests).toHaveLength(1);
      expect(defined(m.requests[0], 'a request').headers['user-agent']).toMatch(
        /^Scout\/\d+\.\d+\.\d+ \(self-hosted search gateway; contact: ops@example\.org\)$/,
      );
    }
    expect(defined(ddg.requests[0], 'the DuckDuckGo request').method).toBe('POST');
  });

  it('an engine showing its block page is left out and suspended; the others answer', async () => {
    ddg.reply = () => ({ status: 202, body: fixture('duckduckgo', 'blocked.html'), contentType: 'text/html' });
    const r = await search('a query DuckDuckGo blocks');
    expect(r.status).toBe(200);
    expect(r.provider).toBe('mojeek,wikipedia,local');
    const calls = ddg.requests.length;
    // Suspended at once: the next search does not ask it.
    expect((await search('the next query')).provider).toBe('mojeek,wikipedia,local');
    expect(ddg.requests).toHaveLength(calls);
    // The operator sees why, on /admin and /metrics.
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const overview = (await (await fetch(`${base}/admin/v1/overview`, { headers: auth })).json()) as {
      providers: { name: string; health: string; breaker: string; last_error: string | null }[];
    };
    expect(overview.providers.find((p) => p.name === 'duckduckgo')).toMatchObject({
      health: 'blocked',
      breaker: 'open',
      last_error: 'HTTP 202 (the engine refused automated queries)',
    });
    expect(overview.providers.find((p) => p.name === 'mojeek')).toMatchObject({ health: 'ok', breaker: 'closed' });
    const metrics = await (await fetch(`${base}/metrics`, { headers: auth })).text();
    expect(metrics).toContain('scout_provider_health{provider="duckduckgo",health="blocked"} 1');
    expect(metrics).toContain('scout_provider_breaker_open{provider="duckduckgo"} 1');
  });
});
