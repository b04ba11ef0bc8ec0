import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { type ExtractFailure, type ExtractPage, ExtractResponse } from '../../src/schemas/extract.ts';
import type { FetchResponse } from '../../src/schemas/fetch.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { longArticle } from '../mcp/mcp-helpers.ts';
import { QUESTION_PAGES, questionHtml } from './extract-questions.ts';

/**
 * POST /v1/extract against loopback fixture pages the operator allowlist lets through
 * (127.0.0.2/32; 127.0.0.1 stays refused).
 */

let t: TestScout;
let origin: FixtureServer;
let inFlight = 0;
let mostInFlight = 0;

const html = (title: string, text: string) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`,
});

beforeAll(async () => {
  origin = await startFixtureServer({
    '/page': (req, res) => {
      const n = new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '0';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>This is page number ${n} of the batch, read by one extract call.</p></main></body></html>`,
      );
    },
    '/to-loopback': { status: 302, headers: { location: 'http://127.0.0.1/' } },
    '/long': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: longArticle(40) },
    '/moved': { status: 301, headers: { location: '/article' } },
    '/article': html('Article', 'An article reached through a redirect.'),
    '/image': { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    '/gone': { status: 404, body: 'no such page' },
    // Counts the requests in flight at once, each held a moment.
    '/polite': (_req, res) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><head><title>Polite</title></head><body><p>A page of a site read politely.</p></body></html>');
      }, 50);
    },
    ...Object.fromEntries(
      QUESTION_PAGES.map((p) => [p.path, { headers: { 'content-type': 'text/html' }, body: questionHtml(p) }]),
    ),
  });
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    // Far above what a loopback page takes, even on two busy cores.
    SCOUT_FETCH_TIMEOUT_MS: '30000',
  });
});
afterAll(async () => {
  await t?.close();
  await origin?.close();
});

const extract = (body: unknown, scout = t) =>
  scout.request<ExtractResponse & ErrorBody>('POST', '/v1/extract', { body });
const ok = (entry: unknown): ExtractPage => {
  expect(entry).toMatchObject({ ok: true });
  return entry as ExtractPage;
};

describe('POST /v1/extract', () => {
  it('reads 20 URLs in one call, one outcome each in their order; the hostile one fails alone', async () => {
    const urls = Array.from({ length: 20 }, (_, i) =>
      i === 7 ? origin.url('/to-loopback') : origin.url(`/page?n=${i}`),
    );
    const res = await extract({ urls });
    expect(res.status).toBe(200);
    expectShape(ExtractResponse, res.body);
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.body.results.map((r) => r.url)).toEqual(urls);
    res.body.results.forEach((r, i) => {
      if (i === 7) {
        // Refused as /v1/fetch refuses it: the redirect hop to loopback goes through the address policy.
        expect(r).toMatchObject({ ok: false, error: { status: 403 } });
        expect((r as ExtractFailure).error.message).toMatch(/127\.0\.0\.1/);
        return;
      }
      const page = ok(r);
      expect(page.title).toBe(`Page ${i}`);
      expect(page.content).toContain(`This is page number ${i} of the batch`);
      expect(page).toMatchObject({ start_index: 0, next_index: null, truncated: false, chars: page.content.length });
      expect(page.total_chars).toBe(page.content.length);
      expect(page.passages).toBeUndefined();
    });
  });

  it('never sends one host more requests at once than the per-host limit, whatever the batch', async () => {
    const urls = Array.from({ length: 12 }, (_, i) => origin.url(`/polite?${i}`));
    const res = await extract({ urls });
    expect(res.body.results.every((r) => r.ok)).toBe(true);
    // SCOUT_FETCH_PER_HOST defaults to 2; the batch had 12 pages of that host at once to read.
    expect(mostInFlight).toBeLessThanOrEqual(2);
    expect(mostInFlight).toBeGreaterThan(0);
  });

  it('gives each failure the status and message /v1/fetch gives, and the final URL of a redirect', async () => {
    const urls = [origin.url('/moved'), origin.url('/image'), origin.url('/gone'), 'http://127.0.0.1/'];
    const res = await extract({ urls });
    expect(res.status).toBe(200);
    const [moved, ...failed] = res.body.results;
    expect(ok(moved)).toMatchObject({ final_url: origin.url('/article'), title: 'Article' });
    for (const [i, entry] of failed.entries()) {
      const alone = await t.request<ErrorBody>('POST', '/v1/fetch', { body: { url: urls[i + 1] } });
      expect(alone.status).toBeGreaterThanOrEqual(400);
      expect(entry).toEqual({ url: urls[i + 1], ok: false, error: alone.body.error });
    }
  });

  it('continues a long page across three calls, reassembling it exactly', async () => {
    const url = origin.url('/long');
    const whole = (await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url, max_chars: 200000 } })).body
      .content;
    const maxChars = Math.ceil(whole.length / 3) + 300;
    const parts: string[] = [];
    let start: number | null = 0;
    let calls = 0;
    while (start !== null && calls < 10) {
      const res = await extract({ urls: [url], max_chars: maxChars, ...(start > 0 ? { start_index: start } : {}) });
      expect(res.status).toBe(200);
      const page = ok(res.body.results[0]);
      expect(page.start_index).toBe(start);
      expect(page.total_chars).toBe(whole.length);
      expect(page.chars).toBeLessThanOrEqual(maxChars);
      expect(page.truncated).toBe(page.next_index !== null);
      if (page.next_index !== null) expect(page.next_index).toBe(start + page.chars);
      parts.push(page.content);
      start = page.next_index;
      calls += 1;
    }
    expect(calls).toBe(3);
    expect(parts.join('')).toBe(whole);
    // Past the end: that page's outcome says so.
    const past = await extract({ urls: [url], start_index: whole.length + 10 });
    expect(past.body.results[0]).toMatchObject({ ok: false, error: { status: 400 } });
    expect((past.body.results[0] as ExtractFailure).error.message).toMatch(/start_index \d+ is past the end/);
  });

  it('with query, returns the passage holding the answer on each question page, as exact slices in page order', async () => {
    for (const q of QUESTION_PAGES) {
      const url = origin.url(q.path);
      const res = await extract({ urls: [url], query: q.question, max_passages: 1 });
      expect(res.status, q.path).toBe(200);
      expectShape(ExtractResponse, res.body);
      const page = ok(res.body.results[0]);
      expect(page.passages, q.path).toHaveLength(1);
      expect(page.passages?.[0]?.text, `${q.path}: ${q.question}`).toContain(q.answer);
      expect(page.content).toBe(page.passages?.[0]?.text);
      // The whole page was searched (the default window with a query), and each passage is where it says.
      expect(page.next_index).toBeNull();
      const whole = (await t.request<FetchResponse>('POST', '/v1/fetch', { body: { url, max_chars: 200000 } })).body
        .content;
      for (const p of page.passages ?? []) expect(whole.slice(p.start_index, p.start_index + p.chars)).toBe(p.text);
    }
    // Several passages: page order, joined in content.
    const q = QUESTION_PAGES[0];
    const res = await extract({ urls: [origin.url(q?.path ?? '')], query: 'PgBouncer pool connections clients' });
    const page = ok(res.body.results[0]);
    const starts = (page.passages ?? []).map((p) => p.start_index);
    expect(starts.length).toBeGreaterThan(1);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const p of page.passages ?? []) expect(page.content).toContain(p.text);
    // No passage matches: an empty content, not an error.
    const none = ok((await extract({ urls: [origin.url('/article')], query: 'zeppelin' })).body.results[0]);
    expect(none).toMatchObject({ content: '', chars: 0, passages: [] });
  });

  it('refuses a body it cannot honour with 400 naming the field', async () => {
    const page = origin.url('/article');
    const many = Array.from({ length: 21 }, (_, i) => origin.url(`/page?n=${i}`));
    const cases: [unknown, RegExp][] = [
      [{ urls: [page], extra: 1 }, /extra/],
      [{ urls: many }, /^urls must be a list of 1 to 20 different absolute http\(s\) URLs/],
      [{ urls: [] }, /^urls must be a list of 1 to 20/],
      [{ urls: [page, page] }, /^urls must be a list of 1 to 20 different/],
      [{ urls: [page, 'not a url'] }, /^urls\[1\] is not a valid absolute URL/],
      [{ urls: ['ftp://127.0.0.2/x'] }, /^urls\[0\] scheme ftp: is not supported/],
      [{ urls: [page, origin.url('/long')], start_index: 100 }, /^start_index continues one page/],
      [{ urls: [page], max_passages: 3 }, /^max_passages needs query/],
      [{ urls: [page], query: '' }, /^query must be a string of 1 to 400 characters/],
      [{ urls: [page], max_chars: 100 }, /^max_chars must be an integer from 500 to 200000/],
      [{ url: page }, /urls/],
    ];
    for (const [body, message] of cases) {
      const res = await extract(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.status).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('takes one request per URL from the rate limit, all or none; an invalid body takes none', async () => {
    const s = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '5', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
    try {
      const url = (i: number) => origin.url(`/page?n=${i}`);
      const invalid = await extract({ urls: [url(1), 'nope'] }, s);
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('ratelimit-remaining')).toBe('5');
      // More than the whole limit can never be taken: 400 saying so, nothing taken.
      const over = await extract({ urls: [1, 2, 3, 4, 5, 6].map(url) }, s);
      expect(over.status).toBe(400);
      expect(over.body.error.message).toMatch(/takes 6 requests of the rate limit at once .* more than the 5 a minute/);
      const three = await extract({ urls: [url(1), url(2), url(3)] }, s);
      expect(three.status).toBe(200);
      expect(three.headers.get('ratelimit-remaining')).toBe('2');
      // Three more than the two left: refused whole, nothing fetched.
      const seen = origin.requests.length;
      const refused = await extract({ urls: [url(4), url(5), url(6)] }, s);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toMatch(/this call takes 3 at once/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(origin.requests.length).toBe(seen);
      // Two fit.
      expect((await extract({ urls: [url(4), url(5)] }, s)).status).toBe(200);
      // An empty bucket is refused before the body is read, as on every route.
      const empty = await extract({ urls: [url(6)] }, s);
      expect(empty.status).toBe(429);
    } finally {
      await s.close();
    }
  });
});

describe('POST /v1/extract with a slow page', () => {
  it('answers the others while the slow page ends as its own timeout', async () => {
    const slow = await startFixtureServer({
      '/never': () => undefined, // headers never come
      '/a': html('A', 'The first quick page.'),
      '/b': html('B', 'The second quick page.'),
    });
    // A deadline far above a loopback page's time, far below the test's.
    const s = await startTestScout({
      SCOUT_RATE_LIMIT_RPM: '1000',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_FETCH_TIMEOUT_MS: '5000',
    });
    try {
      const urls = [slow.url('/a'), slow.url('/never'), slow.url('/b')];
      const res = await extract({ urls }, s);
      expect(res.status).toBe(200);
      const [a, never, b] = res.body.results;
      expect(ok(a).content).toContain('The first quick page.');
      expect(ok(b).content).toContain('The second quick page.');
      expect(never).toMatchObject({ ok: false, error: { status: 504 } });
    } finally {
      await s.close();
      await slow.close();
    }
  });
});
