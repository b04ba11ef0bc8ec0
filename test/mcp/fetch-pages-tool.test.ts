import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchPagesResult, type PageRead } from '../../src/mcp/fetch-pages-schemas.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { defined } from '../helpers/defined.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { ROOT, within } from '../helpers/scout-process.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { QUESTION_PAGES, questionHtml } from '../http/extract-questions.ts';
import { longArticle, resultSize, textOf } from './mcp-helpers.ts';

/**
 * fetch_pages over POST /mcp?tools=… with the official SDK client (which checks each
 * structuredContent against the tool's outputSchema), on loopback fixture pages the operator
 * allowlist lets through (127.0.0.2/32; 127.0.0.1 stays refused).
 */

const LIMIT = 2000;
let t: TestScout;
let origin: FixtureServer;
const open: Client[] = [];

async function connect(scout: TestScout, tools = 'fetch_page,fetch_pages'): Promise<Client> {
  const c = new Client({ name: 'scout-fetch-pages-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${scout.baseUrl}/mcp?tools=${tools}`), {
      requestInit: { headers: { authorization: `Bearer ${scout.key}` } },
    }),
  );
  open.push(c);
  return c;
}
async function call(c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  // Every result stays within the bound ("about": see result-tokens.ts).
  expect(resultSize(r)).toBeLessThanOrEqual(Math.floor(LIMIT * 1.05));
  return r;
}
const pages = (r: CallToolResult) => {
  expectShape(FetchPagesResult, r.structuredContent);
  return (r.structuredContent as FetchPagesResult).results;
};
const read = (entry: unknown): PageRead => {
  expect(entry).toMatchObject({ ok: true });
  return entry as PageRead;
};

beforeAll(async () => {
  origin = await startFixtureServer({
    '/article': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>Short page</title></head><body><main><h1>Short page</h1><p>A short page that fits whole beside long ones.</p></main></body></html>',
    },
    // Routes match without the query string: /long?1 and /long?2 are two URLs of one long page.
    '/long': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: longArticle(120) },
    ...Object.fromEntries(
      QUESTION_PAGES.map((p) => [p.path, { headers: { 'content-type': 'text/html' }, body: questionHtml(p) }]),
    ),
  });
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_MCP_MAX_RESULT_TOKENS: String(LIMIT),
  });
});
afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
  await origin?.close();
});

describe('fetch_pages', () => {
  it('answers one outcome per URL in their order: a page, a refused address, a long page cut with where to continue', async () => {
    const c = await connect(t);
    const urls = [origin.url('/article'), 'http://127.0.0.1/', origin.url('/long')];
    const r = await call(c, 'fetch_pages', { urls });
    expect(r.isError).toBeFalsy();
    const [short, refused, long] = pages(r);
    expect([short, refused, long].map((p) => p?.url)).toEqual(urls);

    expect(read(short)).toMatchObject({
      title: 'Short page',
      start_index: 0,
      next_index: null,
      truncated: false,
      meta: { content_type: 'text/html' },
    });
    expect(read(short).content).toContain('A short page that fits whole beside long ones.');
    expect(read(short).chars).toBe(read(short).total_chars);

    // Refused as fetch_page refuses it, with the same words.
    expect(refused).toMatchObject({ ok: false, error: { status: 403 } });
    const alone = await call(c, 'fetch_page', { url: 'http://127.0.0.1/' });
    expect(textOf(r)).toContain(`### 2. http://127.0.0.1/\n${textOf(alone)}`);

    // The long page: an exact prefix of what /v1/fetch reads, and the start_index to go on from.
    const whole = (await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: urls[2], max_chars: 200000 } }))
      .body;
    const part = read(long);
    expect(part.truncated).toBe(true);
    expect(part.chars).toBeGreaterThan(0);
    expect(part.content).toBe(whole.content.slice(0, part.chars));
    expect(part.total_chars).toBe(whole.content.length);
    expect(part.next_index).toBe(part.chars);
    expect(textOf(r)).toContain(
      `More content follows (parts are kept within ${LIMIT} tokens, shared by 3 pages): call fetch_page with url "${urls[2]}" and start_index=${part.chars} to read the next part.`,
    );
    // fetch_page goes on exactly where it stopped.
    const next = await call(c, 'fetch_page', { url: urls[2], start_index: part.next_index });
    const nextPart = next.structuredContent as FetchResponse;
    expect(whole.content.slice(part.chars).startsWith(nextPart.content)).toBe(true);
    expect(textOf(r)).toMatch(/^## 3 pages: 2 read, 1 failed\n/);
  });

  it('shares the bound fairly: a short page stays whole, long ones get equal parts', async () => {
    const c = await connect(t);
    const urls = [origin.url('/long?1'), origin.url('/article'), origin.url('/long?2'), origin.url('/long?3')];
    const [a, short, b, d] = pages(await call(c, 'fetch_pages', { urls })).map(read);
    expect(defined(short, 'the short page').next_index).toBeNull();
    const longs = [a, b, d].map((p) => defined(p, 'a long page'));
    for (const p of longs) expect(p.next_index).toBe(p.chars);
    // The same page, the same share: within a paragraph of each other.
    const sizes = longs.map((p) => p.chars);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(400);
    // max_chars applies to each page; a page cut by it alone says so without the bound.
    const small = await call(c, 'fetch_pages', { urls: [origin.url('/long')], max_chars: 500 });
    const [cut] = pages(small).map(read);
    expect(cut?.chars).toBeLessThanOrEqual(500);
    expect(textOf(small)).toContain(`More content follows: call fetch_page with url "${origin.url('/long')}"`);
  });

  it('with query: each page answers with its passages most relevant to it, the one holding the answer among them', async () => {
    const c = await connect(t);
    for (const q of QUESTION_PAGES) {
      const r = await call(c, 'fetch_pages', { urls: [origin.url(q.path), 'http://127.0.0.1/'], query: q.question });
      expect(r.isError, textOf(r)).toBeFalsy();
      const [page, refused] = pages(r);
      const passages = read(page).passages ?? [];
      expect(passages.length).toBeGreaterThan(0);
      expect(
        passages.some((p) => p.text.includes(q.answer)),
        q.path,
      ).toBe(true);
      expect(refused).toMatchObject({ ok: false, error: { status: 403 } });
      expect(textOf(r)).toContain(q.answer);
      expect(textOf(r)).toContain(`relevant to "${q.question}"`);
    }
    // Seven pages of up to twenty passages each cannot fit 2000 tokens: each keeps its best ones, and says so.
    const urls = [...QUESTION_PAGES.map((q) => origin.url(q.path)), origin.url('/long')];
    const r = await call(c, 'fetch_pages', { urls, query: 'the page', max_passages: 20 });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain('fewer than asked: the result is kept within the token limit');
    // The passages are the page's own text, where they say.
    const whole = (
      await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url: origin.url('/long'), max_chars: 200000 } })
    ).body.content;
    for (const p of read(pages(r).at(-1)).passages ?? [])
      expect(whole.slice(p.start_index, p.start_index + p.chars)).toBe(p.text);
  });

  it('refuses arguments it cannot honour, with the rule', async () => {
    const c = await connect(t);
    const many = Array.from({ length: 11 }, (_, i) => origin.url(`/article?${i}`));
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ urls: [] }, /^Error 400: urls must be a list of 1 to 10 different absolute http\(s\) URLs/],
      [{ urls: many }, /^Error 400: urls must be a list of 1 to 10/],
      [
        { urls: [origin.url('/article'), origin.url('/article')] },
        /^Error 400: urls must be a list of 1 to 10 different/,
      ],
      [{ urls: origin.url('/article') }, /^Error 400: urls must be a list/],
      [{ urls: [origin.url('/article')], search: 'x' }, /^Error 400: unknown field "search" in the arguments/],
      [{ urls: [origin.url('/article')], max_passages: 2 }, /^Error 400: max_passages needs query/],
      [{ urls: [origin.url('/article')], query: '' }, /^Error 400: query must be a string of 1 to 400 characters/],
      [{}, /^Error 400: urls is required/],
    ];
    for (const [args, message] of cases) {
      const r = await call(c, 'fetch_pages', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(message);
    }
    // Null is an argument left out, as for every tool.
    const r = await call(c, 'fetch_pages', { urls: [origin.url('/article')], max_chars: null });
    expect(r.isError).toBeFalsy();
  });

  it('takes one request per URL from the rate limit, all or none', async () => {
    const s = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '2', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
    try {
      const c = await connect(s);
      const url = (i: number) => origin.url(`/article?${i}`);
      // More than the whole bucket: 400, and nothing is taken.
      const over = await c.callTool({ name: 'fetch_pages', arguments: { urls: [url(1), url(2), url(3)] } });
      expect(textOf(over as CallToolResult)).toBe(
        'Error 400: this call takes 3 requests of the rate limit at once (one per page or query), more than the 2 a minute it allows; send at most 2 per call. Fix the arguments named above and call again.',
      );
      const both = (await c.callTool({ name: 'fetch_pages', arguments: { urls: [url(1), url(2)] } })) as CallToolResult;
      expect(both.isError, textOf(both)).toBeFalsy();
      expect(pages(both).map((p) => p.ok)).toEqual([true, true]);
      // The bucket is empty now (it refills one request every 30 s): the next call is refused whole.
      const again = (await c.callTool({
        name: 'fetch_pages',
        arguments: { urls: [url(3), url(4)] },
      })) as CallToolResult;
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(
        /^Error 429: rate limit of 2 requests per minute exceeded \(this call takes 2 at once, one per page or query\); retry in \d+ s\. Rate limited: wait \d+ s, then call again\.$/,
      );
      expect(again.structuredContent).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('through scout mcp in front of a Scout URL: each page is one /v1/fetch that server charges', async () => {
    const s = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '2', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
    try {
      const c = new Client({ name: 'scout-fetch-pages-stdio', version: '1.0.0' });
      await within(
        60_000,
        'scout mcp to answer initialize',
        c.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: ['bin/scout.mjs', 'mcp', '--tools', 'fetch_pages'],
            cwd: ROOT,
            env: {
              PATH: process.env.PATH ?? '',
              HOME: process.env.HOME ?? '',
              SCOUT_URL: s.baseUrl,
              SCOUT_API_KEY: s.key,
              SCOUT_LOG_LEVEL: 'warn',
            },
            stderr: 'pipe',
          }),
        ),
      );
      open.push(c);
      const urls = [origin.url('/article?a'), origin.url('/article?b'), origin.url('/article?c')];
      const r = (await c.callTool({ name: 'fetch_pages', arguments: { urls } })) as CallToolResult;
      // Two requests in the server's bucket: two pages read, the third refused by it on its own.
      const outcomes = pages(r);
      expect(outcomes.filter((p) => p.ok)).toHaveLength(2);
      expect(outcomes.filter((p) => !p.ok)).toEqual([
        expect.objectContaining({ ok: false, error: expect.objectContaining({ status: 429 }) }),
      ]);
    } finally {
      await s.close();
    }
  });
});
