import type { MapLink, MapStop } from '../schemas/map.ts';
import { MAP_LIMITS } from '../schemas/map.ts';
import { Frontier } from '../site/frontier.ts';
import { Halt, SiteWalk } from '../site/site-walk.ts';
import { frontierKey, toFrontierUrl } from '../site/frontier-url.ts';
import type { HostPacer } from '../site/host-pacer.ts';
import type { RobotsCache } from '../site/robots-cache.ts';
import type { OriginRobots } from '../site/robots-rules.ts';
import type { SiteFetch, WalkedPage } from '../site/site-fetch.ts';
import { sitemapText } from '../site/sitemap-body.ts';
import { parseSitemap } from '../site/sitemap-xml.ts';
import { rankBySearch, urlSearch } from '../site/url-search.ts';

/**
 * One site map (POST /v1/map, MCP map_site): the site's URLs from its sitemaps and from the
 * links of the pages it reads, without extracting them for the caller. In order:
 * 1. the start origin's robots.txt (its rules, its Crawl-delay, its `Sitemap:` lines);
 * 2. unless `sitemap` is skip: the sitemaps robots.txt names (or /sitemap.xml when it names
 *    none), and the children of sitemap indexes, breadth first, at most MAP_LIMITS.sitemaps
 *    files and MAP_LIMITS.sitemapDepth levels;
 * 3. unless `sitemap` is only: the start page and the pages it links to, breadth first, at
 *    most MAP_LIMITS.pages, each link queued once (a link loop ends there).
 * Every request goes through `pacer` (one at a time per host, the delay between them,
 * robots.txt's Crawl-delay) and the fetch pipeline (the address policy on every hop); every
 * URL is checked against its origin's robots.txt before it is requested, and each redirect
 * hop before it is followed: a hop off the site is not followed, a hop to another origin of
 * the site (http to https, a subdomain) is queued to be read after that origin's robots.txt.
 * A URL fails alone: its reason goes to `skipped`, and the map goes on.
 */

export interface MapDeps {
  /** GETs pages and files through the safe pipeline (src/site/site-fetch.ts); throws DomainError. */
  fetch: SiteFetch;
  pacer: HostPacer;
  /** Takes one request from the caller's rate limit; false when the bucket refuses. */
  charge(): Promise<boolean>;
  /** robots.txt per origin, when the caller shares its own (a crawl seeding from sitemaps); else the map reads its own. */
  robots?: RobotsCache;
}

export interface MapOptions {
  /** An absolute http(s) URL (checked by the caller). */
  start: string;
  limit: number;
  sitemap: 'include' | 'only' | 'skip';
  includeSubdomains: boolean;
  search?: string | undefined;
  include: readonly string[];
  exclude: readonly string[];
  /** A compat shape's own filter (the Tavily shape's regexes), on top of include/exclude: same effect. */
  filter?: ((url: URL) => boolean) | undefined;
  /** Aborts at the map's deadline (or when the caller leaves): the map answers with what it has. */
  signal: AbortSignal;
}

export interface MapOutcome {
  results: MapLink[];
  stopped: MapStop | null;
  sitemapsRead: number;
  pagesRead: number;
  /** Requests taken from the rate limit, the request's own included. */
  charged: number;
  skipped: { url: string; reason: string }[];
}

/** Links queued for reading at most: a site of millions of links cannot grow the queue without end. */
const FRONTIER_CAPACITY = 10_000;
const WORKERS = 2;

/** A sitemap URL as requested: http(s), no credentials, no fragment (page extensions do not apply: .xml, .gz). */
function sitemapUrl(raw: string): string | undefined {
  try {
    const u = new URL(raw.trim());
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username !== '' || u.password !== '') return undefined;
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

export async function mapSite(options: MapOptions, deps: MapDeps): Promise<MapOutcome> {
  const run = new MapRun(options, deps);
  return run.run();
}

class MapRun extends SiteWalk<MapStop> {
  readonly #found = new Map<string, MapLink>();
  readonly #search;
  #sitemapsRead = 0;
  #pagesRead = 0;
  /** Fetches made that are charged (robots.txt is not); the first is the request's own. */
  #fetches = 0;
  #charged = 1;

  constructor(
    readonly o: MapOptions,
    readonly deps: MapDeps,
  ) {
    super(o, deps, { skippedMax: MAP_LIMITS.skipped, verb: 'mapping', done: 'mapped' });
    this.#search = o.search === undefined ? undefined : urlSearch(o.search);
  }

  async run(): Promise<MapOutcome> {
    try {
      const robots = await this.startRobots();
      if (robots !== undefined) {
        if (this.o.sitemap !== 'skip') await this.#sitemaps(robots);
        if (this.o.sitemap !== 'only') await this.#pages();
      }
    } catch (e) {
      if (!(e instanceof Halt)) throw e;
    }
    if (this.o.signal.aborted) this.stop('deadline');
    return this.#outcome();
  }

  #outcome(): MapOutcome {
    let results = [...this.#found.values()];
    const search = this.#search;
    if (search !== undefined) results = rankBySearch(results, (r) => search.score(r.url, r.title));
    if (results.length > this.o.limit) {
      this.stop('limit');
      results = results.slice(0, this.o.limit);
    }
    return {
      results,
      stopped: this.stopped,
      sitemapsRead: this.#sitemapsRead,
      pagesRead: this.#pagesRead,
      charged: this.#charged,
      skipped: this.skipped,
    };
  }

  /** One more fetch: the first is the request's own; the others each take a request, or stop the map. */
  async #charge(): Promise<void> {
    if (this.#fetches > 0) {
      if (!(await this.untilStopped(this.deps.charge()))) this.stop('rate_limited', true);
      this.#charged += 1;
    }
    this.#fetches += 1;
  }

  /** Adds a URL to the results when it passes the filters (a URL already there gets the title). */
  #keep(url: string, source: MapLink['source'], extra: { title?: string; lastmod?: string | null } = {}): void {
    if (!this.inScope(url) || !this.pathOk(url)) return;
    const robots = this.robotsRead.get(new URL(url).origin);
    if (robots !== undefined && (robots.blocked !== undefined || !robots.allows(url))) {
      this.skip(url, 'disallowed by robots.txt; left out');
      return;
    }
    const key = frontierKey(url);
    const known = this.#found.get(key);
    if (known !== undefined) {
      if (extra.title !== undefined && known.title === null) known.title = extra.title;
      return;
    }
    if (this.#found.size >= MAP_LIMITS.candidates) this.stop('candidates', true);
    this.#found.set(key, { url, source, title: extra.title ?? null, lastmod: extra.lastmod ?? null });
    // Without a search the first `limit` URLs are the answer: one more says the site has more.
    if (this.#search === undefined && this.#found.size > this.o.limit) this.stop('limit', true);
  }

  async #sitemaps(robots: OriginRobots): Promise<void> {
    const start = new URL(this.o.start);
    const named = robots.sitemaps.length > 0 ? robots.sitemaps : [`${start.origin}/sitemap.xml`];
    const queue: { url: string; depth: number }[] = [];
    const queued = new Set<string>();
    const enqueue = (raw: string, depth: number) => {
      const url = sitemapUrl(raw);
      if (url === undefined) return this.skip(raw.slice(0, 2048), 'not an http(s) sitemap URL; not read');
      if (queued.has(url)) return;
      queued.add(url);
      if (!this.inScope(url)) return this.skip(url, 'sitemap on another site; not read');
      if (depth > MAP_LIMITS.sitemapDepth) return this.skip(url, 'sitemap index nested too deep; not read');
      queue.push({ url, depth });
    };
    for (const url of named) enqueue(url, 1);
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (this.#sitemapsRead >= MAP_LIMITS.sitemaps) {
        this.stop('sitemap_budget');
        return;
      }
      await this.#sitemap(item.url, item.depth, enqueue);
    }
  }

  async #sitemap(url: string, depth: number, enqueue: (url: string, depth: number) => void): Promise<void> {
    const refusal = await this.refusal(url);
    if (refusal !== undefined) return this.skip(url, refusal);
    await this.#charge();
    this.#sitemapsRead += 1;
    let body: Uint8Array;
    let finalUrl: string;
    try {
      const host = new URL(url).hostname;
      const redirect = this.redirect((to) => enqueue(to, depth));
      ({ body, finalUrl } = await this.untilStopped(
        this.deps.pacer.run(host, () => this.deps.fetch.fetchBody(url, { signal: this.o.signal, redirect })),
      ));
    } catch (e) {
      return this.failed(url, e);
    }
    const { text, cut } = await sitemapText(body);
    if (cut) this.skip(url, 'sitemap larger than 10 MiB decompressed: read up to there');
    const sitemap = parseSitemap(text);
    if (sitemap === undefined) return this.skip(url, 'not a sitemap (neither XML urlset, sitemapindex, nor text)');
    for (const entry of sitemap.entries) {
      if (sitemap.kind === 'index') {
        enqueue(entry.loc, depth + 1);
        continue;
      }
      const next = toFrontierUrl(entry.loc, finalUrl);
      if ('url' in next) this.#keep(next.url, 'sitemap', { lastmod: entry.lastmod });
    }
  }

  async #pages(): Promise<void> {
    const frontier = new Frontier(FRONTIER_CAPACITY);
    frontier.add(this.o.start);
    let active = 0;
    let wakers: Array<() => void> = [];
    let halted: unknown;
    const worker = async (): Promise<void> => {
      for (;;) {
        if (halted !== undefined) return;
        const budgetLeft = this.#pagesRead + active < MAP_LIMITS.pages;
        const entry = budgetLeft ? frontier.next((host) => this.deps.pacer.busy(host)) : undefined;
        if (entry === undefined) {
          if (active === 0) {
            if (!budgetLeft && frontier.size > 0) this.stop('page_budget');
            return;
          }
          await new Promise<void>((resolve) => wakers.push(resolve));
          continue;
        }
        active += 1;
        try {
          await this.#page(entry.url, frontier);
        } catch (e) {
          halted ??= e;
        } finally {
          active -= 1;
          const wake = wakers;
          wakers = [];
          for (const w of wake) w();
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    if (halted !== undefined) throw halted;
  }

  async #page(url: string, frontier: Frontier): Promise<void> {
    if (!this.inScope(url)) return this.skip(url, 'off the site; not read');
    const refusal = await this.refusal(url);
    if (refusal !== undefined) return this.skip(url, refusal);
    await this.#charge();
    this.#pagesRead += 1;
    let page: WalkedPage;
    try {
      const redirect = this.redirect((to) => {
        const next = toFrontierUrl(to);
        if ('url' in next) frontier.add(next.url);
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
    if (frontierKey(final) !== frontierKey(url)) {
      // The URL redirects: its target is the page; a link's entry for the old URL goes.
      const old = this.#found.get(frontierKey(url));
      if (old?.source === 'page') this.#found.delete(frontierKey(url));
    }
    this.#keep(final, 'page', { title: page.title.trim() || final });
    for (const link of page.links.links) {
      const next = toFrontierUrl(link, final);
      if (!('url' in next) || !this.inScope(next.url)) continue;
      this.#keep(next.url, 'page');
      if (this.pathOk(next.url)) frontier.add(next.url);
    }
  }
}
