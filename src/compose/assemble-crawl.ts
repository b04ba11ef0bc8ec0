import type { ScoutConfig } from '../scout-settings.ts';
import { jobPatternsFilter } from '../compat/job-patterns.ts';
import { createCrawlJobRunner } from '../crawl/crawl-job-runner.ts';
import { createCrawlJobs, type CrawlJobs } from '../crawl/crawl-jobs.ts';
import { createCrawlService, type CrawlService } from '../crawl/crawl-service.ts';
import type { Closers } from '../domain/closers.ts';
import { callerRateLimiter } from '../keys/caller-limiter.ts';
import type { Stores } from '../store/ports.ts';
import type { Fetching } from './assemble-fetch.ts';

/**
 * POST /v1/crawl and MCP crawl_site: bounded crawls over the one fetch pipeline (its capacity,
 * its counting, its per-host gate), paced as site maps are, charged to the caller's own bucket
 * as they go. Beside them the asynchronous crawl jobs, kept in the store and run by this
 * process's runner (SCOUT_CRAWL_JOB_WORKERS at once), which is closed before the fetch
 * pipeline and the store: its running jobs are handed back for a restart or another replica.
 */
export function assembleCrawl(
  config: Pick<ScoutConfig, 'mapDelayMs' | 'crawlJobWorkers' | 'crawlJobLeaseS'>,
  deps: {
    fetching: Fetching;
    stores: Pick<Stores, 'rateLimiter' | 'anonymousRateLimiter' | 'crawlJobs'>;
    log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  },
  closers: Closers,
): { crawl: CrawlService; jobs: CrawlJobs } {
  const crawl = createCrawlService({
    fetch: deps.fetching.fetch,
    capture: deps.fetching.capture,
    rateLimiter: callerRateLimiter(deps.stores.rateLimiter, deps.stores.anonymousRateLimiter),
    delayMs: config.mapDelayMs,
  });
  const runner = createCrawlJobRunner({
    store: deps.stores.crawlJobs,
    crawl,
    workers: config.crawlJobWorkers,
    leaseMs: config.crawlJobLeaseS * 1000,
    // A compat shape's path filters (Firecrawl's crawl), stored with the job as text.
    filterOf: jobPatternsFilter,
    log: deps.log,
  });
  closers.add(() => runner.close());
  return { crawl, jobs: createCrawlJobs({ store: deps.stores.crawlJobs, runner }) };
}
