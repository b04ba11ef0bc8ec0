import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlJob } from '../../src/schemas/crawl-job.ts';
import type { CrawlResponse } from '../../src/schemas/crawl.ts';
import type { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite } from '../map/map-fixture.ts';

/**
 * Asynchronous crawl jobs over HTTP (POST /v1/crawl with async: true, GET and DELETE
 * /v1/crawl/{id}) on a real Scout with its embedded store, against a loopback site through
 * the operator allowlist. Jobs survive a restart: queued ones, and a running one handed back
 * at shutdown and resumed from its checkpoint. No assertion on time: waits are for states.
 */

let t: TestScout;
let site: Site;

/** Eight pages: the home page links to seven, each linking back. */
const PAGES = ['/', '/p1', '/p2', '/p3', '/p4', '/p5', '/p6', '/p7'];

beforeAll(async () => {
  const pages = Object.fromEntries(
    PAGES.map((p) => [p, html(p === '/' ? 'Home' : `Page ${p.slice(2)}`, p === '/' ? PAGES.slice(1) : ['/'])]),
  );
  site = await startMapSite(pages, '127.0.0.2');
  t = await startTestScout({
    SCOUT_RATE_LIMIT_RPM: '100000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_MAP_DELAY_MS: '0',
  });
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
});

const start = (body: Record<string, unknown>, key?: string | null) =>
  t.request<CrawlJob | ErrorBody>('POST', '/v1/crawl', {
    body: { ...body, async: true },
    ...(key === undefined ? {} : { key }),
  });
const read = (id: string, key?: string) =>
  t.request<CrawlJob>('GET', `/v1/crawl/${id}`, key === undefined ? {} : { key });

async function until(id: string, ok: (j: CrawlJob) => boolean): Promise<CrawlJob> {
  for (let i = 0; i < 3000; i += 1) {
    const res = await read(id);
    expect(res.status).toBe(200);
    if (ok(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${id} never reached the state waited for`);
}
const ended = (j: CrawlJob) => j.status !== 'queued' && j.status !== 'running';
const urls = (pages: { url: string }[]) => pages.map((p) => p.url.replace(site.origin, ''));

describe('POST /v1/crawl with async: true', () => {
  it('answers 202 with the queued job and its Location; GET gives the same pages a crawl in the call gives', async () => {
    const body = { url: `${site.origin}/`, max_depth: 1, limit: 8 };
    const res = await start(body);
    expect(res.status).toBe(202);
    const job = res.body as CrawlJob;
    expect(job.status).toBe('queued');
    expect(job.pages).toEqual([]);
    expect(job.error).toBeNull();
    expect(res.headers.get('location')).toBe(`/v1/crawl/${job.id}`);
    expect(Date.parse(job.expires_at) - Date.parse(job.created_at)).toBe(24 * 3_600_000);

    const done = await until(job.id, ended);
    expect(done.status).toBe('completed');
    expect(done.complete).toBe(true);
    expect(done.stopped).toBeNull();
    const inCall = await t.request<CrawlResponse>('POST', '/v1/crawl', { body });
    expect(inCall.status).toBe(200);
    expect(urls(done.pages)).toEqual(urls(inCall.body.pages));
    expect(done.pages.map((p) => p.content)).toEqual(inCall.body.pages.map((p) => p.content));
    expect(done.pages_read).toBe(inCall.body.pages_read);
    expect(done.charged).toBe(inCall.body.charged);
  });

  it('is read and cancelled only with the key that started it: another key is told 404, as for no job', async () => {
    const job = (await start({ url: `${site.origin}/`, max_depth: 0 })).body as CrawlJob;
    const other = (await t.scout.keys.create('other')).key;
    const res = await read(job.id, other);
    expect(res.status).toBe(404);
    expect((res.body as unknown as ErrorBody).error.message).toMatch(/no crawl job .* for this key/);
    expect((await t.request('DELETE', `/v1/crawl/${job.id}`, { key: other })).status).toBe(404);
    expect((await read('7b1a2c3d-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await read('x'.repeat(65))).status).toBe(400);
    await until(job.id, ended);
  });

  it('reading a job takes nothing from the rate limit (polling does not slow the crawl it polls)', async () => {
    const job = (await start({ url: `${site.origin}/`, max_depth: 0 })).body as CrawlJob;
    const a = await read(job.id);
    const b = await read(job.id);
    expect(a.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(b.headers.get('ratelimit-remaining')).toBe(a.headers.get('ratelimit-remaining'));
    await until(job.id, ended);
  });

  it('takes a timeout_ms past 120 s only as a job, saying so', async () => {
    const res = await t.request<ErrorBody>('POST', '/v1/crawl', {
      body: { url: `${site.origin}/`, timeout_ms: 300_000 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/send async: true/);
    const job = await start({ url: `${site.origin}/`, max_depth: 0, timeout_ms: 600_000 });
    expect(job.status).toBe(202);
    expect((await start({ url: `${site.origin}/`, timeout_ms: 600_001 })).status).toBe(400);
    // The runner runs it as the job it is: its crawl is not refused for the longer timeout.
    const done = await until((job.body as CrawlJob).id, ended);
    expect([done.status, done.error, urls(done.pages)]).toEqual(['completed', null, ['/']]);
  });

  it('checks the crawl before queueing it: a bad start URL is 400 and no job', async () => {
    const res = await start({ url: 'ftp://example.com/' });
    expect(res.status).toBe(400);
  });
});

describe('crawl jobs: queued, bounded per key, cancelled, kept over restarts', () => {
  it('keeps queued jobs when no worker runs them, at most 5 per key, and runs them after a restart with workers', async () => {
    await t.restart({ SCOUT_CRAWL_JOB_WORKERS: '0' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await start({ url: `${site.origin}/`, max_depth: 0 });
      expect(res.status).toBe(202);
      ids.push((res.body as CrawlJob).id);
    }
    const sixth = await start({ url: `${site.origin}/`, max_depth: 0 });
    expect(sixth.status).toBe(429);
    expect((sixth.body as ErrorBody).error.message).toMatch(/5 crawl jobs queued or running/);
    expect(sixth.headers.get('retry-after')).toBe('10');

    // Cancelling one frees a place; the cancelled job stays readable.
    const cancelled = await t.request<CrawlJob>('DELETE', `/v1/crawl/${ids[0]}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await read(ids[0]!)).body.status).toBe('cancelled');
    const again = await start({ url: `${site.origin}/`, max_depth: 0 });
    expect(again.status).toBe(202);
    ids.push((again.body as CrawlJob).id);
    for (const id of ids.slice(1)) expect((await read(id)).body.status).toBe('queued');

    await t.restart({ SCOUT_CRAWL_JOB_WORKERS: '2' });
    for (const id of ids.slice(1)) {
      const done = await until(id, ended);
      expect(done.status).toBe('completed');
      expect(urls(done.pages)).toEqual(['/']);
    }
    expect((await read(ids[0]!)).body.status).toBe('cancelled');
    // An ended job is answered as it is by DELETE.
    const late = await t.request<CrawlJob>('DELETE', `/v1/crawl/${ids[1]}`);
    expect(late.body.status).toBe('completed');
  });

  it('hands a running job back at shutdown and goes on after the restart from its checkpoint: every page once', async () => {
    // Paced so the crawl is still running when Scout stops.
    await t.restart({ SCOUT_MAP_DELAY_MS: '300' });
    const body = { url: `${site.origin}/`, max_depth: 1, limit: 8 };
    const job = (await start(body)).body as CrawlJob;
    const partway = await until(job.id, (j) => j.pages.length >= 2 || ended(j));
    expect(partway.status).toBe('running');
    await t.restart({ SCOUT_MAP_DELAY_MS: '0' });
    const done = await until(job.id, ended);
    expect(done.status).toBe('completed');
    expect(done.complete).toBe(true);
    const got = urls(done.pages);
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual([...PAGES].sort());
    // The pages read before the restart are kept as they were, first.
    expect(got.slice(0, partway.pages.length)).toEqual(urls(partway.pages));
  });
});

describe('crawl jobs and the anonymous tier', () => {
  it('refuses a keyless asynchronous crawl with 401: a job belongs to a key', async () => {
    const anon = await startTestScout({ SCOUT_ANONYMOUS_RPM: '60', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
    try {
      const res = await anon.request<ErrorBody>('POST', '/v1/crawl', {
        body: { url: `${site.origin}/`, async: true },
        key: null,
      });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/needs an API key/);
    } finally {
      await anon.close();
    }
  });
});
