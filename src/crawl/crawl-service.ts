import { DomainError } from '../domain/errors.ts';
import { parseFetchUrl } from '../fetch/url-guard.ts';
import { CRAWL_LIMITS, type CrawlRequest, type CrawlResponse } from '../schemas/crawl.ts';
import { EXTRACT_LIMITS } from '../schemas/extract.ts';
import type { RequestContext } from '../search/search-service.ts';
import { withWalk, type WalkServiceDeps } from '../site/walk-call.ts';
import { toFrontierUrl } from '../site/frontier-url.ts';
import type { CrawlCheckpoint } from './crawl-checkpoint.ts';
import { crawlSite } from './crawl-site.ts';

/**
 * POST /v1/crawl (and MCP crawl_site): defaults, the crawl's deadline, its charge, the envelope.
 *
 * Charged as it goes, as POST /v1/map is: the request's own charge (taken when it arrives)
 * covers the crawl's first page or sitemap fetch, and each further one takes one more request
 * from the same bucket before it is made; when the bucket refuses, the crawl stops there and
 * answers the pages it has (stopped: rate_limited). robots.txt fetches are free. So a crawl
 * costs max(1, pages + sitemaps fetched), at most limit + CRAWL_LIMITS.extraFetches pages plus
 * MAP_LIMITS.sitemaps sitemaps with sitemap: include.
 */

export type CrawlServiceDeps = WalkServiceDeps;

/** How one run differs from a plain POST /v1/crawl (a compat shape's filter, an asynchronous job's run). */
export interface CrawlRunOptions {
  /** A compat shape's own URL filter (src/compat/tavily-crawl.ts), beside the request's patterns. */
  filter?: ((url: URL) => boolean) | undefined;
  /** An asynchronous job (src/crawl/crawl-job-runner.ts): */
  job?: {
    /** What is left of the job's timeout_ms (it counts from the job's first start). */
    timeoutMs: number;
    resume?: CrawlCheckpoint | undefined;
    onProgress(checkpoint: CrawlCheckpoint): void;
  };
}

/** What the schema cannot say, checked before anything is fetched. */
export function checkCrawlRequest(req: CrawlRequest): string {
  parseFetchUrl(req.url);
  const start = toFrontierUrl(req.url);
  if (!('url' in start)) throw new DomainError('invalid', `url cannot be crawled: ${start.skip}`);
  if (req.async !== true && req.timeout_ms !== undefined && req.timeout_ms > CRAWL_LIMITS.timeoutMs.max) {
    throw new DomainError(
      'invalid',
      `timeout_ms must be at most ${CRAWL_LIMITS.timeoutMs.max} for a crawl answered in the call; send async: true to run a longer crawl (up to ${CRAWL_LIMITS.jobTimeoutMs.max}) as a job`,
    );
  }
  if (req.max_passages !== undefined && req.query === undefined) {
    throw new DomainError('invalid', 'max_passages needs query: it says how many passages per page the query keeps');
  }
  return start.url;
}

export function createCrawlService(deps: CrawlServiceDeps) {
  return {
    async run(req: CrawlRequest, ctx: RequestContext, o: CrawlRunOptions = {}): Promise<CrawlResponse> {
      const { job } = o;
      // A job's request comes without async (crawl-jobs.ts keeps the crawl's own fields), and
      // its timeout_ms may be a job's: checked as the job it is.
      const start = checkCrawlRequest(job === undefined ? req : { ...req, async: true });
      const timeoutMs = job?.timeoutMs ?? req.timeout_ms ?? CRAWL_LIMITS.timeoutMs.default;
      // A job nobody waits on waits for the key's rate limit rather than stopping at it.
      const walk = { timeoutMs, what: 'the crawl', waitForRate: job !== undefined };
      const out = await withWalk(deps, ctx, walk, (signal, call) =>
        crawlSite(
          {
            start,
            maxDepth: req.max_depth ?? CRAWL_LIMITS.maxDepth.default,
            limit: req.limit ?? CRAWL_LIMITS.limit.default,
            sitemap: (req.sitemap ?? 'skip') === 'include',
            includeSubdomains: req.include_subdomains ?? false,
            include: req.include_paths ?? [],
            exclude: req.exclude_paths ?? [],
            filter: o.filter,
            maxChars:
              req.max_chars ?? (req.query === undefined ? CRAWL_LIMITS.maxChars.default : CRAWL_LIMITS.maxChars.max),
            query: req.query,
            maxPassages: req.max_passages ?? EXTRACT_LIMITS.maxPassages.default,
            signal,
            resume: job?.resume,
            onProgress: job?.onProgress,
          },
          call,
        ),
      );
      return {
        request_id: ctx.requestId,
        url: req.url,
        pages: out.pages,
        complete: out.stopped === null,
        stopped: out.stopped,
        pages_read: out.pagesRead,
        sitemaps_read: out.sitemapsRead,
        charged: out.charged,
        skipped: out.skipped,
        response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
      };
    },
  };
}

export type CrawlService = ReturnType<typeof createCrawlService>;
