import type { CrawlCheckpoint } from './crawl-checkpoint.ts';
import { crawlPage } from './crawl-page.ts';
import { mapSite } from '../map/map-site.ts';
import { CRAWL_LIMITS, type CrawlPage, type CrawlStop } from '../schemas/crawl.ts';
import { Frontier } from '../site/frontier.ts';
import { Halt, SiteWalk } from '../site/site-walk.ts';
import { frontierKey, toFrontierUrl } from '../site/frontier-url.ts';
import type { HostPacer } from '../site/host-pacer.ts';
import type { SiteFetch, WalkedPage } from '../site/site-fetch.ts';

/**
 * One bounded crawl (POST /v1/crawl, MCP crawl_site): the start page, then the pages it links
 * to, breadth first, each page fetched ONCE through the site walker (src/site/site-fetch.ts):
 * that one fetch gives both its markdown (cut to its window, src/content/page-window.ts, as
 * POST /v1/extract cuts it) and the links of its raw HTML. In order:
 * 1. the start origin's robots.txt (its rules, its Crawl-delay);
 * 2. with `sitemap`, the site's sitemaps through POST /v1/map's own reader (mapSite with
 *    sitemap: only, sharing this crawl's robots.txt, pacer and charge), their URLs queued at
 *    depth 1 after the start page's links;
 * 3. the pages, breadth first: a page's in-scope links that pass the path patterns are queued
 *    once each (a link loop ends there) at its depth + 1, up to `maxDepth`.
 * Every request goes through `pacer` (one at a time per host, the delay between them) and the
 * fetch pipeline (address policy on every hop, the fetch deadline of each page); each URL is
 * checked against its origin's robots.txt before it is requested and each redirect hop before
 * it is followed, as the map does. A page fails alone (`skipped`), and the crawl goes on; a
 * bound met stops it with the pages it has.
 */

export interface CrawlDeps {
  fetch: SiteFetch;
  pacer: HostPacer;
  /** Takes one request from the caller's rate limit; false when the bucket refuses. */
  charge(): Promise<boolean>;
}

export interface CrawlOptions {
  /** An absolute http(s) URL (checked by the caller). */
  start: string;
  maxDepth: number;
  limit: number;
  sitemap: boolean;
  includeSubdomains: boolean;
  include: readonly string[];
  exclude: readonly string[];
  /** A compat shape's own filter (the Tavily shape's regexes), on top of include/exclude: same effect. */
  filter?: ((url: URL) => boolean) | undefined;
  /** Each page's window. */
  maxChars: number;
  query?: string | undefined;
  maxPassages: number;
  /** Aborts at the crawl's deadline (or when the caller leaves): the crawl answers with what it has. */
  signal: AbortSignal;
  /** Goes on from where an earlier run of the same crawl stood (its robots.txt is read again). */
  resume?: CrawlCheckpoint | undefined;
  /** Called after each page finishes with where the crawl stands (an asynchronous job saves it). */
  onProgress?: ((checkpoint: CrawlCheckpoint) => void) | undefined;
}

export interface CrawlOutcome {
  pages: CrawlPage[];
  stopped: CrawlStop | null;
  pagesRead: number;
  sitemapsRead: number;
  /** Requests taken from the rate limit, the request's own included. */
  charged: number;
  skipped: { url: string; reason: string }[];
}

/** Links queued at most: a page of a million links cannot grow the queue without end. */
const FRONTIER_CAPACITY = 10_000;
/** Pages in flight at once (each host still gets one at a time from the pacer). */
const WORKERS = 2;
/** Sitemap URLs taken as seeds at most: more than a crawl can read (limit + extra fetches). */
const SITEMAP_SEEDS = 1000;

export async function crawlSite(options: CrawlOptions, deps: CrawlDeps): Promise<CrawlOutcome> {
  return new CrawlRun(options, deps).run();
}

class CrawlRun extends SiteWalk<CrawlStop> {
  readonly #pages: { seq: number; page: CrawlPage }[] = [];
  /** Pages returned, by frontierKey of the URL asked for and of the final URL: a page is returned once. */
  readonly #returned = new Set<string>();
  readonly #depth = new Map<string, number>();
  readonly #fetchBudget: number;
  /** A link in scope lay beyond maxDepth. */
  #deeper = false;
  #charsLeft: number = CRAWL_LIMITS.totalChars;
  #sitemapsRead = 0;
  #pagesRead = 0;
  #seq = 0;
  /** Fetches made that are charged (robots.txt is not); the first is the request's own. */
  #fetches = 0;
  #charged = 1;
  /** Pages being read, by their place in crawl order: a checkpoint queues them again. */
  readonly #inFlight = new Map<number, { url: string; depth: number }>();

  constructor(
    readonly o: CrawlOptions,
    readonly deps: CrawlDeps,
  ) {
    super(o, deps, { skippedMax: CRAWL_LIMITS.skipped, verb: 'crawling', done: 'crawled' });
    this.#fetchBudget = o.limit + CRAWL_LIMITS.extraFetches;
    const r = o.resume;
    if (r !== undefined) {
      this.#pages.push(...r.pages);
      this.skipped.push(...r.skipped);
      for (const key of r.returned) this.#returned.add(key);
      for (const q of r.queue) this.#depth.set(frontierKey(q.url), q.depth);
      this.#deeper = r.deeper;
      this.#charsLeft = r.charsLeft;
      this.#sitemapsRead = r.sitemapsRead;
      this.#pagesRead = r.pagesRead;
      this.#seq = r.seq;
      this.#fetches = r.fetches;
      this.#charged = r.charged;
      this.stopped = r.stopped;
    }
  }

  async run(): Promise<CrawlOutcome> {
    try {
      const robots = await this.startRobots();
      if (robots !== undefined) {
        // A resumed crawl's sitemap URLs are in its queue already.
        const seeds = this.o.sitemap && this.o.maxDepth > 0 && !this.o.resume ? await this.#sitemapSeeds() : [];
        await this.#walk(seeds);
      }
    } catch (e) {
      if (!(e instanceof Halt)) throw e;
    }
    if (this.o.signal.aborted) this.stop('deadline');
    if (this.stopped === null && this.#deeper) this.stopped = 'depth';
    return {
      pages: this.#pages.sort((a, b) => a.seq - b.seq).map((p) => p.page),
      stopped: this.stopped,
      pagesRead: this.#pagesRead,
      sitemapsRead: this.#sitemapsRead,
      charged: this.#charged,
      skipped: this.skipped,
    };
  }

  /** Takes one request unless this is the crawl's first fetch (the request's own); false when refused. */
  async #take(): Promise<boolean> {
    const first = this.#fetches === 0;
    this.#fetches += 1;
    if (first) return true;
    if (!(await this.untilStopped(this.deps.charge()))) return false;
    this.#charged += 1;
    return true;
  }

  /** The sitemaps' URLs in scope, through the map's reader (charged, paced and robots-checked as the crawl is). */
  async #sitemapSeeds(): Promise<string[]> {
    const out = await mapSite(
      {
        start: this.o.start,
        limit: SITEMAP_SEEDS,
        sitemap: 'only',
        includeSubdomains: this.o.includeSubdomains,
        include: this.o.include,
        exclude: this.o.exclude,
        filter: this.o.filter,
        signal: this.o.signal,
      },
      {
        fetch: this.deps.fetch,
        pacer: this.deps.pacer,
        robots: this.robots,
        // The map takes its first fetch as the request's own, as this crawl would (it is the
        // crawl's first fetch), and charges each further one through here.
        charge: async () => {
          const ok = await this.untilStopped(this.deps.charge());
          if (ok) this.#charged += 1;
          return ok;
        },
      },
    );
    this.#sitemapsRead = out.sitemapsRead;
    this.#fetches = out.sitemapsRead;
    for (const s of out.skipped) this.skip(s.url, s.reason);
    if (out.stopped === 'rate_limited') this.stop('rate_limited', true);
    if (this.o.signal.aborted) this.stop('deadline', true);
    return out.results.map((r) => r.url);
  }

  #queue(frontier: Frontier, url: string, depth: number): void {
    if (depth > this.o.maxDepth) {
      if (!frontier.seen(url)) this.#deeper = true;
      return;
    }
    if (frontier.add(url)) this.#depth.set(frontierKey(url), depth);
  }

  /** Why no further page may start now, or undefined when one may. */
  #bound(active: number): CrawlStop | undefined {
    if (this.#pages.length + active >= this.o.limit) return 'limit';
    if (this.#pagesRead + active >= this.#fetchBudget) return 'fetch_budget';
    if (this.#charsLeft <= 0) return 'char_budget';
    return undefined;
  }

  async #walk(seeds: readonly string[]): Promise<void> {
    const frontier = new Frontier(FRONTIER_CAPACITY);
    const r = this.o.resume;
    if (r === undefined) this.#queue(frontier, this.o.start, 0);
    else
      frontier.restore(
        r.seen,
        r.queue.map((q) => q.url),
      );
    let active = 0;
    let wakers: Array<() => void> = [];
    let halted: unknown;
    const worker = async (): Promise<void> => {
      for (;;) {
        if (halted !== undefined) return;
        const bound = this.#bound(active);
        const entry = bound === undefined ? frontier.next((host) => this.deps.pacer.busy(host)) : undefined;
        if (entry === undefined) {
          if (active === 0) {
            if (bound !== undefined && frontier.size > 0) this.stop(bound);
            return;
          }
          await new Promise<void>((resolve) => wakers.push(resolve));
          continue;
        }
        active += 1;
        const seq = this.#seq++;
        const depth = this.#depth.get(frontierKey(entry.url)) ?? 1;
        this.#inFlight.set(seq, { url: entry.url, depth });
        try {
          await this.#page(entry.url, depth, seq, frontier);
        } catch (e) {
          halted ??= e;
        } finally {
          // The sitemaps' URLs are one link away from the start page, after its own links.
          if (seq === 0) for (const url of seeds) this.#queue(frontier, url, 1);
          this.#inFlight.delete(seq);
          active -= 1;
          if (halted === undefined) this.o.onProgress?.(this.#checkpoint(frontier));
          const wake = wakers;
          wakers = [];
          for (const w of wake) w();
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    if (halted !== undefined) throw halted;
  }

  #checkpoint(frontier: Frontier): CrawlCheckpoint {
    const { queue, seen } = frontier.snapshot();
    const inFlight = [...this.#inFlight.entries()].sort((a, b) => a[0] - b[0]).map(([, q]) => q);
    return {
      pages: [...this.#pages],
      skipped: [...this.skipped],
      queue: [...inFlight, ...queue.map((url) => ({ url, depth: this.#depth.get(frontierKey(url)) ?? 1 }))],
      seen,
      returned: [...this.#returned],
      deeper: this.#deeper,
      charsLeft: this.#charsLeft,
      sitemapsRead: this.#sitemapsRead,
      pagesRead: this.#pagesRead,
      seq: this.#seq,
      fetches: this.#fetches,
      charged: this.#charged,
      stopped: this.stopped,
    };
  }

  async #page(url: string, depth: number, seq: number, frontier: Frontier): Promise<void> {
    if (this.#returned.has(frontierKey(url))) return;
    if (!this.inScope(url)) return this.skip(url, 'off the site; not read');
    const refusal = await this.refusal(url);
    if (refusal !== undefined) return this.skip(url, refusal);
    if (!(await this.#take())) this.stop('rate_limited', true);
    this.#pagesRead += 1;
    let page: WalkedPage;
    try {
      const redirect = this.redirect((to) => {
        const next = toFrontierUrl(to);
        if ('url' in next) this.#queue(frontier, next.url, depth);
      });
      page = await this.untilStopped(
        this.deps.pacer.run(new URL(url).hostname, () =>
          this.deps.fetch.fetchPage(url, { signal: this.o.signal, redirect }),
        ),
      );
    } catch (e) {
      return this.failed(url, e);
    }
    const final = page.finalUrl;
    frontier.markSeen(final);
    for (const link of page.links.links) {
      const next = toFrontierUrl(link, final);
      if (!('url' in next) || !this.inScope(next.url) || !this.pathOk(next.url)) continue;
      this.#queue(frontier, next.url, depth + 1);
    }
    // The start page is read for its links whatever the patterns; returned only when they keep it.
    if (!this.pathOk(url)) return;
    if (this.#returned.has(frontierKey(final))) return;
    this.#keep(url, depth, seq, page);
  }

  /** Adds the page's window (or its passages) to the answer, within what is left of the answer's characters. */
  #keep(url: string, depth: number, seq: number, page: WalkedPage): void {
    if (this.#charsLeft <= 0) {
      this.skip(url, `read, but not returned: the answer's ${CRAWL_LIMITS.totalChars} characters are used up`);
      this.stop('char_budget', true);
    }
    const kept = crawlPage(url, depth, page, {
      maxChars: this.o.maxChars,
      query: this.o.query,
      maxPassages: this.o.maxPassages,
      charsLeft: this.#charsLeft,
    });
    this.#charsLeft -= kept.content.length;
    this.#returned.add(frontierKey(url));
    this.#returned.add(frontierKey(page.finalUrl));
    this.#pages.push({ seq, page: kept });
  }
}
