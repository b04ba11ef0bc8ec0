import { randomUUID } from 'node:crypto';
import { isAnonymousCaller } from '../domain/anonymous-caller.ts';
import { DomainError } from '../domain/errors.ts';
import type { RequestContext } from '../search/search-service.ts';
import { CRAWL_JOB_ACTIVE_MAX, CRAWL_JOB_TTL_HOURS, type CrawlJob } from '../schemas/crawl-job.ts';
import type { CrawlRequest } from '../schemas/crawl.ts';
import type { CrawlJobRecord, CrawlJobStore } from '../store/ports.ts';
import { type JobPatterns, type JobRequest, jobView } from './crawl-job-data.ts';
import type { CrawlJobRunner } from './crawl-job-runner.ts';
import { checkCrawlRequest } from './crawl-service.ts';

/**
 * POST /v1/crawl with async: true, GET and DELETE /v1/crawl/{id} (and Firecrawl's /v2/crawl
 * on them): a crawl kept as a job in the shared store, run by any replica's runner
 * (crawl-job-runner.ts), read and cancelled from any replica by the key that started it.
 */

export interface CrawlJobsDeps {
  store: CrawlJobStore;
  runner: Pick<CrawlJobRunner, 'kick' | 'drop'>;
  now?: () => number;
}

const TTL_MS = CRAWL_JOB_TTL_HOURS * 3_600_000;

/**
 * Which API a job is started through, for the words of its refusals: each names its own way
 * to cancel a job, and only Scout's has a crawl answered in the call to fall back on.
 */
export type JobApi = 'scout' | 'firecrawl';

const KEYLESS: Record<JobApi, string> = {
  scout: 'send one, or leave out async to crawl in the call',
  firecrawl: "send one (the Firecrawl SDK's apiKey)",
};
const CANCEL: Record<JobApi, string> = {
  scout: 'DELETE /v1/crawl/{id}',
  firecrawl: "DELETE /v2/crawl/{id} (the Firecrawl SDK's cancelCrawl)",
};

const notFound = (id: string) =>
  new DomainError(
    'not_found',
    `no crawl job ${id} for this key: a job is read with the key that started it, and deleted ${CRAWL_JOB_TTL_HOURS} h after it was created`,
  );

export function createCrawlJobs(deps: CrawlJobsDeps) {
  const now = deps.now ?? Date.now;

  /** The caller's job, or 404 (another key's job is not told apart from none). */
  const owned = (job: CrawlJobRecord | undefined, id: string, caller: string | undefined) => {
    if (job === undefined || job.owner !== caller || job.expiresAt <= now()) throw notFound(id);
    return job;
  };

  return {
    /** Checks the crawl as POST /v1/crawl would, then queues it; the job as made (queued). */
    async start(
      req: CrawlRequest,
      ctx: RequestContext,
      patterns?: JobPatterns,
      api: JobApi = 'scout',
    ): Promise<CrawlJob> {
      checkCrawlRequest(req);
      const owner = ctx.caller;
      if (owner === undefined || isAnonymousCaller(owner))
        throw new DomainError(
          'unauthorized',
          `an asynchronous crawl needs an API key (a job belongs to the key that started it): ${KEYLESS[api]}`,
        );
      const { async: _async, ...crawl } = req;
      const request: JobRequest = { crawl, ...(patterns === undefined ? {} : { patterns }) };
      const id = randomUUID();
      const at = now();
      const made = await deps.store.create(
        { id, owner, request: JSON.stringify(request), createdAt: at, expiresAt: at + TTL_MS },
        CRAWL_JOB_ACTIVE_MAX,
      );
      if (!made)
        throw new DomainError(
          'rate_limited',
          `this key has ${CRAWL_JOB_ACTIVE_MAX} crawl jobs queued or running, the most it may at once; wait for one to end, or cancel one with ${CANCEL[api]}`,
          { retryAfterS: 10 },
        );
      // Read before the runner is woken: the answer is the job as made (queued), whoever claims it next.
      const job = owned(await deps.store.get(id), id, owner);
      deps.runner.kick();
      return jobView(job, ctx);
    },

    async get(id: string, ctx: RequestContext): Promise<CrawlJob> {
      return jobView(owned(await deps.store.get(id), id, ctx.caller), ctx);
    },

    /** Cancels a queued or running job (its pages so far stay); an ended one is answered as it is. */
    async cancel(id: string, ctx: RequestContext): Promise<CrawlJob> {
      // The store cancels only the caller's own job; another's, or none, is 404 alike.
      const job = owned(await deps.store.cancel(id, ctx.caller ?? '', now()), id, ctx.caller);
      deps.runner.drop(id);
      return jobView(job, ctx);
    },
  };
}

export type CrawlJobs = ReturnType<typeof createCrawlJobs>;
