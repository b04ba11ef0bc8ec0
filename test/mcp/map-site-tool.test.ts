import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapResponse } from '../../src/schemas/map.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite, urlset } from '../map/map-fixture.ts';
import { resultSize, textOf } from './mcp-helpers.ts';

/**
 * map_site over POST /mcp?tools=… with the official SDK client (which checks structuredContent
 * against the outputSchema), on a loopback fixture site the operator allowlist lets through.
 */

const LIMIT = 2000;
let t: TestScout;
let site: Site;
const open: Client[] = [];

async function connect(tools?: string): Promise<Client> {
  const c = new Client({ name: 'scout-map-site-test', version: '1.0.0' });
  const url = new URL(`${t.baseUrl}/mcp${tools === undefined ? '' : `?tools=${tools}`}`);
  await c.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${t.key}` } } }),
  );
  open.push(c);
  return c;
}

const many = Array.from({ length: 400 }, (_, i) => `/guides/topic-${i}/a-rather-long-page-name-${i}`);

beforeAll(async () => {
  site = await startMapSite({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n' },
    '/sitemap.xml': {
      type: 'application/xml',
      body: (o) =>
        urlset([`${o.self}/`, `${o.self}/docs/pricing`, `${o.self}/private/x`, ...many.map((p) => o.self + p)]),
    },
    '/': html('Home', ['/docs/pricing', '/about']),
    '/docs/pricing': html('Pricing'),
    '/about': html('About us'),
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

describe('map_site', () => {
  it('is offered only when selected', async () => {
    const names = async (c: Client) => (await c.listTools()).tools.map((x) => x.name);
    expect(await names(await connect())).not.toContain('map_site');
    const tools = (await (await connect('map_site,fetch_page')).listTools()).tools;
    const tool = tools.find((x) => x.name === 'map_site');
    expect(tool?.description).toContain('then read them with fetch_page');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
  });

  it('maps a site, robots.txt honoured, a search narrowing it', async () => {
    const c = await connect('map_site');
    const r = (await c.callTool({
      name: 'map_site',
      arguments: { url: `${site.origin}/`, search: 'pricing', include_paths: null },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expectShape(MapResponse, r.structuredContent);
    const body = r.structuredContent as MapResponse;
    expect(body.results.map((x) => x.url)).toEqual([`${site.origin}/docs/pricing`]);
    expect(body.results[0]?.title).toBe('Pricing');
    expect(body.complete).toBe(true);
    expect(textOf(r)).toContain(`- ${site.origin}/docs/pricing — Pricing`);
    expect(textOf(r)).toContain('(complete)');
  });

  it('keeps a long map within the result bound and says how much did not fit', async () => {
    const c = await connect('map_site');
    const r = (await c.callTool({
      name: 'map_site',
      arguments: { url: `${site.origin}/`, sitemap: 'only', limit: 1000 },
    })) as CallToolResult;
    expect(resultSize(r)).toBeLessThanOrEqual(Math.floor(LIMIT * 1.05));
    const body = r.structuredContent as MapResponse;
    expectShape(MapResponse, body);
    expect(body.results.length).toBeGreaterThan(5);
    expect(body.results.length).toBeLessThan(many.length + 1);
    expect(body.complete).toBe(false);
    expect(body.stopped).toBe('limit');
    const cut = many.length + 2 - body.results.length;
    expect(textOf(r)).toContain(`${cut} more URLs found did not fit in this result`);
    expect(body.results.some((x) => x.url.includes('/private/'))).toBe(false);
  });

  it('answers invalid arguments as a tool error', async () => {
    const c = await connect('map_site');
    const r = (await c.callTool({
      name: 'map_site',
      arguments: { url: `${site.origin}/`, limit: 0 },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('limit');
  });
});
