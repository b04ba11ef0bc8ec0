import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import { crawlSite, type CrawlDeps, type FetchedPage } from '../../../src/index/crawl/crawl-site.ts';
import { createHostPacer } from '../../../src/site/host-pacer.ts';
import type { IndexDocument } from '../../../src/index/index-document.ts';

/**
 * crawlSite's bookkeeping with an in-memory web (no requests): the CLI tests cover the same
 * code on real fixture servers; these pin the edge cases that are awkward to stage there.
 */

interface FakePage {
  links?: string[];
  finalUrl?: string;
  index?: boolean;
  error?: string;
}

function fakeWeb(pages: Record<string, FakePage>, robots: Record<string, string> = {}) {
  const requested: string[] = [];
  const stored: IndexDocument[] = [];
  const skipped: string[] = [];
  const deps: CrawlDeps = {
    async fetchPage(url): Promise<FetchedPage> {
      requested.push(url);
      const p = pages[url];
      if (p === undefined || p.error !== undefined)
        throw new DomainError('upstream', p?.error ?? 'origin answered 404 (Not Found)');
      const finalUrl = p.finalUrl ?? url;
      const outcome = {
        url,
        finalUrl,
        title: `Title of ${finalUrl}`,
        content: 'text',
        chars: 4,
        truncated: false,
        meta: { unwrapped: false, click_path: null, content_type: 'text/html' },
      };
      return { outcome, links: { links: p.links ?? [], index: p.index ?? true, follow: true } };
    },
    async fetchText(url) {
      requested.push(url);
      const text = robots[new URL(url).origin];
      if (text === undefined) throw new DomainError('upstream', 'origin answered 404 (Not Found)');
      return text;
    },
    pacer: createHostPacer({ maxInFlight: 2, delayMs: 0 }),
    store: (doc) => void stored.push(doc),
    onSkipped: (url, reason) => void skipped.push(`${url}: ${reason}`),
  };
  return { deps, requested, stored, skipped };
}

const A = 'https://a.test';

describe('crawlSite', () => {
  it('indexes at most maxPages, going on past pages that fail', async () => {
    const web = fakeWeb({
      [`${A}/`]: { links: [`${A}/bad1`, `${A}/bad2`, `${A}/ok1`, `${A}/ok2`, `${A}/ok3`] },
      [`${A}/bad1`]: { error: 'connection refused by a.test:443' },
      [`${A}/ok1`]: {},
      [`${A}/ok2`]: {},
      [`${A}/ok3`]: {},
    });
    const summary = await crawlSite({ start: `${A}/`, maxPages: 3, sameSite: true }, web.deps);
    expect(summary).toEqual({ crawled: 5, indexed: 3, skipped: 2 });
    expect(web.stored.map((d) => d.url)).toEqual([`${A}/`, `${A}/ok1`, `${A}/ok2`]);
    expect(web.requested).not.toContain(`${A}/ok3`);
    expect(web.skipped).toEqual([
      `${A}/bad1: connection refused by a.test:443`,
      `${A}/bad2: origin answered 404 (Not Found)`,
    ]);
  });

  it('stops after a bounded number of requests when nearly every link is dead', async () => {
    const dead = Array.from({ length: 50 }, (_, i) => `${A}/dead-${i}`);
    const web = fakeWeb({ [`${A}/`]: { links: dead } });
    const summary = await crawlSite({ start: `${A}/`, maxPages: 2, sameSite: true }, web.deps);
    expect(summary.indexed).toBe(1);
    expect(summary.crawled).toBe(8);
  });

  it('indexes a redirect under its target once', async () => {
    const web = fakeWeb({
      [`${A}/`]: { links: [`${A}/old`, `${A}/new`] },
      [`${A}/old`]: { finalUrl: `${A}/new` },
      [`${A}/new`]: {},
    });
    const summary = await crawlSite({ start: `${A}/`, maxPages: 10, sameSite: true }, web.deps);
    expect(web.stored.map((d) => d.url)).toEqual([`${A}/`, `${A}/new`]);
    expect(summary).toEqual({ crawled: 3, indexed: 2, skipped: 1 });
    expect(web.skipped).toEqual([`${A}/new: same page as ${A}/new, already indexed`]);
  });

  it('judges a redirect target by --same-site and by its own robots.txt', async () => {
    const web = fakeWeb(
      {
        [`${A}/`]: { links: [`${A}/away`, `${A}/hidden`] },
        [`${A}/away`]: { finalUrl: 'https://b.test/landing' },
        [`${A}/hidden`]: { finalUrl: 'https://c.a.test/private/x' },
      },
      { 'https://c.a.test': 'User-agent: *\nDisallow: /private\n' },
    );
    await crawlSite({ start: `${A}/`, maxPages: 10, sameSite: true }, web.deps);
    expect(web.stored.map((d) => d.url)).toEqual([`${A}/`]);
    expect(web.skipped.sort()).toEqual([
      `${A}/away: redirected off the site to https://b.test/landing`,
      `${A}/hidden: redirected to https://c.a.test/private/x, disallowed by robots.txt`,
    ]);
  });

  it('reads each origin robots.txt once and skips noindex pages', async () => {
    const web = fakeWeb({ [`${A}/`]: { links: [`${A}/x`, `${A}/y`] }, [`${A}/x`]: { index: false }, [`${A}/y`]: {} });
    const summary = await crawlSite({ start: `${A}/`, maxPages: 10, sameSite: false }, web.deps);
    expect(web.requested.filter((u) => u.endsWith('/robots.txt'))).toEqual([`${A}/robots.txt`]);
    expect(summary).toEqual({ crawled: 3, indexed: 2, skipped: 1 });
  });

  it('skips a page the index refuses and goes on', async () => {
    const web = fakeWeb({ [`${A}/`]: { links: [`${A}/a`] }, [`${A}/a`]: {} });
    let calls = 0;
    const store = web.deps.store;
    web.deps.store = (doc) => {
      if (calls++ === 0) throw new DomainError('invalid', 'document 1: url must be at most 2048 characters');
      store(doc);
    };
    const summary = await crawlSite({ start: `${A}/`, maxPages: 10, sameSite: true }, web.deps);
    expect(summary).toEqual({ crawled: 2, indexed: 1, skipped: 1 });
    expect(web.skipped[0]).toContain('at most 2048 characters');
  });
});
