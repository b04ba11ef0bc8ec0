import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens as reference } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentStage, type FetchPageContent } from '../../src/content/content-stage.ts';
import { createFetchService, type FetchService } from '../../src/fetch/fetch-service.ts';
import type { ProviderResult, SearchQuery } from '../../src/search/search-types.ts';
import { extractDocument } from '../../src/extract/extract-document.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { defined } from '../helpers/defined.ts';
import { makeArticle, type Article } from './article-pages.ts';

const tokens = (text: string): number => reference(text, { disallowedSpecial: new Set() });
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const TOPIC = ['glacier', 'meltwater', 'albedo'];

const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'glacier albedo survey',
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth: 'advanced',
  ...over,
});
const hit = (url: string, over: Partial<ProviderResult> = {}): ProviderResult => ({
  title: `t ${url}`,
  url,
  content: `snippet of ${url}`,
  ...over,
});

let site: FixtureServer;
let fetcher: FetchService;
let fetchPage: FetchPageContent;
let refusedPort: number;
const articles: Article[] = [];
const article = (i: number): Article => defined(articles[i], `article ${i}`);
const pendingSlow: http.ServerResponse[] = [];

beforeAll(async () => {
  for (let i = 0; i < 4; i += 1) articles.push(makeArticle({ seed: i + 1, topic: TOPIC, kb: 20 + i * 10 }));
  site = await startFixtureServer({
    ...Object.fromEntries(articles.map((a, i) => [`/a${i}`, { headers: HTML, body: a.html }])),
    '/missing': { status: 404, headers: HTML, body: '<p>gone</p>' },
    // Never answers: only the stage's deadline can end the wait for it.
    '/slow': (_req, res) => {
      pendingSlow.push(res);
    },
    '/tiny0': {
      headers: HTML,
      body: '<html><body><article><p>The glacier albedo survey, first tiny page.</p></article></body></html>',
    },
    '/tiny1': {
      headers: HTML,
      body: '<html><body><article><p>The glacier albedo survey, second tiny page.</p></article></body></html>',
    },
    '/delayed': (_req, res) => {
      setTimeout(() => res.writeHead(200, HTML).end(article(0).html), 20);
    },
  });
  // A port on the allowed address with nothing listening: connection refused.
  const probe = http.createServer().listen(0, '127.0.0.2');
  await new Promise((resolve) => probe.once('listening', resolve));
  refusedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  // Long fetch timeout on purpose: the stage's own deadline must be what ends a slow page.
  fetcher = createFetchService({
    allowCidrs: ['127.0.0.2/32'],
    timeoutMs: 60_000,
    extract: extractDocument,
    resolver: async () => [],
  });
  fetchPage = (url) => fetcher.fetch({ url, maxChars: 200_000 });
});

afterAll(async () => {
  await site.close();
  await fetcher.close();
});

describe('advanced depth over the fetch pipeline', () => {
  it('puts each page main content in raw_content and matching passages in extra_snippets', async () => {
    const stage = createContentStage({ fetchPage });
    const input = [hit(site.url('/a0')), hit(site.url('/a1'))];
    const out = await stage.apply(query({ maxContentTokens: 32_000 }), input);
    for (const [i, r] of out.entries()) {
      const asked = defined(input[i], `input ${i}`);
      const page = await fetchPage(asked.url, new AbortController().signal);
      expect(r.rawContent).toBe(page.content.trim());
      for (const fact of article(i).facts) expect(r.rawContent).toContain(fact);
      expect(r.rawContent).not.toContain('cookies');
      expect(r.extraSnippets?.length).toBeGreaterThan(0);
      expect(r.extraSnippets?.length).toBeLessThanOrEqual(3);
      for (const p of r.extraSnippets ?? []) expect(p.toLowerCase()).toMatch(/glacier|albedo|survey/);
      expect(r.extraSnippets?.some((p) => p.includes(defined(article(i).facts[1], 'a second fact')))).toBe(true);
      expect(r.content).toBe(asked.content);
    }
  });

  it('keeps the basic fields of pages that fail (404, refused address, refused connection) and never reorders', async () => {
    const errors: string[] = [];
    const stage = createContentStage({ fetchPage, onPageError: (url) => errors.push(url) });
    const input = [
      hit(site.url('/missing'), { extraSnippets: ['provider snippet'] }),
      hit(site.url('/a0')),
      hit(`http://127.0.0.1:${site.port}/a1`),
      hit(`http://127.0.0.2:${refusedPort}/a2`),
      hit('not a url'),
    ];
    const out = await stage.apply(query(), input);
    expect(out.map((r) => r.url)).toEqual(input.map((r) => r.url));
    expect(out[0]).toEqual(input[0]);
    expect(out[2]).toEqual(input[2]);
    expect(out[3]).toEqual(input[3]);
    expect(out[4]).toEqual(input[4]);
    expect(out[1]?.rawContent).toContain(defined(article(0).facts[0], 'a first fact'));
    expect(errors.sort()).toEqual([input[0]?.url, input[2]?.url, input[3]?.url, input[4]?.url].sort());
  });

  it('uses stored text instead of fetching, and fetches nothing for such results', async () => {
    const stored = `# Stored page\n\nThe glacier albedo survey is stored in the local index.\n\n${'More stored words here. '.repeat(20)}`;
    const before = site.requests.length;
    const stage = createContentStage({ fetchPage });
    const [r] = await stage.apply(query(), [hit(site.url('/a3'), { rawContent: stored })]);
    expect(site.requests.length).toBe(before);
    expect(r?.rawContent).toBe(stored.trim());
    expect(r?.extraSnippets?.[0]).toContain('The glacier albedo survey is stored');
  });

  it('ends the stage at its deadline: a page still loading keeps its basic fields, the others are kept', async () => {
    const signals: AbortSignal[] = [];
    const stage = createContentStage({
      // Long enough for two tiny pages on a busy machine; the slow page never answers at all.
      deadlineMs: 1500,
      fetchPage: (url, signal) => {
        signals.push(signal);
        return fetchPage(url, signal);
      },
    });
    const input = [hit(site.url('/tiny0')), hit(site.url('/slow')), hit(site.url('/tiny1'))];
    const out = await stage.apply(query(), input);
    expect(pendingSlow.length).toBe(1);
    expect(pendingSlow[0]?.writableEnded).toBe(false);
    expect(out[1]).toEqual(input[1]);
    expect(out[0]?.rawContent).toBe('The glacier albedo survey, first tiny page.');
    expect(out[2]?.rawContent).toBe('The glacier albedo survey, second tiny page.');
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('fetches at most `concurrency` pages at once', async () => {
    let running = 0;
    let peak = 0;
    const stage = createContentStage({
      concurrency: 3,
      fetchPage: async (url, signal) => {
        running += 1;
        peak = Math.max(peak, running);
        try {
          return await fetchPage(url, signal);
        } finally {
          running -= 1;
        }
      },
    });
    const input = Array.from({ length: 10 }, (_, i) => hit(`${site.url('/delayed')}?n=${i}`));
    const out = await stage.apply(query(), input);
    expect(peak).toBe(3);
    expect(out.every((r) => r.rawContent?.includes(defined(article(0).facts[0], 'a first fact')))).toBe(true);
  });

  it('shares the default budget of 8000 tokens in rank order and uses most of it', async () => {
    const stage = createContentStage({ fetchPage });
    const input = [0, 1, 2, 3, 0, 1, 2, 3].map((i, k) => hit(`${site.url(`/a${i}`)}?k=${k}`));
    const out = await stage.apply(query(), input);
    const used = out.map((r) => tokens(r.rawContent ?? ''));
    const total = used.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(8000);
    expect(total).toBeGreaterThan(7000);
    expect(used.every((n) => n > 0 && n <= 1500)).toBe(true);
  });
});

// The reviewer's repro: with a 500 ms deadline, three pages of one 100,000-letter word each
// took the old stage 3.75 s (the token cut ran after the deadline, quadratic in the word).
describe('advanced depth on hostile pages', () => {
  const word = Array.from({ length: 100_000 }, (_, i) => 'qwxzjkvbpgfy'[(i * 7919) % 12]).join('');

  it('cuts pages of one enormous word within the budget', { timeout: 10_000 }, async () => {
    const stage = createContentStage({ fetchPage: async () => ({ content: word }), deadlineMs: 500 });
    const input = [0, 1, 2].map((i) => hit(`https://e${i}.test/`));
    const out = await stage.apply(query(), input);
    expect(out.map((r) => r.url)).toEqual(input.map((r) => r.url));
    expect(out.reduce((sum, r) => sum + tokens(r.rawContent ?? ''), 0)).toBeLessThanOrEqual(8000);
    for (const r of out) {
      expect(r.rawContent?.length).toBeGreaterThan(0);
      expect(word.startsWith(r.rawContent ?? '')).toBe(true);
    }
  });

  it('keeps stored texts it had no time to score, without passages', { timeout: 10_000 }, async () => {
    const stored = (i: number): string =>
      `The glacier albedo survey, stored page ${i}.\n\n${'Filler words here. '.repeat(2000)}`;
    const stage = createContentStage({ fetchPage: async () => ({ content: 'never fetched' }), deadlineMs: 0 });
    // Scoring 40 such pages takes far longer than the 1 ms timer of a zero deadline.
    const input = Array.from({ length: 40 }, (_, i) =>
      hit(`https://s${i}.test/`, { rawContent: stored(i), extraSnippets: ['provider'] }),
    );
    const out = await stage.apply(query({ maxContentTokens: 32_000 }), input);
    for (const [i, r] of out.entries()) {
      expect(r.rawContent?.startsWith(`The glacier albedo survey, stored page ${i}.`)).toBe(true);
      expect(stored(i).startsWith(r.rawContent ?? '')).toBe(true);
    }
    // Scoring yields to the event loop between pages, so the deadline stops it early: the
    // pages past it keep the provider's snippets.
    expect(out[0]?.extraSnippets?.[0]).toContain('stored page 0');
    expect(out[39]?.extraSnippets).toEqual(['provider']);
  });
});

describe('basic depth', () => {
  it('returns results as given, without raw_content', async () => {
    let calls = 0;
    const stage = createContentStage({
      fetchPage: async () => {
        calls += 1;
        return { content: 'never' };
      },
    });
    const input = [
      hit('https://a.test/', { rawContent: 'upstream raw', extraSnippets: ['x'] }),
      hit('https://b.test/'),
    ];
    const out = await stage.apply(query({ depth: 'basic' }), input);
    expect(calls).toBe(0);
    expect(out).toEqual([{ ...input[0], rawContent: undefined }, input[1]].map((r) => JSON.parse(JSON.stringify(r))));
    expect('rawContent' in defined(out[0], 'result 0')).toBe(false);
  });

  it('bounds content and extra_snippets by max_content_tokens', async () => {
    const stage = createContentStage({ fetchPage: async () => ({ content: '' }) });
    const long = Array.from({ length: 60 }, (_, i) => `Sentence ${i} of the snippet.`).join(' ');
    const input = Array.from({ length: 5 }, (_, i) =>
      hit(`https://r${i}.test/`, { content: long, extraSnippets: [long, 'short one'] }),
    );
    const out = await stage.apply(query({ depth: 'basic', maxContentTokens: 100 }), input);
    const sum = out.reduce(
      (s, r) => s + tokens(r.content) + (r.extraSnippets ?? []).reduce((t, x) => t + tokens(x), 0),
      0,
    );
    expect(sum).toBeLessThanOrEqual(100);
    expect(out.map((r) => r.url)).toEqual(input.map((r) => r.url));
    expect(out.every((r) => r.content.startsWith('Sentence 0 of the snippet.'))).toBe(true);
  });
});
