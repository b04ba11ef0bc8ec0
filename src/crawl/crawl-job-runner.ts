import { randomBytes } from 'node:crypto';
import { isDomainError } from '../domain/errors.ts';
import { STATUS_OF } from '../domain/status-table.ts';
import { CRAWL_LIMITS } from '../schemas/crawl.ts';
import type { CrawlJobRecord, CrawlJobStore } from '../store/ports.ts';
import type { CrawlCheckpoint } from './crawl-checkpoint.ts';
import {
  type JobPatterns,
  type JobProgress,
  type JobRequest,
  readProgress,
  readRequest,
  resultOf,
} from './crawl-job-data.ts';
import type { CrawlService } from './crawl-service.ts';

/**
 * Runs asynchronous crawl jobs from the store, any replica's (docs/api.md "Crawl jobs"):
 * claims one whenever a worker is free (at once when this process made it, else within
 * `pollMs`), runs it on the crawl service as a POST /v1/crawl, and saves its checkpoint
 * after each page. Its lease is renewed every leaseMs / 3; a runner that dies stops renewing,
 * and once the lease ends any runner claims the job and goes on from its last checkpoint
 * (the pages then in flight are read again). A save refused means the job is no longer this
 * runner's (cancelled, or taken over after a stall): the crawl is stopped and nothing more
 * is written. On close the running jobs are handed back at once (lease ended), so a restart
 * or another replica goes on with them without waiting for the lease.
 */

export interface CrawlJobRunnerDeps {
  store: CrawlJobStore;
  crawl: Pick<CrawlService, 'run'>;
  /** SCOUT_CRAWL_JOB_WORKERS: jobs this process runs at once (0: none). */
  workers: number;
  /** A shape's regex filters, as a URL filter (src/compat/tavily-site-fields.ts siteFilter). */
  filterOf(patterns: JobPatterns): ((url: URL) => boolean) | undefined;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Defaults: 30 s, 2 s, Date.now. */
  leaseMs?: number;
  pollMs?: number;
  now?: () => number;
}

export interface CrawlJobRunner {
  /** Claims jobs now if a worker is free (called when this process makes a job). */
  kick(): void;
  /** Stops the job's crawl at once if it runs here (it was cancelled): nothing more of it is saved. */
  drop(id: string): void;
  /** Stops claiming, hands the running jobs back, and waits for their crawls to end. */
  close(): Promise<void>;
}

/** How often expired jobs are deleted. */
const PURGE_MS = 10 * 60_000;

/** Ended on purpose: `why` says whether the job is handed back (shutdown) or no longer ours. */
class Stopped extends Error {
  constructor(readonly why: 'lost' | 'shutdown') {
    super(why);
  }
}

export function createCrawlJobRunner(deps: CrawlJobRunnerDeps): CrawlJobRunner {
  const leaseMs = deps.leaseMs ?? 30_000;
  const pollMs = deps.pollMs ?? 2000;
  const now = deps.now ?? Date.now;
  const worker = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const running = new Map<string, { stop(why: Stopped['why']): void; done: Promise<void> }>();
  let closed = false;
  let filling = false;
  let again = false;

  async function fill(): Promise<void> {
    if (filling) {
      again = true;
      return;
    }
    filling = true;
    try {
      do {
        again = false;
        while (!closed && running.size < deps.workers) {
          const job = await deps.store.claim(worker, now(), leaseMs);
          if (job === undefined) break;
          start(job);
        }
      } while (again && !closed);
    } catch (e) {
      deps.log.warn({ err: (e as Error).message }, 'crawl jobs could not be claimed; trying again shortly');
    } finally {
      filling = false;
    }
  }

  function start(job: CrawlJobRecord): void {
    const abort = new AbortController();
    const done = runJob(job, abort)
      .catch((e: Error) => deps.log.warn({ err: e.message, job: job.id }, 'crawl job could not be run'))
      .finally(() => {
        running.delete(job.id);
        if (!closed) void fill();
      });
    running.set(job.id, { stop: (why) => abort.abort(new Stopped(why)), done });
  }

  async function runJob(job: CrawlJobRecord, abort: AbortController): Promise<void> {
    let request: JobRequest;
    let before: JobProgress | undefined;
    try {
      request = readRequest(job);
      before = readProgress(job);
    } catch {
      // Not JSON this version reads: ended, so that no runner claims it again and again.
      const error = { status: 500, message: 'the job as stored could not be read; start the crawl again' };
      await deps.store.save(job.id, worker, {
        progress: JSON.stringify({ startedAt: now(), error }),
        status: 'failed',
        now: now(),
        leaseMs,
      });
      return;
    }
    deps.log.info(
      { job: job.id, attempt: job.attempts, resumed: before?.checkpoint !== undefined },
      job.attempts > 1 ? 'crawl job taken over' : 'crawl job started',
    );
    const startedAt = before?.startedAt ?? now();
    let checkpoint = before?.checkpoint;
    const progress = (): JobProgress => ({ startedAt, ...(checkpoint === undefined ? {} : { checkpoint }) });

    // Saves are chained: one at a time, each writing the latest checkpoint.
    let chain = Promise.resolve();
    const save = (status: 'running' | 'completed' | 'failed', body: JobProgress, lease = leaseMs) => {
      const text = JSON.stringify(body);
      chain = chain.then(async () => {
        if (abort.signal.aborted && status === 'running' && lease !== 0) return;
        let ok = false;
        try {
          ok = await deps.store.save(job.id, worker, { progress: text, status, now: now(), leaseMs: lease });
        } catch (e) {
          // The lease outlives a short outage; the next save (or renewal) tries again.
          deps.log.warn({ err: (e as Error).message, job: job.id }, 'crawl job progress could not be saved');
          return;
        }
        if (!ok) abort.abort(new Stopped('lost'));
      });
      return chain;
    };
    let dirty = false;
    const onProgress = (c: CrawlCheckpoint) => {
      checkpoint = c;
      if (dirty) return;
      dirty = true;
      void chain.then(() => {
        dirty = false;
        return save('running', progress());
      });
    };
    const renew = setInterval(() => void save('running', progress()), Math.max(1, Math.floor(leaseMs / 3)));
    renew.unref();

    try {
      await save('running', progress());
      const timeoutMs = (request.crawl.timeout_ms ?? CRAWL_LIMITS.jobTimeoutMs.default) - (now() - startedAt);
      if (timeoutMs <= 0) {
        // Its time ran out while no runner held it (the last one died near the end).
        await save('completed', { startedAt, result: resultOf(checkpoint, 'deadline') });
        return;
      }
      const filter = request.patterns === undefined ? undefined : deps.filterOf(request.patterns);
      const out = await deps.crawl.run(
        request.crawl,
        { requestId: job.id, startedAt: performance.now(), caller: job.owner, signal: abort.signal },
        { filter, job: { timeoutMs: Math.max(timeoutMs, CRAWL_LIMITS.timeoutMs.min), resume: checkpoint, onProgress } },
      );
      if (abort.signal.aborted) return await handBack(abort, progress, save);
      const { pages, complete, stopped, pages_read, sitemaps_read, charged, skipped } = out;
      await save('completed', {
        startedAt,
        result: { pages, complete, stopped, pages_read, sitemaps_read, charged, skipped },
      });
    } catch (e) {
      if (abort.signal.aborted) return await handBack(abort, progress, save);
      const error = isDomainError(e)
        ? { status: STATUS_OF[e.kind], message: e.message }
        : { status: 500, message: 'the crawl failed on an internal error; the job ended with the pages it had' };
      if (!isDomainError(e)) deps.log.warn({ err: (e as Error).message, job: job.id }, 'crawl job failed');
      await save('failed', { ...progress(), error });
    } finally {
      clearInterval(renew);
    }
  }

  /** A job stopped on purpose: at shutdown its lease is ended at once (any runner takes it); a lost one is left alone. */
  async function handBack(
    abort: AbortController,
    progress: () => JobProgress,
    save: (s: 'running', b: JobProgress, lease: number) => Promise<void>,
  ): Promise<void> {
    const reason: unknown = abort.signal.reason;
    if (reason instanceof Stopped && reason.why === 'shutdown') await save('running', progress(), 0);
  }

  // Every replica purges: deleting what has expired is the same whoever does it.
  let polls = 0;
  const purgeEvery = Math.max(1, Math.round(PURGE_MS / pollMs));
  const poll = setInterval(() => {
    if (deps.workers > 0) void fill();
    if (polls++ % purgeEvery === 0)
      deps.store.purge(now()).catch((e: Error) => deps.log.warn({ err: e.message }, 'expired crawl jobs not purged'));
  }, pollMs);
  poll.unref();
  if (deps.workers > 0) void fill();

  return {
    kick: () => {
      if (!closed && deps.workers > 0) void fill();
    },
    drop: (id) => running.get(id)?.stop('lost'),
    async close() {
      closed = true;
      clearInterval(poll);
      const jobs = [...running.values()];
      for (const j of jobs) j.stop('shutdown');
      await Promise.all(jobs.map((j) => j.done));
    },
  };
}
