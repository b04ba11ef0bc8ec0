import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createPageFetcher } from '../../src/index/crawl/page-fetcher.ts';
import { loadRobots, MAX_CRAWL_DELAY_MS, originStatus, robotsFromText } from '../../src/site/robots-rules.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

const ORIGIN = 'https://example.com';
const at = (path: string): string => `${ORIGIN}${path}`;

describe('robotsFromText', () => {
  it('uses the ScoutFetch group instead of *, longest match first, Allow winning ties', () => {
    const r = robotsFromText(
      ORIGIN,
      'User-agent: *\nDisallow: /\n\nUser-agent: scoutfetch/2\nDisallow: /private\nAllow: /private/open\nDisallow: /*.json$\n',
    );
    expect(r.allows(at('/'))).toBe(true);
    expect(r.allows(at('/private/x'))).toBe(false);
    expect(r.allows(at('/private/open/y'))).toBe(true);
    expect(r.allows(at('/data.json'))).toBe(false);
    expect(r.allows(at('/data.json?x=1'))).toBe(true);
  });

  it('falls back to the * group', () => {
    const r = robotsFromText(ORIGIN, 'User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n');
    expect(r.allows(at('/tmp/a'))).toBe(false);
    expect(r.allows(at('/a'))).toBe(true);
  });

  it('allows everything when no group applies or the file is empty', () => {
    expect(robotsFromText(ORIGIN, 'User-agent: OtherBot\nDisallow: /\n').allows(at('/x'))).toBe(true);
    expect(robotsFromText(ORIGIN, '').allows(at('/x'))).toBe(true);
    expect(robotsFromText(ORIGIN, '# Site map\n\nSomething else').allows(at('/x'))).toBe(true);
  });

  it('never allows a URL of another origin (a caller bug)', () => {
    expect(robotsFromText(ORIGIN, '').allows('https://other.test/')).toBe(false);
  });

  it('reads Crawl-delay in milliseconds, capped', () => {
    expect(robotsFromText(ORIGIN, 'User-agent: *\nCrawl-delay: 2.5\n').crawlDelayMs).toBe(2500);
    expect(robotsFromText(ORIGIN, 'User-agent: *\nCrawl-delay: 3600\n').crawlDelayMs).toBe(MAX_CRAWL_DELAY_MS);
    expect(robotsFromText(ORIGIN, 'User-agent: *\nCrawl-delay: soon\n').crawlDelayMs).toBeUndefined();
    expect(robotsFromText(ORIGIN, 'User-agent: *\nCrawl-delay: 0\n').crawlDelayMs).toBeUndefined();
  });
});

describe('loadRobots', () => {
  const failing = (err: unknown) => async (): Promise<string> => {
    throw err;
  };

  it('asks for /robots.txt of the origin', async () => {
    const asked: string[] = [];
    const r = await loadRobots(ORIGIN, async (url) => {
      asked.push(url);
      return 'User-agent: *\nDisallow: /x';
    });
    expect(asked).toEqual(['https://example.com/robots.txt']);
    expect(r.allows(at('/x'))).toBe(false);
  });

  it.each([400, 401, 403, 404, 410])('allows everything when robots.txt answers %i', async (status) => {
    const r = await loadRobots(ORIGIN, failing(new DomainError('upstream', `origin answered ${status}`)));
    expect(r.blocked).toBeUndefined();
    expect(r.allows(at('/anything'))).toBe(true);
  });

  it.each([
    ['a 5xx', new DomainError('upstream', 'origin answered 503 (Service Unavailable)')],
    ['a 429', new DomainError('upstream', 'origin answered 429 (Too Many Requests)')],
    ['a refused connection', new DomainError('upstream', 'connection refused by 127.0.0.2:9')],
    ['a refused address', new DomainError('forbidden', 'refused: 10.0.0.1 is not a public address')],
    ['a timeout', new DomainError('timeout', 'fetching the page took longer than 10 s')],
    ['an unexpected error', new Error('bug')],
  ])('blocks the whole origin after %s', async (_, err) => {
    const r = await loadRobots(ORIGIN, failing(err));
    expect(r.blocked).toContain(err.message);
    expect(r.allows(at('/'))).toBe(false);
  });
});

describe('originStatus against the real fetch pipeline', () => {
  let server: FixtureServer | undefined;
  afterEach(async () => server?.close());

  it('reads the status the pipeline reports, so 4xx and 5xx robots.txt are told apart', async () => {
    server = await startFixtureServer({ '/gone': { status: 410, body: 'gone' }, '/busy': { status: 502, body: 'x' } });
    const fetcher = createPageFetcher({ allowCidrs: ['127.0.0.2/32'], timeoutMs: 5000 });
    try {
      const statusOf = (path: string) => fetcher.fetchText(server!.url(path)).then(() => undefined, originStatus);
      expect(await statusOf('/gone')).toBe(410);
      expect(await statusOf('/missing')).toBe(404);
      expect(await statusOf('/busy')).toBe(502);
    } finally {
      await fetcher.close();
    }
  });

  it('is undefined for other errors', () => {
    expect(originStatus(new DomainError('upstream', 'connection refused by x'))).toBeUndefined();
    expect(originStatus(new DomainError('forbidden', 'origin answered 404'))).toBeUndefined();
    expect(originStatus(new Error('origin answered 404'))).toBeUndefined();
  });
});
