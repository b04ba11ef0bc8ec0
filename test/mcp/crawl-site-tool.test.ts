import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlResponse } from '../../src/schemas/crawl.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite } from '../map/map-fixture.ts';
import { resultSize, textOf } from './mcp-helpers.ts';

/**
 * crawl_site over POST /mcp?tools=… with the official SDK client (which checks structuredContent
 * against the outputSchema), on a loopback fixture site the operator allowlist lets through.
 */

const LIMIT = 3000;
let t: TestScout;
let site: Site;
const open: Client[] = [];

async function connect(tools?: string): Promise<Client> {
  const c = new Client({ name: 'scout-crawl-site-test', version: '1.0.0' });
  const url = new URL(`${t.baseUrl}/mcp${tools === undefined ? '' : `?tools=${tools}`}`);
  await c.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${t.key}` } } }),
  );
  open.push(c);
  return c;
}

/** A page of about 8,000 characters: three of them cannot fit in the bound whole. */
const long = (title: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title></head><body><main>${Array.from(
    { length: 80 },
    (_, i) => `<p>${title}, paragraph ${i + 1}: words that a crawl returns and a bound shares out.</p>`,
  ).join('')}</main></body></html>`,
});

beforeAll(async () => {
  site = await startMapSite({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n' },
    '/': html('Home', ['/docs/one', '/private/x', '/docs/two']),
    '/docs/one': html('Guide one', ['/docs/two', '/']),
    '/docs/two': html('Guide two'),
    '/long/': html('Long pages', ['/long/a', '/long/b']),
    '/long/a': long('Long A'),
    '/long/b': long('Long B'),
  });
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_MAP_DELAY_MS: '0',
    SCOUT_MCP_MAX_RESULT_TOKENS: String(LIMIT),
  });
});
afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
  await site?.server.close();
});

describe('crawl_site', () => {
  it('is offered only when selected, and names fetch_page only when it is offered', async () => {
    const names = async (c: Client) => (await c.listTools()).tools.map((x) => x.name);
    expect(await names(await connect())).not.toContain('crawl_site');
    const withReader = (await (await connect('crawl_site,fetch_page')).listTools()).tools;
    expect(withReader.find((x) => x.name === 'crawl_site')?.description).toContain('fetch_page');
    const alone = (await (await connect('crawl_site')).listTools()).tools;
    const tool = alone.find((x) => x.name === 'crawl_site');
    expect(tool?.description).not.toContain('fetch_page');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
  });

  it('crawls a site breadth first, robots.txt honoured, pages in crawl order', async () => {
    const c = await connect('crawl_site');
    const r = (await c.callTool({
      name: 'crawl_site',
      arguments: { url: `${site.origin}/`, max_depth: 2, include_paths: null },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expectShape(CrawlResponse, r.structuredContent);
    const body = r.structuredContent as CrawlResponse;
    expect(body.pages.map((p) => p.url)).toEqual([
      `${site.origin}/`,
      `${site.origin}/docs/one`,
      `${site.origin}/docs/two`,
    ]);
    expect(body.complete).toBe(true);
    expect(body.skipped).toContainEqual({ url: `${site.origin}/private/x`, reason: 'disallowed by robots.txt' });
    const text = textOf(r);
    expect(text).toContain(`## Crawl of ${site.origin}/: 3 pages (complete)`);
    expect(text).toContain('### 2. (depth 1) Guide one');
    expect(text).toContain('Guide two: a page of the fixture site.');
    expect(site.log.filter((p) => p.startsWith('/private'))).toEqual([]);
  });

  it('shares the result bound across long pages, each cut page giving where to read on', async () => {
    const c = await connect('crawl_site,fetch_page');
    const r = (await c.callTool({ name: 'crawl_site', arguments: { url: `${site.origin}/long/` } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(resultSize(r)).toBeLessThanOrEqual(Math.floor(LIMIT * 1.05));
    const body = r.structuredContent as CrawlResponse;
    expectShape(CrawlResponse, body);
    const cutPages = body.pages.filter((p) => p.next_index !== null);
    expect(cutPages.length).toBeGreaterThan(0);
    for (const p of cutPages) {
      expect(p.truncated).toBe(true);
      expect(p.next_index).toBe(p.chars);
      expect(textOf(r)).toContain(`call fetch_page with url "${p.url}" and start_index=${p.next_index}`);
    }
    // What fetch_page reads on from is the rest of the very page.
    const first = cutPages[0];
    const next = (await c.callTool({
      name: 'fetch_page',
      arguments: { url: first?.url, start_index: first?.next_index },
    })) as CallToolResult;
    expect(next.isError).toBeFalsy();
    expect(textOf(next)).toContain(`characters ${first?.next_index?.toLocaleString('en-US')} to`);
  });

  it('answers invalid arguments as a tool error', async () => {
    const c = await connect('crawl_site');
    for (const args of [
      { url: `${site.origin}/`, limit: 101 },
      { url: `${site.origin}/`, query: 'x' },
    ]) {
      const r = (await c.callTool({ name: 'crawl_site', arguments: args })) as CallToolResult;
      expect(r.isError, JSON.stringify(args)).toBe(true);
    }
  });
});
