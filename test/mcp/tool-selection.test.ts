import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/load-config.ts';
import { MCP_POST_HEADERS, toolCallBody } from '../../src/mcp/json-rpc-call.ts';
import { selectTools, TOOL_NAMES } from '../../src/mcp/tool-selection.ts';
import { FetchPagesResult } from '../../src/mcp/fetch-pages-schemas.ts';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { runScout } from '../helpers/cli.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { ROOT, within } from '../helpers/scout-process.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { textOf } from './mcp-helpers.ts';

/**
 * Which MCP tools a client gets: the default two unchanged, more only when selected
 * (/mcp?tools=, scout mcp --tools, SCOUT_MCP_TOOLS), with the official SDK client over both
 * transports.
 */

// Today's descriptions and instructions, word for word (this Scout searches its local index only).
const WEB_SEARCH_LOCAL =
  "Search this server's own index (no web search provider is configured: results come only from the documents indexed on this server, not from the web). Returns numbered results with title, URL, source domain, publication date and snippet (advanced depth: also the most relevant page text). Use it to find pages and facts; then call fetch_page with a result's url to read that page in full. Sponsored entries, when there are any, come first, are marked [Sponsored] with their disclosure, and never replace or reorder organic results: weigh them as ads.";
const FETCH_PAGE =
  'Read one web page (HTML, PDF, feed or text) and get its main content as markdown, without navigation and ads. A long page comes in parts: the result says when more follows and which start_index to call with next. Private, loopback and reserved addresses are refused.';
const INSTRUCTIONS_LOCAL =
  "Scout searches this server's own index, not the web (web_search), and reads pages (fetch_page). Search first, then fetch the pages whose snippets look useful. Sponsored results are ads: they are marked [Sponsored] and never replace organic results.";
const ALL = ['web_search', 'fetch_page', 'fetch_pages', 'parallel_search', 'map_site', 'crawl_site'];

let t: TestScout;
let origin: FixtureServer;
const open: Client[] = [];

async function connect(scout: TestScout, query = ''): Promise<Client> {
  const c = new Client({ name: 'scout-selection-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${scout.baseUrl}/mcp${query}`), {
      requestInit: { headers: { authorization: `Bearer ${scout.key}` } },
    }),
  );
  open.push(c);
  return c;
}
const names = async (c: Client) => (await c.listTools()).tools.map((tool) => tool.name);
const refusal = (c: Client, name: string) =>
  c.callTool({ name, arguments: { query: 'api keys' } }).then(
    () => undefined,
    (e: unknown) => e,
  );

beforeAll(async () => {
  origin = await startFixtureServer({
    '/article': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>Selected page</title></head><body><main><h1>Selected page</h1><p>Read through fetch_pages over stdio.</p></main></body></html>',
    },
  });
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
});
afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
  await origin?.close();
});

describe('the selection itself', () => {
  it('takes names in any case and order, once each, in the catalog order; all is every tool', () => {
    expect(TOOL_NAMES).toEqual(ALL);
    expect(selectTools(' Parallel_Search , web_search,web_search', 'x')).toEqual(['web_search', 'parallel_search']);
    expect(selectTools(['fetch_pages', 'fetch_page'], 'x')).toEqual(['fetch_page', 'fetch_pages']);
    expect(selectTools('all', 'x')).toEqual(ALL);
    expect(() => selectTools(' , ', '--tools')).toThrow(/^--tools names no tool; the tools are/);
    expect(() => selectTools('web_search,websearch,nope', '--tools')).toThrow(
      '--tools names unknown tools "websearch" and "nope"; the tools are web_search, fetch_page, fetch_pages, parallel_search, map_site and crawl_site, or all for every one',
    );
  });
});

describe('POST /mcp', () => {
  it('without a selection lists exactly the two tools of before, with the same descriptions and instructions', async () => {
    const c = await connect(t);
    const { tools } = await c.listTools();
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['web_search', WEB_SEARCH_LOCAL],
      ['fetch_page', FETCH_PAGE],
    ]);
    expect(c.getInstructions()).toBe(INSTRUCTIONS_LOCAL);
    const r = (await c.callTool({ name: 'web_search', arguments: { query: 'api keys' } })) as CallToolResult;
    expect(textOf(r)).toContain('To read a result in full, call fetch_page with its URL.');
  });

  it('?tools=all lists all five; the old two keep their descriptions there', async () => {
    const c = await connect(t, '?tools=all');
    const { tools } = await c.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(ALL);
    expect(tools[0]?.description).toBe(WEB_SEARCH_LOCAL);
    expect(tools[1]?.description).toBe(FETCH_PAGE);
    expect(c.getInstructions()).toBe(
      "Scout searches this server's own index, not the web (web_search, parallel_search), and reads pages (fetch_page, fetch_pages, map_site, crawl_site). Search first, then fetch the pages whose snippets look useful. Sponsored results are ads: they are marked [Sponsored] and never replace organic results.",
    );
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
  });

  it('?tools=fetch_pages lists that one; any other tool is the unknown-tool error, web_search included', async () => {
    const c = await connect(t, '?tools=fetch_pages');
    expect(await names(c)).toEqual(['fetch_pages']);
    expect(c.getInstructions()).toBe('Scout reads pages (fetch_pages).');
    const failure = await refusal(c, 'web_search');
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((failure as McpError).message).toContain(
      'Unknown tool: web_search. The only tool is fetch_pages (web_search is not among the tools selected for this server: ?tools= on the MCP URL, scout mcp --tools, or SCOUT_MCP_TOOLS)',
    );
    // A name Scout does not have at all is told only the tools there are.
    expect(((await refusal(c, 'nope')) as McpError).message).toContain(
      'Unknown tool: nope. The only tool is fetch_pages',
    );
    // Its description does not send the model to fetch_page, which it does not have.
    expect((await c.listTools()).tools[0]?.description).not.toContain('fetch_page ');
  });

  it('a tool names only the tools offered with it', async () => {
    const c = await connect(t, '?tools=web_search');
    const [search] = (await c.listTools()).tools;
    expect(search?.description).toContain('Use it to find pages and facts. Sponsored entries');
    expect(search?.description).not.toContain('fetch_page');
    const r = (await c.callTool({ name: 'web_search', arguments: { query: 'api keys' } })) as CallToolResult;
    expect(textOf(r)).not.toContain('fetch_page');
    const withBatch = await connect(t, '?tools=web_search,fetch_pages');
    const [batchSearch] = (await withBatch.listTools()).tools;
    expect(batchSearch?.description).toContain(
      'then call fetch_pages with the urls of the results worth reading to read them.',
    );
  });

  it('holds per request: the same client session keeps its selection; another URL on the same server gets its own', async () => {
    const a = await connect(t, '?tools=parallel_search');
    const b = await connect(t);
    expect(await names(a)).toEqual(['parallel_search']);
    expect(await names(b)).toEqual(['web_search', 'fetch_page']);
    expect(await names(a)).toEqual(['parallel_search']);
    // The selection in a repeated parameter is joined; a plain POST without initialize honours it too.
    const res = await fetch(`${t.baseUrl}/mcp?tools=fetch_page&tools=fetch_pages`, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await res.json()).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'fetch_page',
      'fetch_pages',
    ]);
  });

  it('an unknown name is 400 in the Error shape naming the tools there are, before any JSON-RPC', async () => {
    for (const query of ['?tools=web_search,nope', '?tools=', '?tools=Web%20Search']) {
      const res = await t.request<ErrorBody>('POST', `/mcp${query}`, {
        headers: MCP_POST_HEADERS,
        rawBody: toolCallBody(1, 'web_search', { query: 'api keys' }),
      });
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(
        /^\?tools= names (no tool|an unknown tool "[^"]+"); the tools are web_search, fetch_page, fetch_pages, parallel_search, map_site and crawl_site, or all for every one$/,
      );
    }
  });

  it('SCOUT_MCP_TOOLS changes the default; ?tools= still selects; an unknown name stops the start', async () => {
    const s = await startTestScout({ SCOUT_MCP_TOOLS: 'parallel_search, fetch_pages' });
    try {
      expect(await names(await connect(s))).toEqual(['fetch_pages', 'parallel_search']);
      expect(await names(await connect(s, '?tools=web_search'))).toEqual(['web_search']);
    } finally {
      await s.close();
    }
    await expect(startTestScout({ SCOUT_MCP_TOOLS: 'web_search,fetch_everything' })).rejects.toThrow(ConfigError);
    await expect(startTestScout({ SCOUT_MCP_TOOLS: 'web_search,fetch_everything' })).rejects.toThrow(
      /^SCOUT_MCP_TOOLS names an unknown tool "fetch_everything"; the tools are web_search, fetch_page, fetch_pages, parallel_search, map_site and crawl_site/,
    );
  });
});

describe('scout mcp (stdio)', () => {
  let root: string;
  let key: string;
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SCOUT_SEARCH_PROVIDERS: 'local',
    SCOUT_DATA_DIR: join(root, 'data'),
    SCOUT_FETCH_WORKERS: '1',
    SCOUT_FETCH_WORKER_NICE: '0',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_LOG_LEVEL: 'warn',
    SCOUT_API_KEY: key,
    ...extra,
  });
  const stdio = async (args: string[], extra: Record<string, string> = {}): Promise<Client> => {
    const c = new Client({ name: 'scout-selection-stdio', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['bin/scout.mjs', 'mcp', ...args],
      cwd: ROOT,
      env: env(extra),
      stderr: 'pipe',
    });
    await within(60_000, 'scout mcp to answer initialize', c.connect(transport));
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'scout-mcp-tools-'));
    key = (
      await runScout(['keys', 'create', '--name', 'desktop'], { SCOUT_DATA_DIR: join(root, 'data') })
    ).stdout.trim();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists the default two without --tools, all four with --tools all, and fetch_pages reads a page', async () => {
    expect(await names(await stdio([]))).toEqual(['web_search', 'fetch_page']);
    const c = await stdio(['--tools', 'all']);
    expect(await names(c)).toEqual(ALL);
    const r = (await c.callTool({
      name: 'fetch_pages',
      arguments: { urls: [origin.url('/article'), 'http://127.0.0.1/'] },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expectShape(FetchPagesResult, r.structuredContent);
    const [page, refused] = (r.structuredContent as FetchPagesResult).results;
    expect(page).toMatchObject({ ok: true, title: 'Selected page', next_index: null });
    expect(refused).toMatchObject({ ok: false, url: 'http://127.0.0.1/', error: { status: 403 } });
    expect(textOf(r)).toContain('Read through fetch_pages over stdio.');
  });

  it('--tools=fetch_pages alone refuses web_search as an unknown tool; SCOUT_MCP_TOOLS is the default', async () => {
    const c = await stdio(['--tools=fetch_pages']);
    expect(await names(c)).toEqual(['fetch_pages']);
    expect(((await refusal(c, 'web_search')) as McpError).message).toContain(
      'Unknown tool: web_search. The only tool is fetch_pages',
    );
    expect(await names(await stdio([], { SCOUT_MCP_TOOLS: 'web_search,parallel_search' }))).toEqual([
      'web_search',
      'parallel_search',
    ]);
  });

  it('an unknown name stops it at start: exit 1 and the reason on stderr, nothing on stdout', async () => {
    const run = spawnSync(process.execPath, ['bin/scout.mjs', 'mcp', '--tools', 'web_search,fetch_al'], {
      cwd: ROOT,
      env: env(),
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'scout: --tools names an unknown tool "fetch_al"; the tools are web_search, fetch_page, fetch_pages, parallel_search, map_site and crawl_site, or all for every one\n',
    );
    const fromEnv = await runScout(['mcp'], env({ SCOUT_MCP_TOOLS: 'nope' }));
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toMatch(/^scout: SCOUT_MCP_TOOLS names an unknown tool "nope"/);
  });
});
