import type { CrawlJob } from '../schemas/crawl-job.ts';
import type { CrawlRequest, CrawlResponse } from '../schemas/crawl.ts';
import type { CrawlJobRecord } from '../store/ports.ts';
import { type CrawlCheckpoint, checkpointPages } from './crawl-checkpoint.ts';

/**
 * What a crawl job keeps in the store's two opaque texts (src/store/ports.ts CrawlJobStore):
 * its request, written once, and its progress, rewritten as it goes. Both JSON; both read
 * by any replica, so nothing in them may depend on the process that wrote them.
 */

/** Path filters of a compat shape (Firecrawl's includePaths, excludePaths, crawlEntireDomain): rebuilt by every run. */
export interface JobPatterns {
  /** Regexes on the URL path: a page is read when one matches. */
  select_paths?: string[];
  /** Regexes on the URL path: a page is never read when one matches. */
  exclude_paths?: string[];
  /** Only URLs whose path starts with this (Firecrawl's crawl without crawlEntireDomain: the start URL's path). */
  path_prefix?: string;
}

export interface JobRequest {
  crawl: CrawlRequest;
  patterns?: JobPatterns;
}

/** The crawl's fields of an ended job, as POST /v1/crawl answers them. */
export type JobResult = Pick<
  CrawlResponse,
  'pages' | 'complete' | 'stopped' | 'pages_read' | 'sitemaps_read' | 'charged' | 'skipped'
>;

export interface JobProgress {
  /** Epoch ms of the job's first start: its timeout_ms counts from there, whichever replica runs it. */
  startedAt: number;
  /** Where the crawl stood at its last page, while it runs (and when it failed or was cancelled). */
  checkpoint?: CrawlCheckpoint;
  /** The crawl's answer, once completed. */
  result?: JobResult;
  /** Why it failed. */
  error?: { status: number; message: string };
}

export const readRequest = (job: CrawlJobRecord): JobRequest => JSON.parse(job.request) as JobRequest;
export const readProgress = (job: CrawlJobRecord): JobProgress | undefined =>
  job.progress === null ? undefined : (JSON.parse(job.progress) as JobProgress);

/** A checkpoint's crawl fields: what a job that runs, or ended without an answer, has so far. */
export function resultOf(c: CrawlCheckpoint | undefined, stopped: JobResult['stopped'] = null): JobResult {
  return {
    pages: c === undefined ? [] : checkpointPages(c),
    complete: false,
    stopped,
    pages_read: c?.pagesRead ?? 0,
    sitemaps_read: c?.sitemapsRead ?? 0,
    charged: c?.charged ?? 1,
    skipped: c?.skipped ?? [],
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A job as the API answers it. */
export function jobView(job: CrawlJobRecord, call: { requestId: string; startedAt: number }): CrawlJob {
  const progress = readProgress(job);
  const result = progress?.result ?? resultOf(progress?.checkpoint);
  return {
    request_id: call.requestId,
    id: job.id,
    status: job.status,
    url: readRequest(job).crawl.url,
    created_at: iso(job.createdAt),
    updated_at: iso(job.updatedAt),
    expires_at: iso(job.expiresAt),
    ...result,
    error: progress?.error ?? null,
    response_time_ms: Math.round((performance.now() - call.startedAt) * 100) / 100,
  };
}
