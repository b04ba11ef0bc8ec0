import type { FetchOutcome } from '../../fetch/fetch-service.ts';
import type { IndexDocument } from '../index-document.ts';
import { Frontier, type FrontierEntry } from '../../site/frontier.ts';
import { frontierKey, toFrontierUrl } from '../../site/frontier-url.ts';
import type { HostPacer } from '../../site/host-pacer.ts';
import { pageDocument } from './page-document.ts';
import type { PageLinks } from '../../extract/page-links.ts';
import { createRobotsCache, type RobotsCache } from '../../site/robots-cache.ts';
import { sameSite } from '../../site/site-scope.ts';

/**
 * A breadth-first crawl from one URL into the local index. Every request (pages and
 * robots.txt) goes through `pacer` (at most 2 in flight, 1 per host, a delay per host);
 * every URL is checked against its origin's robots.txt before it is requested. At most
 * `maxPages` pages are indexed; links are queued in the order pages are read.
 */

export interface FetchedPage {
  outcome: FetchOutcome;
  links: PageLinks;
}

export interface CrawlDeps {
  /** GETs a page through the safe fetch pipeline; throws DomainError with the reason. */
  fetchPage(url: string): Promise<FetchedPage>;
  /** GETs robots.txt through the same pipeline. */
  fetchText(url: string): Promise<string>;
  pacer: HostPacer;
  /** Writes the page's document (a local index write: synchronous on SQLite, not on PostgreSQL). */
  store(doc: IndexDocument): unknown;
  onIndexed?(url: string, title: string): void;
  onSkipped?(url: string, reason: string): void;
  /** After each URL taken from the queue is done with (progress displays). */
  onProgress?(progress: CrawlProgress): void;
}

export interface CrawlProgress extends CrawlSummary {
  /** URLs waiting in the queue. */
  queued: number;
  /** Of the skipped: page requests that failed (network, status, unreadable page). */
  errors: number;
}

export interface CrawlOptions {
  /** An http(s) URL already accepted by toFrontierUrl. */
  start: string;
  maxPages: number;
  sameSite: boolean;
  /** Pages visited at once; the pacer bounds requests in flight (default 2). */
  workers?: number;
}

export interface CrawlSummary {
  /** Page requests made (robots.txt not counted). */
  crawled: number;
  indexed: number;
  /** URLs taken from the queue but not indexed: robots.txt, fetch failures, noindex, duplicates. */
  skipped: number;
}

/** Queue bound, and page requests at most per page wanted: a site of dead links cannot keep a crawl going forever. */
const FRONTIER_CAPACITY = 10_000;
const ATTEMPTS_PER_PAGE = 4;

export async function crawlSite(options: CrawlOptions, deps: CrawlDeps): Promise<CrawlSummary> {
  const run = new CrawlRun(options, deps);
  await Promise.all(Array.from({ length: options.workers ?? 2 }, () => run.worker()));
  return run.summary;
}

class CrawlRun {
  readonly summary: CrawlSummary = { crawled: 0, indexed: 0, skipped: 0 };
  readonly #frontier = new Frontier(FRONTIER_CAPACITY);
  readonly #stored = new Set<string>();
  readonly #robots: RobotsCache;
  #active = 0;
  #errors = 0;
  #wakers: Array<() => void> = [];

  constructor(
    readonly options: CrawlOptions,
    readonly deps: CrawlDeps,
  ) {
    this.#robots = createRobotsCache(deps.fetchText, deps.pacer);
    this.#frontier.add(options.start);
  }

  async worker(): Promise<void> {
    const { maxPages } = this.options;
    for (;;) {
      if (this.summary.indexed >= maxPages || this.summary.crawled >= maxPages * ATTEMPTS_PER_PAGE) return;
      // Pages in progress may still fail: wait for them rather than stop or overshoot.
      const full = this.summary.indexed + this.#active >= maxPages;
      const entry = full ? undefined : this.#frontier.next((host) => this.deps.pacer.busy(host));
      if (entry === undefined) {
        if (this.#active === 0) return;
        await new Promise<void>((resolve) => this.#wakers.push(resolve));
        continue;
      }
      this.#active += 1;
      try {
        await this.#visit(entry);
      } finally {
        this.#active -= 1;
        this.deps.onProgress?.({ ...this.summary, queued: this.#frontier.size, errors: this.#errors });
        for (const wake of this.#wakers.splice(0)) wake();
      }
    }
  }

  #skip(url: string, reason: string): void {
    this.summary.skipped += 1;
    this.deps.onSkipped?.(url, reason);
  }

  /** Why robots.txt keeps the crawl off `url`, or undefined when it may be requested. */
  async #robotsRefusal(url: string): Promise<string | undefined> {
    const robots = await this.#robots.forUrl(url);
    if (robots.blocked !== undefined) return `not crawling ${new URL(url).origin}: ${robots.blocked}`;
    return robots.allows(url) ? undefined : 'disallowed by robots.txt';
  }

  async #visit({ url, host }: FrontierEntry): Promise<void> {
    const refusal = await this.#robotsRefusal(url);
    if (refusal !== undefined) return this.#skip(url, refusal);
    this.summary.crawled += 1;
    let page: FetchedPage;
    try {
      page = await this.deps.pacer.run(host, () => this.deps.fetchPage(url));
    } catch (e) {
      this.#errors += 1;
      return this.#skip(url, (e as Error).message);
    }
    const finalUrl = page.outcome.finalUrl;
    this.#frontier.markSeen(finalUrl);
    // The pipeline follows redirects itself: judge where it landed by the same rules.
    if (this.options.sameSite && !sameSite(finalUrl, this.options.start))
      return this.#skip(url, `redirected off the site to ${finalUrl}`);
    const redirected = await this.#robotsRefusal(finalUrl);
    if (redirected !== undefined) return this.#skip(url, `redirected to ${finalUrl}, ${redirected}`);
    this.#queueLinks(page.links.links, finalUrl);
    await this.#store(url, page);
  }

  #queueLinks(links: string[], pageUrl: string): void {
    for (const link of links) {
      const next = toFrontierUrl(link, pageUrl);
      if (!('url' in next)) continue;
      if (this.options.sameSite && !sameSite(next.url, this.options.start)) continue;
      this.#frontier.add(next.url);
    }
  }

  async #store(url: string, page: FetchedPage): Promise<void> {
    if (!page.links.index) return this.#skip(url, 'the page asks not to be indexed (meta robots noindex)');
    const doc = pageDocument(page.outcome);
    if ('reason' in doc) return this.#skip(url, doc.reason);
    const key = frontierKey(doc.url);
    if (this.#stored.has(key)) return this.#skip(url, `same page as ${doc.url}, already indexed`);
    // Taken before the write: another page landing on the same url meanwhile is a duplicate.
    this.#stored.add(key);
    try {
      await this.deps.store(doc);
    } catch (e) {
      this.#stored.delete(key);
      return this.#skip(url, (e as Error).message);
    }
    this.summary.indexed += 1;
    this.deps.onIndexed?.(doc.url, doc.title);
  }
}
