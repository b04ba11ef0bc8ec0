import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParallelSearchResult, SearchDone } from '../../src/mcp/parallel-search-schemas.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import type { Usage } from '../../src/schemas/usage.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { offline, organicUrls, quillwortPages, SHOES, TODAY, untilSponsored } from '../http/compat-kit.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';
import { resultSize, textOf } from './mcp-helpers.ts';

/**
 * parallel_search over POST /mcp?tools=… with the official SDK client (which checks each
 * structuredContent against the tool's outputSchema), on a local index of documents imported
 * here: grouped per query, each group what web_search answers for that query.
 */

let t: TestScout;
const open: Client[] = [];

async function connect(scout: TestScout, tools = 'web_search,parallel_search'): Promise<Client> {
  const c = new Client({ name: 'scout-parallel-search-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${scout.baseUrl}/mcp?tools=${tools}`), {
      requestInit: { headers: { authorization: `Bearer ${scout.key}` } },
    }),
  );
  open.push(c);
  return c;
}
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;
const searches = (r: CallToolResult) => (r.structuredContent as ParallelSearchResult).searches;
const done = (entry: unknown): SearchResponse => {
  expect(entry).toMatchObject({ ok: true });
  return (entry as SearchDone).response;
};
const unitsUsed = async (s: TestScout) => (await s.request<Usage>('GET', '/v1/usage')).body.budget.units_used;

beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000' }, offline());
  t.scout.index.upsert([...quillwortPages(14), ...SHOES]);
});
afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
});

describe('parallel_search', () => {
  it("answers grouped per query, in their order, each group web_search's organic order for that query", async () => {
    const c = await connect(t);
    const queries = ['quillwort lakes', 'running shoes', 'cold lakes edge'];
    const r = await call(c, 'parallel_search', { queries, max_results: 5 });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(searches(r).map((s) => s.query)).toEqual(queries);
    for (const [i, query] of queries.entries()) {
      const group = done(searches(r)[i]);
      const alone = (await call(c, 'web_search', { query, max_results: 5 })).structuredContent as SearchResponse;
      expect(organicUrls(group), query).toEqual(organicUrls(alone));
      expect(organicUrls(group).length, query).toBeGreaterThan(0);
    }
    const text = textOf(r);
    const headings = queries.map((q) => text.indexOf(`## Web search: "${q}"`));
    expect(headings.every((at) => at > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(text).toMatch(/^# 3 searches\n/);
    // No reading tool offered here: no line sends the model to one.
    expect(text).not.toContain('fetch_page');
  });

  it('applies the options to every query', async () => {
    const c = await connect(t);
    const r = await call(c, 'parallel_search', {
      queries: ['quillwort', 'cold lakes'],
      include_domains: ['plants1.example', 'plants3.example', 'plants4.example'],
      freshness: 'week',
    });
    for (const s of searches(r)) {
      const results = done(s).results;
      expect(results.length, s.query).toBeGreaterThan(0);
      // Only the odd pages are dated today; of the three domains, plants4 is not.
      for (const x of results) {
        expect(['plants1.example', 'plants3.example']).toContain(x.domain);
        expect(x.published_date?.slice(0, 10)).toBe(TODAY);
      }
    }
  });

  it('labels sponsored entries in their group as web_search does, organic results untouched', async () => {
    await t.scout.sponsored.admin.create(campaignFile());
    await untilSponsored(t, 'running shoes');
    const c = await connect(t, 'web_search,fetch_page,parallel_search');
    const r = await call(c, 'parallel_search', { queries: ['quillwort lakes', 'running shoes'] });
    const [plants, shoes] = searches(r).map(done);
    expect(plants?.meta.sponsored_count).toBe(0);
    expect(shoes?.results[0]).toMatchObject({ type: 'sponsored', disclosure: 'Sponsored · Acme' });
    const alone = (await call(c, 'web_search', { query: 'running shoes' })).structuredContent as SearchResponse;
    expect(organicUrls(shoes as SearchResponse)).toEqual(organicUrls(alone));
    const text = textOf(r);
    expect(text).toContain(
      '### [Sponsored 1] Acme trail running shoes\nDisclosure: Sponsored · Acme. This is a paid placement (an ad), not a search result.',
    );
    expect(text.endsWith('To read a result in full, call fetch_page with its URL.')).toBe(true);
    expect(text.split('To read a result in full').length).toBe(2);
  });

  it('costs one search unit per query from the monthly budget', async () => {
    const c = await connect(t);
    const before = await unitsUsed(t);
    const r = await call(c, 'parallel_search', { queries: ['quillwort budget one', 'quillwort budget two'] });
    expect(r.isError).toBeFalsy();
    expect(await unitsUsed(t)).toBe(before + 2);
  });

  it('refuses arguments it cannot honour, with the rule', async () => {
    const c = await connect(t);
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { queries: ['one'] },
        /^Error 400: queries must be a list of 2 to 5 different queries, each 1 to 400 characters/,
      ],
      [{ queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, /^Error 400: queries must be a list of 2 to 5/],
      [{ queries: ['same', 'same'] }, /^Error 400: queries must be a list of 2 to 5 different/],
      [{ queries: ['a', ''] }, /^Error 400: queries must be/],
      [{ queries: ['a', 'b'], search_depth: 'advanced' }, /^Error 400: unknown field "search_depth" in the arguments/],
      [{ queries: ['a', 'b'], max_results: 21 }, /^Error 400: max_results must be an integer from 1 to 20/],
      [{ query: 'a' }, /^Error 400: queries is required and must be a list of 2 to 5 different queries/],
    ];
    for (const [args, message] of cases) {
      const r = await call(c, 'parallel_search', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(message);
    }
  });
});

describe('parallel_search within its limits', () => {
  it('keeps the whole result within the bound, every group there and shortened alike', async () => {
    const s = await startTestScout({ SCOUT_MCP_MAX_RESULT_TOKENS: '2000' });
    try {
      s.scout.index.upsert(quillwortPages(14));
      const c = await connect(s);
      const queries = ['quillwort', 'quillwort lakes', 'cold lakes', 'quillwort notes', 'edge of cold lakes'];
      const r = await call(c, 'parallel_search', { queries, max_results: 20 });
      expect(resultSize(r)).toBeLessThanOrEqual(2100);
      expect(searches(r).map((g) => g.query)).toEqual(queries);
      for (const [i, query] of queries.entries()) {
        const group = done(searches(r)[i]);
        // Shortened from the end: what is left is the head of web_search's ranking.
        const alone = (await call(c, 'web_search', { query, max_results: 20 })).structuredContent as SearchResponse;
        expect(organicUrls(alone).slice(0, organicUrls(group).length)).toEqual(organicUrls(group));
      }
      expect(textOf(r)).toContain('Results were shortened to stay within');
    } finally {
      await s.close();
    }
  });

  it('takes one request per query from the rate limit; a failed query does not fail the others', async () => {
    const s = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '3', SCOUT_MONTHLY_SEARCH_BUDGET: '1' });
    try {
      const c = await connect(s);
      // Two requests of three; one budget unit for two searches: one answered, one refused.
      const r = await call(c, 'parallel_search', { queries: ['api keys', 'fetching pages'] });
      expect(r.isError).toBeFalsy();
      const outcomes = searches(r);
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(outcomes.filter((o) => !o.ok)).toEqual([
        expect.objectContaining({ ok: false, error: expect.objectContaining({ status: 503 }) }),
      ]);
      expect(textOf(r)).toMatch(/^# 2 searches \(1 failed\)\n/);
      expect(textOf(r)).toContain('(failed)\nError 503: the monthly free search budget (1 units) is exhausted');
      // One request left (the bucket refills one every 20 s): two queries are refused whole.
      const again = await call(c, 'parallel_search', { queries: ['api keys', 'fetching pages'] });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(
        /^Error 429: rate limit of 3 requests per minute exceeded \(this call takes 2 at once, one per page or query\)/,
      );
    } finally {
      await s.close();
    }
  });
});
