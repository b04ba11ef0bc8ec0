import { DomainError, isDomainError } from '../domain/errors.ts';
import type { HostPacer } from './host-pacer.ts';
import { pathFilter } from './path-patterns.ts';
import { createRobotsCache, type RobotsCache } from './robots-cache.ts';
import { ROBOTS_MAX_CHARS, type OriginRobots } from './robots-rules.ts';
import type { SiteFetch } from './site-fetch.ts';
import { hostScope } from './site-scope.ts';

/** Stops a walk at once: thrown inside, caught where the walk answers (its bound is recorded first). */
export class Halt extends Error {}

/** What every walk of a site (a map, a crawl) is given about the site. */
export interface SiteWalkOptions {
  /** An absolute http(s) URL (checked by the caller). */
  start: string;
  includeSubdomains: boolean;
  include: readonly string[];
  exclude: readonly string[];
  /** A compat shape's own filter (the Tavily shape's regexes), on top of include/exclude: same effect. */
  filter?: ((url: URL) => boolean) | undefined;
  /** Aborts at the walk's deadline (or when the caller leaves): the walk answers with what it has. */
  signal: AbortSignal;
}

export interface SiteWalkDeps {
  /** GETs pages and files through the safe pipeline (site-fetch.ts); throws DomainError. */
  fetch: SiteFetch;
  pacer: HostPacer;
  /** robots.txt per origin, when the caller shares its own; else the walk reads its own. */
  robots?: RobotsCache | undefined;
}

/**
 * What a walk of a site (src/map, src/crawl) keeps and checks the same way whatever it
 * returns: the site's scope and path filter, robots.txt per origin (read through the pacer,
 * before anything else there is requested), the check of each redirect hop, the first bound
 * met (`stopped`), and what it skipped and why (at most `skippedMax`). One per call.
 */
export abstract class SiteWalk<Stop extends string> {
  protected readonly skipped: { url: string; reason: string }[] = [];
  protected readonly robots: RobotsCache;
  protected readonly robotsRead = new Map<string, OriginRobots>();
  protected readonly inScope: (url: string) => boolean;
  /** include/exclude (and a shape's filter) pass the URL. */
  protected readonly pathOk: (url: string) => boolean;
  protected stopped: Stop | 'deadline' | null = null;

  constructor(
    readonly walk: SiteWalkOptions,
    deps: SiteWalkDeps,
    private readonly limits: { skippedMax: number; verb: 'mapping' | 'crawling'; done: 'mapped' | 'crawled' },
  ) {
    this.inScope = hostScope(walk.start, walk.includeSubdomains);
    const paths = pathFilter(walk.include, walk.exclude);
    const filter = walk.filter;
    this.pathOk = (url) => {
      const u = new URL(url);
      return paths(u.pathname) && (filter === undefined || filter(u));
    };
    const fetchText = async (url: string): Promise<string> => {
      const { body } = await deps.fetch.fetchBody(url, { signal: walk.signal });
      return new TextDecoder().decode(body).slice(0, ROBOTS_MAX_CHARS);
    };
    this.robots =
      deps.robots ??
      createRobotsCache(fetchText, {
        ...deps.pacer,
        run: (host, task) => this.untilStopped(deps.pacer.run(host, task)),
      });
  }

  /** Records the first bound met; `halt` also ends the walk at once. */
  protected stop(why: Stop | 'deadline', halt = false): void {
    this.stopped ??= why;
    if (halt) throw new Halt(why);
  }

  protected skip(url: string, reason: string): void {
    if (this.skipped.length < this.limits.skippedMax) this.skipped.push({ url, reason });
  }

  /** `work`, or a Halt as soon as the walk's signal aborts (a paced wait may be long: Crawl-delay). */
  protected untilStopped<T>(work: Promise<T>): Promise<T> {
    const { signal } = this.walk;
    if (signal.aborted) return Promise.reject(new Halt('deadline'));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Halt('deadline'));
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  protected async robotsOf(url: string): Promise<OriginRobots> {
    const { origin } = new URL(url);
    const robots = await this.robots.forUrl(url);
    this.robotsRead.set(origin, robots);
    return robots;
  }

  /**
   * The start origin's robots.txt, or undefined when it forbids the whole origin (the start
   * then skipped, saying why). One that cannot be read fails the call as /v1/fetch would:
   * nothing on that origin may be requested.
   */
  protected async startRobots(): Promise<OriginRobots | undefined> {
    const { start } = this.walk;
    const robots = await this.robotsOf(start);
    if (robots.blocked === undefined) return robots;
    const failure = robots.failure;
    const origin = new URL(start).origin;
    if (isDomainError(failure) && !this.walk.signal.aborted) {
      throw new DomainError(
        failure.kind,
        `${origin}/robots.txt could not be read, so nothing on ${origin} is ${this.limits.done}: ${failure.message}`,
        failure.retryAfterS === undefined ? undefined : { retryAfterS: failure.retryAfterS },
      );
    }
    this.skip(start, `not ${this.limits.verb} ${origin}: ${robots.blocked}`);
    return undefined;
  }

  /** Why `url` may not be requested, or undefined when it may. */
  protected async refusal(url: string): Promise<string | undefined> {
    const robots = await this.robotsOf(url);
    if (robots.blocked !== undefined) return `not ${this.limits.verb} ${new URL(url).origin}: ${robots.blocked}`;
    return robots.allows(url) ? undefined : 'disallowed by robots.txt';
  }

  /** The check of each redirect hop: on the site, robots.txt read and allowing it; `queue` takes hops to another origin. */
  protected redirect(queue: (url: string) => void): (next: URL) => void {
    return (next) => {
      const href = next.href;
      if (!this.inScope(href)) throw new DomainError('upstream', `redirected off the site to ${href}; not followed`);
      const robots = this.robotsRead.get(next.origin);
      if (robots === undefined) {
        queue(href);
        throw new DomainError('upstream', `redirected to ${href}, another origin of the site: queued to be read there`);
      }
      if (robots.blocked !== undefined || !robots.allows(href))
        throw new DomainError('upstream', `redirected to ${href}, which its robots.txt disallows; not followed`);
    };
  }

  /** A fetch failed: past the deadline the walk ends, otherwise only this URL is skipped. */
  protected failed(url: string, e: unknown): void {
    if (e instanceof Halt) throw e;
    if (this.walk.signal.aborted) this.stop('deadline', true);
    if (!isDomainError(e)) throw e;
    this.skip(url, e.message);
  }
}
