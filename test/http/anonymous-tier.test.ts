import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { SearchResponse } from '../../src/schemas/search.ts';
import { SearxngResponse } from '../../src/schemas/searxng.ts';
import { TavilySearchResponse } from '../../src/schemas/tavily.ts';
import { Usage } from '../../src/schemas/usage.ts';
import { AdminOverview } from '../../src/schemas/admin.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { createAnonymousTier } from '../../src/http/anonymous-tier.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { quillwortPages } from './compat-kit.ts';

/**
 * The anonymous tier (SCOUT_ANONYMOUS_RPM, docs/compat.md "Keyless clients") on a real Scout
 * over loopback. Scout listens on 127.0.0.1; Linux loopback takes any 127.x source, so each
 * client binds its own local address and is its own client address to Scout.
 */

const RPM = 5;
const ADMIN_TOKEN = 'anonymous-tier-admin-token-0123456789';
// The trusted network: 127.0.0.2 and 127.0.1.0/24 on loopback, 10/8 behind the proxy at 127.0.0.1.
const CIDRS = '127.0.0.2/32,127.0.1.0/24,10.0.0.0/8';

let t: TestScout;
const agents = new Map<string, Agent>();
/** A connection pool whose sockets leave from `address`. */
const from = (address: string): Agent => {
  let a = agents.get(address);
  if (a === undefined) {
    a = new Agent({ localAddress: address });
    agents.set(address, a);
  }
  return a;
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = unknown>(): T;
}

/** One request from `address`, with no key unless the headers carry one. */
async function send(
  address: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown; form?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  } else if (init.form !== undefined) {
    body = init.form;
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  const res = await request(t.baseUrl + path, {
    method: method as 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
    dispatcher: from(address),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

const search = (address: string, query = 'quillwort', headers: Record<string, string> = {}) =>
  send(address, 'POST', '/v1/search', { body: { query }, headers });

const expectUnauthorized = (r: Answer, message = /missing API key/): void => {
  expect(r.status, r.text).toBe(401);
  const body = r.json<ErrorBody>();
  expectShape(ErrorBody, body);
  expect(body.error.message).toMatch(message);
};

beforeAll(async () => {
  t = await startTestScout({
    SCOUT_ANONYMOUS_RPM: String(RPM),
    SCOUT_ANONYMOUS_CIDRS: CIDRS,
    SCOUT_TRUSTED_PROXIES: '127.0.0.1/32',
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_ADMIN_TOKEN: ADMIN_TOKEN,
  });
  t.scout.index.upsert(quillwortPages(6));
});
afterAll(async () => {
  await Promise.all([...agents.values()].map((a) => a.close()));
  await t?.close();
});

describe('a request without a key, with the anonymous tier on', () => {
  it('is served from its address group’s own bucket: RateLimit headers of SCOUT_ANONYMOUS_RPM', async () => {
    const r = await search('127.0.0.2');
    expect(r.status, r.text).toBe(200);
    expectShape(SearchResponse, r.json());
    expect(r.json<SearchResponse>().results.length).toBeGreaterThan(0);
    expect(r.headers['ratelimit-limit']).toBe(String(RPM));
    expect(r.headers['ratelimit-remaining']).toBe(String(RPM - 1));
    // GET /v1/search and /v1/fetch are admitted the same way, from the same bucket.
    const get = await send('127.0.0.2', 'GET', '/v1/search?q=quillwort');
    expect(get.status, get.text).toBe(200);
    expect(get.headers['ratelimit-remaining']).toBe(String(RPM - 2));
    const fetched = await send('127.0.0.2', 'POST', '/v1/fetch', { body: { url: 'http://127.0.0.1:1/' } });
    // Refused as a private address (403), past authentication: the request was admitted.
    expect(fetched.status, fetched.text).toBe(403);
    expect(fetched.headers['ratelimit-remaining']).toBe(String(RPM - 3));
  });

  it('never downgrades a wrong, revoked or malformed key: 401 as without the tier', async () => {
    expectUnauthorized(
      await search('127.0.0.2', 'quillwort', { authorization: 'Bearer scout_wrong' }),
      /not valid|malformed|key/i,
    );
    expectUnauthorized(await search('127.0.0.2', 'quillwort', { authorization: 'Basic abc' }), /Bearer <key>/);
    const revoked = await t.scout.keys.create('revoked');
    await t.scout.keys.revoke(revoked.id);
    expectUnauthorized(await search('127.0.0.2', 'quillwort', { 'x-api-key': revoked.key }), /not valid/);
    // A Tavily body with a wrong api_key, and a path key never reach the tier either.
    const tavily = await send('127.0.1.30', 'POST', '/search', { body: { query: 'quillwort', api_key: 'nope' } });
    expect(tavily.status, tavily.text).toBe(401);
  });

  it('is 401 from an address outside SCOUT_ANONYMOUS_CIDRS', async () => {
    expect((await search('127.0.0.2')).status).toBe(200);
    expectUnauthorized(await search('127.0.0.3'));
    // 127.0.0.1 is the trusted proxy, not a client of the trusted network.
    expectUnauthorized(await search('127.0.0.1'));
    // A key from anywhere is served as ever.
    const keyed = await search('127.0.0.3', 'quillwort', { authorization: `Bearer ${t.key}` });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['ratelimit-limit']).toBe('100000');
  });

  it('believes X-Forwarded-For only from a trusted proxy (SCOUT_TRUSTED_PROXIES)', async () => {
    const proxied = await search('127.0.0.1', 'quillwort', { 'x-forwarded-for': '10.1.2.3' });
    expect(proxied.status, proxied.text).toBe(200);
    expect(proxied.headers['ratelimit-remaining']).toBe(String(RPM - 1));
    // Another client behind the proxy has a bucket of its own.
    const other = await search('127.0.0.1', 'quillwort', { 'x-forwarded-for': '10.1.2.4' });
    expect(other.headers['ratelimit-remaining']).toBe(String(RPM - 1));
    expect((await search('127.0.0.1', 'quillwort', { 'x-forwarded-for': '10.1.2.3' })).headers).toMatchObject({
      'ratelimit-remaining': String(RPM - 2),
    });
    // The client counted is the rightmost address the trusted proxy did not add itself: what
    // a client writes into the header before the proxy appends its address is not believed.
    const forged = await search('127.0.0.1', 'quillwort', { 'x-forwarded-for': '192.0.2.1, 10.1.2.5' });
    expect(forged.status, forged.text).toBe(200);
    expect(forged.headers['ratelimit-remaining']).toBe(String(RPM - 1));
    expectUnauthorized(await search('127.0.0.1', 'quillwort', { 'x-forwarded-for': '10.1.2.3, 192.0.2.1' }));
    // The same header from a client that is not a trusted proxy is ignored: it is 127.0.0.3.
    expectUnauthorized(await search('127.0.0.3', 'quillwort', { 'x-forwarded-for': '10.1.2.3' }));
  });

  it('flood: one address far past its limit gets 429s with Retry-After, another is served throughout', async () => {
    const flooder = '127.0.1.10';
    const neighbour = '127.0.1.11';
    const flood = Array.from({ length: 60 }, () => search(flooder));
    // During the flood, the neighbour sends its own requests, within its own limit.
    const served = Array.from({ length: RPM }, () => search(neighbour));
    const [floodAnswers, neighbourAnswers] = await Promise.all([Promise.all(flood), Promise.all(served)]);
    expect(neighbourAnswers.map((r) => r.status)).toEqual(Array(RPM).fill(200));
    const ok = floodAnswers.filter((r) => r.status === 200);
    const refused = floodAnswers.filter((r) => r.status === 429);
    expect(ok.length + refused.length).toBe(60);
    // A burst of RPM, plus at most what refills meanwhile (one every 60/RPM s: bounds far off).
    expect(ok.length).toBeGreaterThanOrEqual(RPM);
    expect(ok.length).toBeLessThanOrEqual(RPM + 3);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.headers['ratelimit-limit']).toBe(String(RPM));
      expectShape(ErrorBody, r.json());
    }
    // Refused searches are not charged: the month counts the served ones only (keyed, below, is one more).
    const before = await t.request<Usage>('GET', '/v1/usage');
    const keyed = await t.request('POST', '/v1/search', { body: { query: 'quillwort' } });
    expect(keyed.status).toBe(200);
    const after = await t.request<Usage>('GET', '/v1/usage');
    expect(after.body.budget.units_used).toBe(before.body.budget.units_used + 1);
  });

  it('GET /v1/usage reports the caller’s anonymous bucket and the anonymous share', async () => {
    const me = '127.0.1.20';
    await search(me);
    const r = await send(me, 'GET', '/v1/usage');
    expect(r.status, r.text).toBe(200);
    const body = r.json<Usage>();
    expectShape(Usage, body);
    expect(body.rate_limit).toMatchObject({ limit_per_minute: RPM, remaining: RPM - 1 });
    // 10% (the default share) of the default 10000 units.
    expect(body.budget.units_total).toBe(1000);
    expect(r.headers['ratelimit-remaining']).toBe(String(RPM - 1));
  });

  it('SearXNG GET as OpenWebUI sends it (no credentials at all), and a SearXNG form', async () => {
    const r = await send(
      '127.0.1.21',
      'GET',
      '/search?q=quillwort&format=json&pageno=1&safesearch=1&language=en-US&time_range=&categories=&theme=simple&image_proxy=0',
      {
        headers: {
          'user-agent': 'Open WebUI (https://github.com/open-webui/open-webui) RAG Bot',
          accept: 'text/html',
          'accept-encoding': 'gzip, deflate',
          'accept-language': 'en-US,en;q=0.5',
        },
      },
    );
    expect(r.status, r.text).toBe(200);
    const body = r.json<SearxngResponse>();
    expectShape(SearxngResponse, body);
    expect(body.results.length).toBeGreaterThan(0);
    expect(r.headers['ratelimit-limit']).toBe(String(RPM));
    const form = await send('127.0.1.21', 'POST', '/search', { form: 'q=quillwort&format=json' });
    expect(form.status, form.text).toBe(200);
    expect(form.headers['ratelimit-remaining']).toBe(String(RPM - 2));
  });

  it('a Tavily JSON body without api_key and without a header, and /extract', async () => {
    const r = await send('127.0.1.22', 'POST', '/search', { body: { query: 'quillwort', max_results: 3 } });
    expect(r.status, r.text).toBe(200);
    expectShape(TavilySearchResponse, r.json());
    expect(r.headers['ratelimit-limit']).toBe(String(RPM));
    const x = await send('127.0.1.22', 'POST', '/extract', { body: { urls: ['http://127.0.0.1:1/'] } });
    expect(x.status, x.text).toBe(200);
    expect(x.json<{ failed_results: unknown[] }>().failed_results).toHaveLength(1);
    expect(x.headers['ratelimit-remaining']).toBe(String(RPM - 2));
    // From outside the ranges: Tavily's own 401 shape.
    const out = await send('127.0.0.3', 'POST', '/search', { body: { query: 'quillwort' } });
    expect(out.status).toBe(401);
    expect(out.json()).toEqual({ detail: { error: expect.stringMatching(/missing API key/) } });
  });

  it('a Firecrawl search without a key; outside the ranges, Firecrawl’s own 401 shape', async () => {
    const r = await send('127.0.1.24', 'POST', '/v2/search', { body: { query: 'quillwort', limit: 3 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json<{ success: boolean }>().success).toBe(true);
    expect(r.headers['ratelimit-limit']).toBe(String(RPM));
    const out = await send('127.0.0.3', 'POST', '/v2/search', { body: { query: 'quillwort' } });
    expect(out.status).toBe(401);
    expect(out.json()).toEqual({ success: false, error: expect.stringMatching(/missing API key/) });
  });

  it('MCP tools/call without a key, with the official SDK client, each call from the address’s bucket', async () => {
    const dispatcher = from('127.0.1.23');
    const client = new Client({ name: 'anonymous-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        fetch: ((url: string | URL, init?: RequestInit) =>
          undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch,
      }),
    );
    try {
      const r = (await client.callTool({ name: 'web_search', arguments: { query: 'quillwort' } })) as CallToolResult;
      expect(r.isError ?? false).toBe(false);
      expect(JSON.stringify(r.content)).toContain('Quillwort');
      // The bucket of 127.0.1.23 lost one request per tools/call: RPM - 1 left, then 0 after the rest.
      const calls = await Promise.all(
        Array.from(
          { length: RPM },
          async () =>
            (await client.callTool({ name: 'web_search', arguments: { query: 'quillwort' } })) as CallToolResult,
        ),
      );
      const limited = calls.filter((c) => c.isError === true);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(limited[0]?.content)).toMatch(/rate limit of 5 requests per minute/);
    } finally {
      await client.close();
    }
  });

  it('never opens the admin routes', async () => {
    const r = await send('127.0.0.2', 'GET', '/admin/v1/overview');
    expect(r.status).toBe(401);
  });

  it('is counted in metrics (route and status class, never the address) and as one entry on the dashboard', async () => {
    await search('127.0.1.24');
    const m = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(m.text).toMatch(/^scout_anonymous_requests_total\{route="\/v1\/search",status_class="2xx"\} [1-9]/m);
    expect(m.text).toMatch(/^scout_anonymous_requests_total\{route="\/v1\/search",status_class="4xx"\} [1-9]/m);
    expect(m.text).not.toMatch(/127\.0\.1\.24|127\.0\.0\.2"/);
    const o = await t.request<AdminOverview>('GET', '/admin/v1/overview', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(o.status).toBe(200);
    expectShape(AdminOverview, o.body);
    const anonymous = o.body.anonymous;
    expect(anonymous?.requests).toBeGreaterThan(60);
    expect(anonymous?.refusals).toBeGreaterThan(0);
    expect(anonymous?.last_used_at).toMatch(/^\d{4}-/);
    // Keys are keys: no row per address, no anonymous key.
    expect(o.body.keys.map((k) => k.id).filter((id) => !id.startsWith('key_'))).toEqual([]);
  });
});

describe('createAnonymousTier', () => {
  it('names each address group one caller: IPv4 per address (mapped IPv6 too), IPv6 per prefix', () => {
    const tier = createAnonymousTier({ cidrs: [], ipv6Prefix: 56 });
    expect(tier.callerOf('127.0.0.2')).toBe('anon:127.0.0.2');
    expect(tier.callerOf('::ffff:127.0.0.2')).toBe('anon:127.0.0.2');
    expect(tier.callerOf('2001:db8:1:2::1')).toBe(tier.callerOf('2001:db8:1:ff::9'));
    expect(tier.callerOf('2001:db8:1:100::1')).not.toBe(tier.callerOf('2001:db8:1:2::1'));
    const per64 = createAnonymousTier({ cidrs: [], ipv6Prefix: 64 });
    expect(per64.callerOf('2001:db8:1:2::1')).not.toBe(per64.callerOf('2001:db8:1:ff::9'));
  });

  it('admits only the ranges it is given, IPv4 clients on IPv6 sockets included', () => {
    const tier = createAnonymousTier({ cidrs: ['10.0.0.0/8', 'fd00::/8', '::ffff:192.168.0.0/112'], ipv6Prefix: 56 });
    expect(tier.callerOf('10.9.8.7')).toBe('anon:10.9.8.7');
    expect(tier.callerOf('::ffff:10.9.8.7')).toBe('anon:10.9.8.7');
    expect(tier.callerOf('fd12:3456::1')).toBe('anon:fd12:3456:0:0::/56');
    expect(tier.callerOf('192.168.4.5')).toBe('anon:192.168.4.5');
    expect(tier.callerOf('11.0.0.1')).toBeUndefined();
    expect(tier.callerOf('2001:db8::1')).toBeUndefined();
    expect(tier.callerOf('not an address')).toBeUndefined();
  });
});
