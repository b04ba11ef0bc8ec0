import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalIndex } from '../../src/index/local-index.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { runScout } from '../helpers/cli.ts';
import type { ScoutEnv } from '../helpers/scout-process.ts';
import { defined } from '../helpers/defined.ts';
import { newLog, page, startSite, type Page, type RequestLog } from '../index/crawl/crawl-fixture.ts';

const ALLOW = '127.0.0.2/32,127.0.0.3/32,127.0.0.4/32';
const ROBOTS_OK: Page = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

const dirs: string[] = [];
const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function env(allow = ALLOW): ScoutEnv {
  const dir = mkdtempSync(join(tmpdir(), 'scout-crawl-cli-'));
  dirs.push(dir);
  // One extraction worker: each loads its code at start; two requests stay in flight (the
  // pacer's bound), their pages extracted in turn.
  return { SCOUT_DATA_DIR: dir, SCOUT_FETCH_ALLOW_CIDRS: allow, SCOUT_FETCH_WORKERS: '1' };
}

async function site(pages: Record<string, Page>, log: RequestLog, options: { host?: string; latencyMs?: number } = {}) {
  const s = await startSite(pages, log, options);
  servers.push(s);
  return s;
}

function indexedUrls(e: ScoutEnv): string[] {
  const index = openLocalIndex(join(e.SCOUT_DATA_DIR, 'index.db'));
  try {
    return index
      .search({ query: 'lighthouse', limit: 100, includeDomains: [], excludeDomains: [] })
      .map((h) => h.url)
      .sort();
  } finally {
    index.close();
  }
}

const pagePaths = (log: RequestLog, origin?: string): string[] =>
  log.entries.filter((r) => origin === undefined || r.origin === origin).map((r) => r.path);

describe('scout index add', () => {
  it('fetches each URL, indexes it under its final URL and makes it searchable', async () => {
    const log = newLog();
    const s = await site(
      {
        '/one': page('Harbour lights'),
        '/two': page('Fog signals'),
        '/old': { status: 301, headers: { location: '/two' } },
      },
      log,
    );
    const e = env();
    const r = await runScout(['index', 'add', s.url('/one'), s.url('/old'), '--delay-ms', '5'], e);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual([
      `added ${s.url('/one')} — Harbour lights`,
      `added ${s.url('/two')} — Fog signals`,
    ]);
    expect(r.stderr).toBe('');
    expect(indexedUrls(e)).toEqual([s.url('/one'), s.url('/two')]);

    const index = openLocalIndex(join(e.SCOUT_DATA_DIR, 'index.db'));
    try {
      const [hit] = index.search({ query: 'fog signals', limit: 1, includeDomains: [], excludeDomains: [] });
      expect(hit).toMatchObject({ url: s.url('/two'), title: 'Fog signals' });
    } finally {
      index.close();
    }
  });

  it('replaces a page added again instead of duplicating it', async () => {
    const s = await site({ '/one': page('Harbour lights') }, newLog());
    const e = env();
    expect((await runScout(['index', 'add', s.url('/one'), '--delay-ms', '0'], e)).code).toBe(0);
    expect((await runScout(['index', 'add', s.url('/one'), '--delay-ms', '0'], e)).code).toBe(0);
    expect(indexedUrls(e)).toEqual([s.url('/one')]);
  });

  it('reports refused and failing URLs on stderr and still adds the rest', async () => {
    const s = await site({ '/one': page('Harbour lights') }, newLog());
    // Loopback stays refused: only 127.0.0.2-4 are allowed, not 127.0.0.1.
    const r = await runScout(
      ['index', 'add', 'http://127.0.0.1/', s.url('/missing'), s.url('/one'), '--delay-ms', '0'],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`added ${s.url('/one')} — Harbour lights\n`);
    expect(r.stderr).toMatch(/^skipped http:\/\/127\.0\.0\.1\/: .*(refused|not allowed|private|loopback)/im);
    expect(r.stderr).toContain(`skipped ${s.url('/missing')}: origin answered 404`);
  });

  it('exits 1 when every URL fails', async () => {
    const r = await runScout(['index', 'add', 'http://127.0.0.1/', 'ftp://example.com/file'], env());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });

  it.each([
    [['index', 'add']],
    [['index', 'add', 'http://a.test/', '--delay-ms', 'soon']],
    [['index', 'add', '--bogus', 'http://a.test/']],
  ])('answers bad usage %j with exit 2', async (argv) => {
    const r = await runScout(argv, env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: scout index');
  });
});

describe('scout index crawl', () => {
  it('crawls breadth-first and stops at --max-pages', async () => {
    const log = newLog();
    const s = await site(
      {
        '/robots.txt': ROBOTS_OK,
        '/': page('Home', ['/a', '/b', '#top', 'mailto:x@example.com', '/logo.png']),
        '/a': page('Page A', ['/a/deep']),
        '/b': page('Page B', ['/b/deep']),
        '/a/deep': page('Deep A'),
        '/b/deep': page('Deep B'),
      },
      log,
    );
    const e = env();
    const r = await runScout(['index', 'crawl', s.url('/'), '--max-pages', '3', '--delay-ms', '5'], e);
    expect(r.code).toBe(0);
    expect(pagePaths(log)).toEqual(['/robots.txt', '/', '/a', '/b']);
    expect(s.requests.map((q) => q.path)).not.toContain('/logo.png');
    expect(r.stdout).toContain(`indexed ${s.url('/')} — Home\n`);
    expect(r.stdout).toMatch(/crawled 3 pages, indexed 3, skipped 0\n$/);
    expect(indexedUrls(e)).toEqual([s.url('/'), s.url('/a'), s.url('/b')]);
  });

  it('crawls a whole small site, each page once, and reports broken links', async () => {
    const log = newLog();
    const s = await site(
      {
        '/robots.txt': ROBOTS_OK,
        '/': page('Home', ['/a', '/a/', '/a#x', '/gone']),
        '/a': page('Page A', ['/', '/?utm_source=x']),
      },
      log,
    );
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '0'], env());
    expect(r.code).toBe(0);
    expect(s.requests.map((q) => q.path)).toEqual(['/robots.txt', '/', '/a', '/gone']);
    expect(r.stderr).toBe(`skipped ${s.url('/gone')}: origin answered 404 (Not Found)\n`);
    expect(r.stdout).toMatch(/crawled 3 pages, indexed 2, skipped 1\n$/);
  });

  it('stays on the start site with --same-site and leaves it without', async () => {
    const log = newLog();
    const other = await site({ '/robots.txt': ROBOTS_OK, '/elsewhere': page('Elsewhere') }, log, { host: '127.0.0.3' });
    const pages = {
      '/robots.txt': ROBOTS_OK,
      '/': page('Home', ['/a', other.url('/elsewhere')]),
      '/a': page('Page A'),
    };
    const home = await site(pages, log);

    const same = await runScout(['index', 'crawl', home.url('/'), '--same-site', '--delay-ms', '0'], env());
    expect(same.code).toBe(0);
    expect(other.requests).toEqual([]);
    expect(same.stdout).toMatch(/crawled 2 pages, indexed 2, skipped 0\n$/);

    const e = env();
    const open = await runScout(['index', 'crawl', home.url('/'), '--delay-ms', '0'], e);
    expect(open.code).toBe(0);
    // Another host: its own robots.txt is read first.
    expect(other.requests.map((q) => q.path)).toEqual(['/robots.txt', '/elsewhere']);
    expect(indexedUrls(e)).toContain(other.url('/elsewhere'));
  });

  it('never requests a path robots.txt disallows for ScoutFetch', async () => {
    const log = newLog();
    const robots = 'User-agent: *\nDisallow: /\n\nUser-agent: ScoutFetch\nDisallow: /private\nAllow: /private/open\n';
    const s = await site(
      {
        '/robots.txt': { status: 200, headers: { 'content-type': 'text/plain' }, body: robots },
        '/': page('Home', ['/private/secret', '/private/open', '/public']),
        '/private/secret': page('Secret'),
        '/private/open': page('Open'),
        '/public': page('Public'),
      },
      log,
    );
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '0'], env());
    expect(r.code).toBe(0);
    expect(s.requests.map((q) => q.path)).not.toContain('/private/secret');
    expect(pagePaths(log)).toEqual(['/robots.txt', '/', '/private/open', '/public']);
    expect(r.stderr).toBe(`skipped ${s.url('/private/secret')}: disallowed by robots.txt\n`);
    expect(r.stdout).toMatch(/crawled 3 pages, indexed 3, skipped 1\n$/);
  });

  it('treats a missing robots.txt as allowing everything', async () => {
    const s = await site({ '/': page('Home', ['/a']), '/a': page('Page A') }, newLog());
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '0'], env());
    expect(r.code).toBe(0);
    expect(s.requests.map((q) => q.path)).toEqual(['/robots.txt', '/', '/a']);
  });

  it('does not crawl an origin whose robots.txt answers 5xx', async () => {
    const log = newLog();
    const s = await site(
      { '/robots.txt': { status: 503, body: 'busy' }, '/': page('Home', ['/a']), '/a': page('Page A') },
      log,
    );
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '0'], env());
    expect(r.code).toBe(1);
    expect(pagePaths(log)).toEqual(['/robots.txt']);
    expect(r.stderr).toMatch(
      /^skipped http:\/\/127\.0\.0\.2:\d+\/: not crawling .*robots\.txt could not be read \(origin answered 503/m,
    );
    expect(r.stdout).toBe('crawled 0 pages, indexed 0, skipped 1\n');
  });

  it('spaces requests to one host by --delay-ms, one at a time, at most 2 in flight overall', async () => {
    const log = newLog();
    const delayMs = 40;
    const third = await site({ '/robots.txt': ROBOTS_OK, '/c1': page('C one'), '/c2': page('C two') }, log, {
      host: '127.0.0.4',
      latencyMs: 15,
    });
    const second = await site({ '/robots.txt': ROBOTS_OK, '/b1': page('B one'), '/b2': page('B two') }, log, {
      host: '127.0.0.3',
      latencyMs: 15,
    });
    // A second origin on the same host: one host for pacing, its own robots.txt.
    const sibling = await site({ '/robots.txt': ROBOTS_OK, '/s1': page('S one') }, log, { latencyMs: 15 });
    const links = [
      '/a1',
      '/a2',
      '/a3',
      second.url('/b1'),
      second.url('/b2'),
      third.url('/c1'),
      third.url('/c2'),
      sibling.url('/s1'),
    ];
    const home = await site(
      {
        '/robots.txt': ROBOTS_OK,
        '/': page('Home', links),
        '/a1': page('A one'),
        '/a2': page('A two'),
        '/a3': page('A three'),
      },
      log,
      { latencyMs: 15 },
    );

    const r = await runScout(['index', 'crawl', home.url('/'), '--delay-ms', String(delayMs)], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/crawled 9 pages, indexed 9, skipped 0\n$/);
    expect(log.entries).toHaveLength(9 + 4);
    for (const host of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
      const seen = log.entries.filter((q) => q.host === host).sort((x, y) => x.start - y.start);
      for (let i = 1; i < seen.length; i += 1) {
        const [before, after] = [defined(seen[i - 1], 'the request before'), defined(seen[i], 'a request')];
        expect(after.start, `${host} request ${i}`).toBeGreaterThanOrEqual(before.end);
        expect(after.start - before.start).toBeGreaterThanOrEqual(delayMs);
      }
      expect(log.maxInFlightPerHost.get(host)).toBe(1);
    }
    expect(log.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('honours Crawl-delay above --delay-ms', async () => {
    const log = newLog();
    const robots = {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 0.15\n',
    };
    const s = await site(
      { '/robots.txt': robots, '/': page('Home', ['/a', '/b']), '/a': page('Page A'), '/b': page('Page B') },
      log,
    );
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '1'], env());
    expect(r.code).toBe(0);
    const starts = log.entries.map((q) => q.start);
    // The first page waits the --delay-ms after robots.txt (its Crawl-delay was not known yet).
    for (let i = 2; i < starts.length; i += 1)
      expect(defined(starts[i], 'a start') - defined(starts[i - 1], 'the start before')).toBeGreaterThanOrEqual(150);
  });

  it('follows but does not index noindex pages, and does not follow nofollow pages', async () => {
    const s = await site(
      {
        '/robots.txt': ROBOTS_OK,
        '/': page('Home', ['/hidden', '/dead-end']),
        '/hidden': page('Hidden', ['/behind'], '<meta name="robots" content="noindex">'),
        '/dead-end': page('Dead end', ['/never'], '<meta name="ScoutFetch" content="nofollow">'),
        '/behind': page('Behind'),
        '/never': page('Never'),
      },
      newLog(),
    );
    const e = env();
    const r = await runScout(['index', 'crawl', s.url('/'), '--delay-ms', '0'], e);
    expect(r.code).toBe(0);
    expect(s.requests.map((q) => q.path)).not.toContain('/never');
    expect(indexedUrls(e)).toEqual([s.url('/'), s.url('/behind'), s.url('/dead-end')]);
    expect(r.stderr).toContain(`skipped ${s.url('/hidden')}: the page asks not to be indexed`);
  });

  it.each([
    [['index', 'crawl']],
    [['index', 'crawl', 'http://a.test/', 'http://b.test/']],
    [['index', 'crawl', 'ftp://a.test/']],
    [['index', 'crawl', 'http://user:pw@a.test/']],
    [['index', 'crawl', 'http://a.test/', '--max-pages', '0']],
    [['index', 'crawl', 'http://a.test/', '--max-pages', '2.5']],
    [['index', 'crawl', 'http://a.test/', '--delay-ms', '-1']],
  ])('answers bad usage %j with exit 2', async (argv) => {
    const r = await runScout(argv, env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: scout index');
  });
});
