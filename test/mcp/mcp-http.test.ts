import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetPeriod } from '../../src/search/search-budget.ts';
import { callToolOverHttp, MCP_POST_HEADERS, toolCallBody } from '../../src/mcp/json-rpc-call.ts';
import { ErrorBody } from '../../src/schemas/error.ts';
import { FetchRequest, FetchResponse } from '../../src/schemas/fetch.ts';
import { SearchRequest, SearchResponse } from '../../src/schemas/search.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';
import { constraintsOf, longArticle, nullableOptionals, resultSize, textOf } from './mcp-helpers.ts';

const LIMIT = 2000;
let t: TestScout;
let origin: FixtureServer;
let client: Client;

const connect = async (
  scout: TestScout,
  headers: Record<string, string> = { authorization: `Bearer ${scout.key}` },
): Promise<Client> => {
  const c = new Client({ name: 'scout-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${scout.baseUrl}/mcp`), { requestInit: { headers } }));
  return c;
};
const call = async (name: string, args: Record<string, unknown>, c = client): Promise<CallToolResult> => {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  // Every result, errors included, stays within the bound ("about": see result-tokens.ts).
  expect(resultSize(r)).toBeLessThanOrEqual(Math.floor(LIMIT * 1.05));
  return r;
};
const post = (scout: TestScout, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${scout.baseUrl}/mcp`, {
    method: 'POST',
    // A header given as '' is left out.
    headers: Object.fromEntries(
      Object.entries({ ...MCP_POST_HEADERS, authorization: `Bearer ${scout.key}`, ...headers }).filter(
        ([, v]) => v !== '',
      ),
    ),
    body: JSON.stringify(body),
  });
const initialize = (version: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

beforeAll(async () => {
  origin = await startFixtureServer({
    '/article': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>Fixture page</title></head><body><main><h1>Fixture page</h1><p>Scout fetched this paragraph from a loopback fixture server over MCP.</p></main></body></html>',
    },
    '/long': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: longArticle(120) },
    '/landing': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>Acme shoes</title></head><body><main><h1>Acme shoes</h1><p>The landing page of the Acme campaign, light shoes for long runs.</p></main></body></html>',
    },
    '/image': { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
  });
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_MCP_MAX_RESULT_TOKENS: String(LIMIT),
    SCOUT_MCP_ALLOWED_ORIGINS: 'https://agent.example',
  });
  client = await connect(t);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
  await origin?.close();
});

describe('MCP over streamable HTTP: what web_search says it searches', () => {
  it('"Search the web." when a web provider is configured (no search is made)', async () => {
    const web = await startTestScout({ SCOUT_SEARCH_PROVIDERS: 'marginalia,local' });
    try {
      const c = await connect(web);
      const { tools } = await c.listTools();
      expect(defined(tools[0], 'web_search').description).toMatch(/^Search the web\. Returns numbered results/);
      expect(c.getInstructions()).toMatch(/^Scout searches the web \(web_search\)/);
      await c.close();
    } finally {
      await web.close();
    }
  });
});

describe('MCP over streamable HTTP: tools', () => {
  it("lists web_search and fetch_page with the HTTP API's schemas (model-facing descriptions only added)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['web_search', 'fetch_page']);
    const [search, page] = [defined(tools[0], 'web_search'), defined(tools[1], 'fetch_page')];
    // This Scout searches its local index only: the tool does not claim the web.
    expect(search.description).toMatch(
      /^Search this server's own index \(no web search provider is configured: results come only from the documents indexed on this server, not from the web\)\. Returns numbered results/,
    );
    expect(client.getInstructions()).toMatch(/^Scout searches this server's own index, not the web/);
    expect(constraintsOf(search.inputSchema)).toEqual(nullableOptionals(constraintsOf(SearchRequest)));
    expect(constraintsOf(search.outputSchema!)).toEqual(constraintsOf(SearchResponse));
    const fetchInput = constraintsOf(page.inputSchema) as { properties: Record<string, unknown>; required: string[] };
    const http = nullableOptionals(constraintsOf(FetchRequest)) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(fetchInput.properties.url).toEqual(http.properties.url);
    expect(fetchInput.properties.max_chars).toEqual(http.properties.max_chars);
    expect(fetchInput.properties.start_index).toEqual({
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 199999,
      default: 0,
    });
    expect(fetchInput.required).toEqual(http.required);
    expect(constraintsOf(page.outputSchema!)).toEqual(constraintsOf(FetchResponse));
    // Written for a model: every option described, advanced depth explained.
    const props = search.inputSchema.properties as Record<string, { description?: string }>;
    for (const name of Object.keys(SearchRequest.properties)) expect(props[name]?.description, name).toBeTruthy();
    expect(props.search_depth?.description).toMatch(/advanced.*2 search units.*Use advanced when/s);
    expect(JSON.stringify(tools)).not.toContain('x-rule');
  });

  it('web_search answers the HTTP body as structuredContent and numbered markdown as text', async () => {
    const r = await call('web_search', { query: 'api keys', max_results: 5 });
    expect(r.isError).toBeFalsy();
    expectShape(SearchResponse, r.structuredContent);
    const body = r.structuredContent as SearchResponse;
    expect(body.results.length).toBeGreaterThan(0);
    const http = await t.request<SearchResponse>('POST', '/v1/search', { body: { query: 'api keys', max_results: 5 } });
    expect(body.results).toEqual(http.body.results);
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const text = textOf(r);
    expect(text).toContain('## Web search: "api keys"');
    const first = defined(body.results[0], 'a first result');
    expect(text).toContain(`### 1. ${first.title}`);
    expect(text).toContain(`URL: ${first.url}`);
    expect(text).toContain('call fetch_page with its URL');
  });

  it('fetch_page answers the /v1/fetch body and the page as markdown', async () => {
    const r = await call('fetch_page', { url: origin.url('/article') });
    expect(r.isError).toBeFalsy();
    expectShape(FetchResponse, r.structuredContent);
    expect(r.structuredContent).toMatchObject({
      url: origin.url('/article'),
      title: 'Fixture page',
      truncated: false,
      meta: { content_type: 'text/html' },
    });
    expect(textOf(r)).toContain('# Fixture page');
    expect(textOf(r)).toContain('Scout fetched this paragraph from a loopback fixture server over MCP.');
    expect(textOf(r)).not.toContain('start_index');
  });

  it('a long page is read in parts with start_index: exact slices, each within the token bound', async () => {
    const whole = (await t.request('POST', '/v1/fetch', { body: { url: origin.url('/long'), max_chars: 200000 } }))
      .body as FetchResponse;
    expect(whole.truncated).toBe(false);
    let start = 0;
    let joined = '';
    const parts: FetchResponse[] = [];
    for (;;) {
      const r = await call(
        'fetch_page',
        start === 0 ? { url: origin.url('/long') } : { url: origin.url('/long'), start_index: start },
      );
      expect(r.isError).toBeFalsy();
      expectShape(FetchResponse, r.structuredContent);
      const part = r.structuredContent as FetchResponse;
      parts.push(part);
      expect(part.chars).toBe(part.content.length);
      expect(textOf(r)).toContain(part.content);
      joined += part.content;
      if (!part.truncated) {
        expect(textOf(r)).not.toContain('start_index=');
        break;
      }
      start += part.chars;
      expect(textOf(r)).toContain(`call fetch_page with url "${origin.url('/long')}" and start_index=${start}`);
      expect(parts.length).toBeLessThan(30);
    }
    expect(parts.length).toBeGreaterThan(2);
    expect(joined).toBe(whole.content);
    const past = await call('fetch_page', { url: origin.url('/long'), start_index: whole.content.length });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toContain('past the end of the page content');
  });

  it('max_chars bounds a part in characters', async () => {
    const r = await call('fetch_page', { url: origin.url('/long'), max_chars: 500 });
    const part = r.structuredContent as FetchResponse;
    expect(part.chars).toBeLessThanOrEqual(500);
    expect(part.truncated).toBe(true);
    expect(textOf(r)).toContain(`start_index=${part.chars}`);
  });

  it('errors are tool results with isError and the actionable message, never protocol errors', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'web_search',
        { query: 'x', max_results: 99 },
        /^Error 400: max_results must be an integer from 1 to 20\. Fix the arguments/,
      ],
      ['web_search', { query: 'x', bogus: true }, /^Error 400: unknown field "bogus" in the arguments/],
      ['web_search', {}, /^Error 400: query is required/],
      ['fetch_page', { url: 'http://127.0.0.1/' }, /^Error 403: .*not a public address.*do not retry this URL/],
      ['fetch_page', { url: origin.url('/image') }, /^Error 415: .*image\/png/],
      ['fetch_page', { url: origin.url('/missing') }, /^Error 502: .*origin answered 404.*try another URL/],
      [
        'fetch_page',
        { url: origin.url('/article'), start_index: -1 },
        /^Error 400: start_index must be an integer from 0 to 199999/,
      ],
      ['web_search', { query: 'x', include_domains: [null] }, /^Error 400: include_domains/],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(textOf(r)).toMatch(message);
    }
  });

  it("an unknown tool name is the protocol's unknown-tool error, names every object inherits included", async () => {
    for (const name of ['no_such_tool', 'constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const failure = await client.callTool({ name, arguments: {} }).then(
        (r) => r,
        (e: unknown) => e,
      );
      expect(failure, name).toBeInstanceOf(McpError);
      expect((failure as McpError).code, name).toBe(ErrorCode.InvalidParams);
      expect((failure as McpError).message, name).toContain(
        `Unknown tool: ${name}. The tools are web_search and fetch_page`,
      );
    }
    // On the wire, as the protocol's example has it.
    const raw = await (await post(t, JSON.parse(toolCallBody(8, '__proto__', {})))).json();
    expect(raw).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32602, message: 'Unknown tool: __proto__. The tools are web_search and fetch_page' },
    });
    // No name at all (no SDK client sends that): invalid params too, saying what is wrong.
    for (const params of [{ arguments: {} }, { name: 42 }, undefined]) {
      const res = await post(t, { jsonrpc: '2.0', id: 9, method: 'tools/call', params });
      const body = await res.json();
      expect(body.error, JSON.stringify(params)).toEqual({
        code: ErrorCode.InvalidParams,
        message: 'Invalid tools/call request: params.name must be a string, the name of the tool',
      });
    }
  });

  it('arguments that are not an object are a tool error naming the problem; null arguments are none', async () => {
    const cases: [unknown, RegExp][] = [
      [
        [],
        /^Error 400: arguments must be an object of named arguments \(such as \{"query": "\.\.\."\}\), not an array\. Fix the arguments/,
      ],
      [['api keys'], /not an array\./],
      ['api keys', /not a string\./],
      [42, /not a number\./],
      [true, /not a boolean\./],
      [null, /^Error 400: query is required/],
    ];
    for (const [args, message] of cases) {
      // No SDK client sends these: a raw JSON-RPC POST.
      const res = await post(t, {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'web_search', arguments: args },
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.error, JSON.stringify(args)).toBeUndefined();
      expect(body.result.isError, JSON.stringify(args)).toBe(true);
      expect(body.result.content[0].text).toMatch(message);
    }
  });

  it('an optional argument sent as null counts as left out, and the tool schemas say so; the HTTP API stays strict', async () => {
    // What strict function calling sends for a search with only a query.
    const nulls = {
      max_results: null,
      include_domains: null,
      exclude_domains: null,
      freshness: null,
      start_date: null,
      end_date: null,
      search_depth: null,
      max_content_tokens: null,
      country: null,
    };
    const r = await call('web_search', { query: 'api keys', ...nulls });
    expect(r.isError, textOf(r)).toBeFalsy();
    const plain = await call('web_search', { query: 'api keys' });
    expect((r.structuredContent as SearchResponse).results).toEqual(
      (plain.structuredContent as SearchResponse).results,
    );
    const page = await call('fetch_page', { url: origin.url('/article'), max_chars: null, start_index: null });
    expect(page.isError, textOf(page)).toBeFalsy();
    expect(page.structuredContent).toMatchObject({ title: 'Fixture page', truncated: false });
    // A required argument sent as null is missing.
    expect(textOf(await call('fetch_page', { url: null }))).toMatch(/^Error 400: url is required/);

    const { tools } = await client.listTools();
    for (const tool of tools) {
      const schema = tool.inputSchema as unknown as {
        description: string;
        required: string[];
        properties: Record<string, { type?: unknown; anyOf?: unknown[] }>;
      };
      expect(schema.description).toContain('An optional argument given as null is the same as leaving it out.');
      for (const [name, prop] of Object.entries(schema.properties)) {
        const takesNull =
          (Array.isArray(prop.type) && prop.type.includes('null')) ||
          (prop.anyOf ?? []).some((s) => (s as { type?: string }).type === 'null');
        expect(takesNull, `${tool.name}.${name}`).toBe(!schema.required.includes(name));
      }
    }

    const http = await t.request<ErrorBody>('POST', '/v1/search', { body: { query: 'api keys', max_results: null } });
    expect(http.status).toBe(400);
    expect(http.body.error.message).toContain('max_results');
    expect(
      (await t.request('POST', '/v1/fetch', { body: { url: origin.url('/article'), max_chars: null } })).status,
    ).toBe(400);
  });

  it('sponsored entries are marked with their disclosure in the text and come first in the structured content', async () => {
    await t.scout.sponsored.admin.create(
      campaignFile({
        url: origin.url('/landing'),
        incentive: { kind: 'code', code: 'SCOUT10', benefit: '10% off the first pair' },
      }),
    );
    let r: CallToolResult | undefined;
    // Asked again until the campaign shows (a moment after it is created): up to 30 s, far
    // above what that takes, for the machine may be busy (issue 24).
    for (const end = performance.now() + 30_000; performance.now() < end; ) {
      r = await call('web_search', { query: 'running shoes' });
      if ((r.structuredContent as SearchResponse).meta.sponsored_count > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const body = r!.structuredContent as SearchResponse;
    expectShape(SearchResponse, body);
    expect(body.results[0]).toMatchObject({
      type: 'sponsored',
      position: 1,
      disclosure: 'Sponsored · Acme',
      title: 'Acme trail running shoes',
    });
    const text = textOf(r!);
    expect(text).toContain(
      '### [Sponsored 1] Acme trail running shoes\nDisclosure: Sponsored · Acme. This is a paid placement (an ad), not a search result.',
    );
    expect(text).toContain('Offer (code): 10% off the first pair Code: SCOUT10');
    expect(text).toMatch(/\(\d+ results?, 1 sponsored\)/);
    // Reading the ad through fetch_page is an agent read of its landing page, and says so.
    const page = await call('fetch_page', { url: defined(body.results[0], 'the ad').url });
    expect(page.structuredContent).toMatchObject({
      final_url: origin.url('/landing'),
      meta: { click_path: 'agent_read', unwrapped: true },
    });
    expect(textOf(page)).toContain('This is the landing page of a sponsored result (an ad).');
  });
});

describe('MCP over streamable HTTP: the endpoint', () => {
  it('initialize works with the current and the previous protocol revision', async () => {
    for (const version of [LATEST_PROTOCOL_VERSION, defined(SUPPORTED_PROTOCOL_VERSIONS[1], 'a previous revision')]) {
      const init = await post(t, initialize(version));
      expect(init.status).toBe(200);
      expect(init.headers.get('content-type')).toContain('application/json');
      expect(init.headers.get('mcp-session-id')).toBeNull();
      const body = await init.json();
      expect(body.result).toMatchObject({
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: 'scout' },
      });
      const list = await post(t, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': version });
      expect((await list.json()).result.tools).toHaveLength(2);
    }
  });

  it('a plain JSON-RPC tools/call POST (no initialize) answers JSON: the benchmark path', async () => {
    const res = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${t.key}` },
      body: toolCallBody(7, 'web_search', { query: 'api keys' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('ratelimit-limit')).toBe('100000');
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { query: 'api keys' } } });
    expect(body.result.structuredContent.request_id).toBe(res.headers.get('x-request-id'));
    const result = await callToolOverHttp({
      baseUrl: t.baseUrl,
      apiKey: t.key,
      name: 'web_search',
      arguments: { query: 'api keys' },
    });
    expectShape(SearchResponse, result.structuredContent);
  });

  it('concurrent POSTs with the same JSON-RPC id each get their own answer (one server serves them all)', async () => {
    const queries = ['api keys', 'fetching pages', 'getting started', 'scout search'];
    const answers = await Promise.all(
      queries.map((query) => post(t, JSON.parse(toolCallBody(1, 'web_search', { query })))),
    );
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.id).toBe(1);
      expect(body.result.structuredContent.query).toBe(queries[i]);
      expect(body.result.structuredContent.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  it('notifications alone are 202 with no body; a client that cannot take an event stream is 406', async () => {
    const accepted = await post(t, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe('');
    const refused = await post(t, initialize(LATEST_PROTOCOL_VERSION), { accept: 'application/json' });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('Not Acceptable') },
    });
  });

  it('initialize and tools/list spend no search budget; a web_search call spends one unit', async () => {
    const used = () => t.scout.budget.used(budgetPeriod(new Date()));
    const before = await used();
    const c = await connect(t);
    await c.listTools();
    expect(await used()).toBe(before);
    await c.callTool({ name: 'web_search', arguments: { query: 'budget check' } });
    expect(await used()).toBe(before + 1);
    await c.close();
  });

  it('needs an API key: 401 in the Error shape without one, and the SDK client cannot connect', async () => {
    const res = await post(t, initialize(LATEST_PROTOCOL_VERSION), { authorization: '' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    const body = await res.json();
    expectShape(ErrorBody, body);
    expect(body.error.message).toContain('missing API key');
    await expect(connect(t, {})).rejects.toThrow(/401/);
    const bad = await post(t, initialize(LATEST_PROTOCOL_VERSION), { authorization: `Bearer scout_${'a'.repeat(38)}` });
    expect(bad.status).toBe(401);
    // x-api-key works as on the REST routes.
    const viaHeader = await post(t, initialize(LATEST_PROTOCOL_VERSION), { authorization: '', 'x-api-key': t.key });
    expect(viaHeader.status).toBe(200);
  });

  it('refuses a foreign Origin with 403 in the Error shape; allows listed and loopback ones', async () => {
    const refused = await post(t, initialize(LATEST_PROTOCOL_VERSION), { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expectShape(ErrorBody, body);
    expect(body.error.message).toContain('SCOUT_MCP_ALLOWED_ORIGINS');
    expect((await post(t, initialize(LATEST_PROTOCOL_VERSION), { origin: 'https://agent.example' })).status).toBe(200);
    expect((await post(t, initialize(LATEST_PROTOCOL_VERSION), { origin: t.baseUrl })).status).toBe(200);
    expect((await post(t, initialize(LATEST_PROTOCOL_VERSION), { origin: 'null' })).status).toBe(403);
  });

  it("refuses a rebinding page whose Origin equals a Host that is not Scout's", async () => {
    const port = new URL(t.baseUrl).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/mcp',
          headers: {
            ...MCP_POST_HEADERS,
            authorization: `Bearer ${t.key}`,
            host: `evil.example:${port}`,
            origin: `http://evil.example:${port}`,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(initialize(LATEST_PROTOCOL_VERSION)));
    });
    expect(status).toBe(403);
  });

  it('batches: refused under MCP revisions without them, at most 10 messages otherwise', async () => {
    const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
    for (const version of [LATEST_PROTOCOL_VERSION, '2025-06-18']) {
      const res = await post(t, [list(1), list(2)], { 'mcp-protocol-version': version });
      expect(res.status, version).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(body.error.message).toBe(
        `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in 2025-06-18); send one message per POST`,
      );
    }
    // The issue's case: 100 tools/list in one POST.
    const hundred = await post(
      t,
      Array.from({ length: 100 }, (_, i) => list(i)),
    );
    expect(hundred.status).toBe(400);
    const refusal = await hundred.text();
    expect(JSON.parse(refusal)).toMatchObject({
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: a batch may hold at most 10 messages; send the others in further POSTs',
      },
    });
    expect(refusal.length).toBeLessThan(300);
    expect(
      (
        await post(
          t,
          Array.from({ length: 11 }, (_, i) => list(i)),
        )
      ).status,
    ).toBe(400);
    // A 2025-03-26 client (no version header, or its own) may still batch.
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Record<string, string>[]) {
      const ten = await post(
        t,
        Array.from({ length: 10 }, (_, i) => list(i)),
        headers,
      );
      expect(ten.status).toBe(200);
      const answers = await ten.json();
      expect(answers.map((a: { id: number }) => a.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('GET and DELETE are 405 with Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await t.request<ErrorBody>(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.error.message).toContain('use POST');
    }
  });
});

describe('MCP over streamable HTTP: the rate limit', () => {
  let small: TestScout;
  beforeAll(async () => {
    small = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '2' });
  });
  afterAll(() => small?.close());

  it('counts tool calls only, and a call past the limit is a tool error saying when to retry', async () => {
    const c = await connect(small);
    await c.listTools();
    await c.listTools();
    for (let i = 0; i < 2; i += 1)
      expect((await c.callTool({ name: 'web_search', arguments: { query: 'api keys' } })).isError).toBeFalsy();
    const refused = (await c.callTool({
      name: 'fetch_page',
      arguments: { url: 'https://example.com/' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^Error 429: rate limit of 2 requests per minute exceeded; retry in \d+ s\. Rate limited: wait \d+ s, then call again\.$/,
    );
    // The same bucket as the REST routes.
    expect((await small.request('POST', '/v1/search', { body: { query: 'x' } })).status).toBe(429);
    await c.close();
  });

  it('an unknown tool name or invalid arguments take a request from the bucket like any call', async () => {
    const key = (await small.scout.keys.create('unknown-tools')).key;
    const c = await connect(small, { authorization: `Bearer ${key}` });
    await expect(c.callTool({ name: 'constructor', arguments: {} })).rejects.toThrow(/Unknown tool: constructor/);
    expect(
      textOf((await c.callTool({ name: 'web_search', arguments: { query: 'x', max_results: 0 } })) as CallToolResult),
    ).toMatch(/^Error 400: /);
    // Two taken of two: the next call, whatever its name, is refused with when to retry.
    for (const name of ['web_search', 'no_such_tool']) {
      const refused = (await c.callTool({ name, arguments: { query: 'api keys' } })) as CallToolResult;
      expect(refused.isError, name).toBe(true);
      expect(textOf(refused), name).toMatch(/^Error 429: rate limit of 2 requests per minute exceeded/);
    }
    await c.close();
  });
});
