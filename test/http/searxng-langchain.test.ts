import { SearxngSearch } from '@langchain/community/tools/searxng_search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';
import { offline, organicUrls, quillwortPages, SHOES, untilSponsored } from './compat-kit.ts';

/**
 * LangChain's SearxngSearch (@langchain/community), unmodified, against a real Scout on
 * loopback. It POSTs `<apiBase>/search?q=…&numResults=10&pageNumber=1&format=json&…` with
 * `content-type: application/json` and no body, and joins the results' JSON into one string.
 */

interface ToolResult {
  title: string;
  link: string;
  snippet: string;
}

/** The tool's answer: result objects as JSON, joined with commas. */
const parsed = (out: string): ToolResult[] => JSON.parse(`[${out}]`) as ToolResult[];

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_PATH_KEYS: 'true' }, offline());
  t.scout.index.upsert([...quillwortPages(14), ...SHOES]);
  await t.scout.sponsored.admin.create(campaignFile());
  await untilSponsored(t, 'running shoes');
});
afterAll(() => t?.close());

describe('SearxngSearch from @langchain/community', () => {
  it('with the key in a header: the same organic results, in the same order, as /v1/search', async () => {
    const tool = new SearxngSearch({ apiBase: t.baseUrl, headers: { 'x-api-key': t.key } });
    const results = parsed(await tool.invoke('quillwort lakes'));
    const v1 = await t.request<SearchResponse>('GET', '/v1/search?q=quillwort%20lakes');
    expect(results.map((r) => r.link)).toEqual(organicUrls(v1.body));
    expect(results).toHaveLength(10);
    expect(results[0]?.title).toMatch(/^Quillwort notes \d+$/);
    expect(results[0]?.snippet).toContain('grows at the edge of cold lakes');
  });

  it('with the key in the base URL (path keys on): the same answer', async () => {
    const byHeader = new SearxngSearch({ apiBase: t.baseUrl, headers: { 'x-api-key': t.key } });
    const byPath = new SearxngSearch({ apiBase: `${t.baseUrl}/k/${t.key}` });
    expect(await byPath.invoke('quillwort lakes')).toBe(await byHeader.invoke('quillwort lakes'));
  });

  it('keeps its numResults: fewer results when asked for fewer', async () => {
    const tool = new SearxngSearch({ apiBase: t.baseUrl, headers: { 'x-api-key': t.key }, params: { numResults: 3 } });
    expect(parsed(await tool.invoke('quillwort lakes'))).toHaveLength(3);
  });

  it('shows the sponsored entry first, saying it is an ad, organic results after it unchanged', async () => {
    const tool = new SearxngSearch({ apiBase: t.baseUrl, headers: { 'x-api-key': t.key } });
    const results = parsed(await tool.invoke('running shoes'));
    const v1 = await t.request<SearchResponse>('GET', '/v1/search?q=running%20shoes');
    const [first, ...rest] = results;
    expect(first?.title).toMatch(/^Sponsored: /);
    expect(first?.snippet).toMatch(/an ad, not a search result/);
    expect(rest.map((r) => r.link)).toEqual(organicUrls(v1.body));
  });

  it('fails as the tool fails on any SearXNG error when the key is missing: 401 Unauthorized', async () => {
    const tool = new SearxngSearch({ apiBase: t.baseUrl });
    await expect(tool.invoke('quillwort lakes')).rejects.toThrow('Unauthorized');
  });
});

describe('a JSON Content-Type on no body, as SearxngSearch sends it', () => {
  it('is a SearXNG search with the query string’s parameters, never a Tavily body', async () => {
    const res = await fetch(`${t.baseUrl}/search?q=quillwort%20lakes&format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.key },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: unknown[]; number_of_results: number };
    expect(body.results).toHaveLength(10);
  });

  it('leaves a JSON body that is present but empty-looking a Tavily body: {} without a query is 400', async () => {
    const res = await fetch(`${t.baseUrl}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ detail: { error: expect.stringMatching(/query/) } });
  });

  it('leaves /v1/search strict: a JSON Content-Type with no body is still 400 there', async () => {
    const res = await fetch(`${t.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.key },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { status: 400, message: expect.stringMatching(/empty/) } });
  });
});
