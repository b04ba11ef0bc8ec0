import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlJob } from '../../src/schemas/crawl-job.ts';
import type {
  FirecrawlCrawlCancelResponse,
  FirecrawlCrawlResponse,
  FirecrawlCrawlStatusResponse,
  FirecrawlError,
} from '../../src/schemas/firecrawl.ts';
import { thrown as rejection } from '../helpers/thrown.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { html, type Site, startMapSite, urlset } from '../map/map-fixture.ts';
import { expectCompatMetrics, startWalkScout, WALK_ADMIN_TOKEN } from './compat-kit.ts';

/** What the SDK throws, for assertions on its class, status and message. */
const thrown = (p: Promise<unknown>) => rejection(p, SdkError);

/**
 * Firecrawl's crawl (POST /v2/crawl, GET and DELETE /v2/crawl/{id}; docs/compat.md) on a real
 * Scout's crawl jobs over loopback, driven by the real @mendable/firecrawl-js, unmodified,
 * against a fixture site on 127.0.0.2 through the operator allowlist. The same job read as
 * GET /v1/crawl/{id} is the reference. No assertion on time: the waits are for states.
 */

/** The SDK's crawl() polls at most once a second whatever is asked: its shortest. */
const POLL = { pollInterval: 1 };

let t: TestScout;
let site: Site;
let client: Firecrawl;

beforeAll(async () => {
  site = await startMapSite({
    '/robots.txt': { body: (o) => `User-agent: *\nDisallow: /private\nSitemap: ${o.self}/sitemap.xml\n` },
    '/sitemap.xml': { type: 'application/xml', body: (o) => urlset([`${o.self}/about`]) },
    '/': html('Home', ['/docs/', '/blog', '/private/x']),
    '/docs/': html('Docs', ['/docs/a', '/docs/b', '/']),
    '/docs/a': html('Docs A', ['/docs/b']),
    '/docs/b': html('Docs B'),
    '/blog': html('Blog', ['/blog/post']),
    '/blog/post': html('Post'),
    '/about': html('About'),
    // Never answers: a job that stays running until it is cancelled.
    '/slow': { hang: true },
  });
  t = await startWalkScout();
  client = new Firecrawl({ apiKey: t.key, apiUrl: t.baseUrl });
});
afterAll(async () => {
  await t?.close();
  await site?.server.close();
});

const paths = (docs: { metadata?: { sourceURL?: string } }[]) =>
  docs.map((d) => (d.metadata?.sourceURL ?? '').replace(site.origin, ''));
const sorted = (list: string[]) => [...list].sort();

/** Polls with `c` (bounded: a hang, not a speed check) until the job has ended. */
async function ended(c: Firecrawl, id: string) {
  for (let i = 0; i < 3000; i += 1) {
    const job = await c.getCrawlStatus(id);
    if (job.status !== 'scraping') return job;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${id} never ended`);
}

describe('@mendable/firecrawl-js crawl', () => {
  it("crawl() waits for the job and returns its pages' markdown, as GET /v1/crawl/{id} gives the same job", async () => {
    const job = await client.crawl(`${site.origin}/`, POLL);
    expect(job.status).toBe('completed');
    // Firecrawl's defaults: the sitemap's URLs too, every depth Scout crawls; robots.txt kept.
    expect(sorted(paths(job.data))).toEqual(['/', '/about', '/blog', '/blog/post', '/docs/', '/docs/a', '/docs/b']);
    const a = job.data.find((d) => d.metadata?.sourceURL === `${site.origin}/docs/a`);
    expect(a?.markdown).toContain('Docs A: a page of the fixture site.');
    expect(a?.metadata).toEqual({
      title: 'Docs A',
      sourceURL: `${site.origin}/docs/a`,
      url: `${site.origin}/docs/a`,
      statusCode: 200,
      contentType: 'text/html',
      cacheState: 'miss',
    });

    const v1 = (await t.request<CrawlJob>('GET', `/v1/crawl/${job.id}`)).body;
    expect(paths(job.data)).toEqual(v1.pages.map((p) => p.url.replace(site.origin, '')));
    expect(job.data.map((d) => d.markdown)).toEqual(v1.pages.map((p) => p.content));
    expect([job.completed, job.total, job.creditsUsed, job.expiresAt, job.next]).toEqual([
      7,
      v1.pages_read,
      v1.charged,
      v1.expires_at,
      null,
    ]);
    // What the SDK does not hand on is in the answer itself: the URL robots.txt kept out.
    const raw = await t.request<FirecrawlCrawlStatusResponse>('GET', `/v2/crawl/${job.id}`);
    expect(raw.body.agent_hints).toEqual([
      `1 URL was not read or not returned (robots.txt, failed fetches, redirects off the site): GET /v1/crawl/${job.id}, with the same key, lists them with why`,
    ]);
    expect(v1.skipped).toEqual([{ url: `${site.origin}/private/x`, reason: 'disallowed by robots.txt' }]);
  });

  it("keeps to includePaths and excludePaths, and to the start URL's path and below unless crawlEntireDomain", async () => {
    const only = await client.crawl(`${site.origin}/`, { includePaths: ['^/docs/'], sitemap: 'skip', ...POLL });
    // The start page is read for its links, and returned only when the patterns keep it.
    expect(sorted(paths(only.data))).toEqual(['/docs/', '/docs/a', '/docs/b']);
    const without = await client.crawl(`${site.origin}/`, {
      excludePaths: ['^/blog', '^/docs/.'],
      sitemap: 'skip',
      ...POLL,
    });
    expect(sorted(paths(without.data))).toEqual(['/', '/docs/']);
    const under = await client.crawl(`${site.origin}/docs/`, POLL);
    expect(sorted(paths(under.data))).toEqual(['/docs/', '/docs/a', '/docs/b']);
    const entire = await client.crawl(`${site.origin}/docs/`, {
      crawlEntireDomain: true,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
      ...POLL,
    });
    expect(sorted(paths(entire.data))).toEqual(['/', '/docs/', '/docs/a', '/docs/b']);
  });

  it('answers a crawl stopped by its limit as completed, saying why in agent_hints', async () => {
    const two = await client.crawl(`${site.origin}/`, { limit: 2, sitemap: 'skip', ...POLL });
    expect(two.status).toBe('completed');
    expect(two.data).toHaveLength(2);
    const raw = await t.request<FirecrawlCrawlStatusResponse>('GET', `/v2/crawl/${two.id}`);
    expect(raw.body.agent_hints?.[0]).toMatch(/^the crawl returned limit pages and more were within reach/);
  });

  it('startCrawl answers the id and status URL; getCrawlStatus reads the job; cancelCrawl cancels it', async () => {
    const started = await client.startCrawl(`${site.origin}/slow`);
    expect(started.url).toBe(`${t.baseUrl}/v2/crawl/${started.id}`);
    const status = await client.getCrawlStatus(started.id);
    expect(status).toEqual({
      id: started.id,
      status: 'scraping',
      completed: 0,
      total: expect.any(Number),
      creditsUsed: 1,
      expiresAt: expect.any(String),
      next: null,
      data: [],
    });
    expect(await client.cancelCrawl(started.id)).toBe(true);
    expect((await client.getCrawlStatus(started.id)).status).toBe('cancelled');
    expect(await client.cancelCrawl(started.id)).toBe(true);
    // A job that had ended is not cancelled: the SDK says false, the job stays as it ended.
    const done = await client.crawl(`${site.origin}/about`, POLL);
    expect(paths(done.data)).toEqual(['/about']);
    expect(await client.cancelCrawl(done.id)).toBe(false);
    expect((await client.getCrawlStatus(done.id)).status).toBe('completed');
  });

  it("refuses an option Scout cannot honour with the SDK's error and Scout's message", async () => {
    const hook = await thrown(client.startCrawl(`${site.origin}/`, { webhook: 'https://hooks.example/crawl' }));
    expect([hook.status, hook.message]).toEqual([
      400,
      "webhook is not served: Scout calls no webhook; poll GET /v2/crawl/{id} for the pages as they come (the SDK's crawl() and getCrawlStatus do)",
    ]);
    const external = await thrown(client.crawl(`${site.origin}/`, { allowExternalLinks: true, ...POLL }));
    expect([external.status, external.message]).toEqual([
      400,
      "allowExternalLinks true is not served: Scout's crawl stays on the start URL's site (allowSubdomains adds the hosts under it); crawl another site with its own start URL",
    ]);
    const format = await thrown(client.crawl(`${site.origin}/`, { scrapeOptions: { formats: ['screenshot'] } }));
    expect(format.status).toBe(400);
    expect(format.message).toMatch(/^scrapeOptions\.formats "screenshot" is not served for a crawl/);
    const only = await thrown(client.startCrawl(`${site.origin}/`, { sitemap: 'only' }));
    expect(only.message).toMatch(/^sitemap "only" is not served for a crawl/);
  });

  it("answers another key's job 404, as no job; a keyless call 401", async () => {
    const other = new Firecrawl({ apiKey: (await t.scout.keys.create('other')).key, apiUrl: t.baseUrl });
    const mine = await client.startCrawl(`${site.origin}/about`);
    const read = await thrown(other.getCrawlStatus(mine.id));
    expect(read.status).toBe(404);
    expect(read.message).toMatch(new RegExp(`^no crawl job ${mine.id} for this key`));
    expect((await thrown(other.cancelCrawl(mine.id))).status).toBe(404);
    expect((await thrown(client.getCrawlStatus('7b1a2c3d-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await ended(client, mine.id)).status).toBe('completed');
    const keyless = await thrown(new Firecrawl({ apiKey: '', apiUrl: t.baseUrl }).startCrawl(`${site.origin}/`));
    expect(keyless.status).toBe(401);
    expect(keyless.message).toMatch(/^missing API key/);
  });

  it('takes a path key as the base URL; the status URL never carries it', async () => {
    const keyed = new Firecrawl({ apiKey: t.key, apiUrl: `${t.baseUrl}/k/${t.key}` });
    const started = await keyed.startCrawl(`${site.origin}/about`);
    expect(started.url).toBe(`${t.baseUrl}/v2/crawl/${started.id}`);
    const job = await ended(keyed, started.id);
    expect([job.status, paths(job.data)]).toEqual(['completed', ['/about']]);
    expect(await keyed.cancelCrawl(started.id)).toBe(false);
    const whole = await keyed.crawl(`${site.origin}/docs/`, POLL);
    expect(sorted(paths(whole.data))).toEqual(['/docs/', '/docs/a', '/docs/b']);
  });
});

describe('raw JSON', () => {
  it('ignores unknown fields, says what it serves otherwise, and reads a job free of the rate limit', async () => {
    const res = await t.request<FirecrawlCrawlResponse>('POST', '/v2/crawl', {
      body: { url: `${site.origin}/about`, delay: 5, maxConcurrency: 2, limit: null, somethingNew: [1], origin: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body.agent_hints).toEqual([
      "limit 10000 (Firecrawl's default) is more than Scout's crawl returns: it returns at most 100 pages; when more are within reach GET /v2/crawl/{id} says so",
    ]);
    const a = await t.request<FirecrawlCrawlStatusResponse>('GET', `/v2/crawl/${res.body.id}`);
    const b = await t.request<FirecrawlCrawlStatusResponse>('GET', `/v2/crawl/${res.body.id}`);
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(a.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(b.headers.get('ratelimit-remaining')).toBe(a.headers.get('ratelimit-remaining'));
    await ended(client, res.body.id);
    const cancel = await t.request<FirecrawlCrawlCancelResponse>('DELETE', `/v2/crawl/${res.body.id}`);
    expect(cancel.body).toEqual({ success: true, status: 'completed' });
  });

  it("answers what it does not serve in Firecrawl's shape", async () => {
    const active = await t.request<FirecrawlError>('GET', '/v2/crawl/active');
    expect([active.status, active.body.error]).toEqual([
      404,
      'GET /v2/crawl/active is not served: Scout lists no active crawls; keep the ids POST /v2/crawl answered (docs/compat.md)',
    ]);
    const errors = await t.request<FirecrawlError>('GET', '/v2/crawl/7b1a2c3d-0000-4000-8000-000000000000/errors');
    expect(errors.status).toBe(404);
    expect(errors.body.error).toMatch(/^no route GET \/v2\/crawl\/.*\/errors: .* no crawl errors or active list/);
    expect((await t.request('GET', `/v2/crawl/${'x'.repeat(65)}`)).status).toBe(400);
    const get = await t.request<FirecrawlError>('GET', '/v2/crawl');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const preview = await t.request<FirecrawlError>('POST', '/v2/crawl/params-preview', {
      body: { url: `${site.origin}/`, prompt: 'the docs' },
    });
    expect(preview.status).toBe(405);
    expect(preview.body.error).toMatch(/^method POST is not allowed on \/v2\/crawl\/params-preview; use DELETE, GET/);
  });
});

describe('the bound on jobs per key', () => {
  it("answers the sixth job at once 429, naming Firecrawl's way to cancel one", async () => {
    const c = new Firecrawl({ apiKey: (await t.scout.keys.create('bound')).key, apiUrl: t.baseUrl });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await c.startCrawl(`${site.origin}/slow`)).id);
    const sixth = await thrown(c.startCrawl(`${site.origin}/slow`));
    expect(sixth.status).toBe(429);
    expect(sixth.message).toBe(
      "this key has 5 crawl jobs queued or running, the most it may at once; wait for one to end, or cancel one with DELETE /v2/crawl/{id} (the Firecrawl SDK's cancelCrawl)",
    );
    for (const id of ids) expect(await c.cancelCrawl(id)).toBe(true);
    const again = await c.startCrawl(`${site.origin}/about`);
    expect((await ended(c, again.id)).status).toBe('completed');
  });
});

describe('another Scout: the anonymous tier, SCOUT_PUBLIC_URL', () => {
  it('refuses a keyless crawl with 401 in words for the SDK, and builds the status URL on SCOUT_PUBLIC_URL', async () => {
    const other = await startTestScout({
      SCOUT_ANONYMOUS_RPM: '60',
      SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
      SCOUT_PUBLIC_URL: 'https://scout.example.com/base/',
    });
    try {
      const e = await thrown(new Firecrawl({ apiKey: '', apiUrl: other.baseUrl }).startCrawl(`${site.origin}/`));
      expect([e.status, e.message]).toEqual([
        401,
        "an asynchronous crawl needs an API key (a job belongs to the key that started it): send one (the Firecrawl SDK's apiKey)",
      ]);
      const keyed = new Firecrawl({ apiKey: other.key, apiUrl: other.baseUrl });
      const started = await keyed.startCrawl(`${site.origin}/slow`);
      expect(started.url).toBe(`https://scout.example.com/base/v2/crawl/${started.id}`);
      expect(await keyed.cancelCrawl(started.id)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('metrics', () => {
  it('count /v2/crawl under its templates and the firecrawl shape, never the path that carries the key', async () => {
    await expectCompatMetrics(t, WALK_ADMIN_TOKEN, ['/k/:key/v2/crawl', '/v2/crawl'], {
      name: 'firecrawl',
      atLeast: 2,
    });
  });
});
