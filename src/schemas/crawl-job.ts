import { Type, type Static } from '@sinclair/typebox';
import { CrawlPage, CrawlResponse, CrawlStop } from './crawl.ts';
import { ErrorBody } from './error.ts';
import { Nullable } from './nullable.ts';
import { rule } from './rule.ts';

/**
 * An asynchronous crawl job (POST /v1/crawl with async: true; GET and DELETE /v1/crawl/{id}):
 * the crawl's own fields as POST /v1/crawl answers them, filled as the job goes, with the
 * job's state around them. docs/api.md "Crawl jobs".
 */

/** Jobs of one key queued or running at once. */
export const CRAWL_JOB_ACTIVE_MAX = 5;
/** Hours a job (its pages included) is kept after it was created, whatever its state. */
export const CRAWL_JOB_TTL_HOURS = 24;

export const CrawlJobStatus = Type.Union(
  [
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ],
  {
    title: 'CrawlJobStatus',
    description:
      'queued (waiting for a worker), running, completed (the crawl ended: complete, or stopped by a bound), failed (nothing of the site could be crawled: see error), cancelled (DELETE; the pages read until then stay).',
  },
);

export const CrawlJobId = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The job id POST /v1/crawl answered.',
      ...rule('must be a crawl job id as POST /v1/crawl answered it'),
    }),
  },
  { additionalProperties: false },
);
export type CrawlJobId = Static<typeof CrawlJobId>;

/** ISO 8601 UTC, as toISOString writes it. */
const Time = (description: string) => Type.String({ description: `${description} ISO 8601 UTC.` });
const C = CrawlResponse.properties;

export const CrawlJob = Type.Object(
  {
    request_id: Type.String({ description: 'This call’s id (not the job’s).' }),
    id: Type.String({ description: 'The job: GET /v1/crawl/{id} reads it, DELETE /v1/crawl/{id} cancels it.' }),
    status: CrawlJobStatus,
    url: C.url,
    created_at: Time('When POST /v1/crawl made the job.'),
    updated_at: Time('Its last change (a page read, its end).'),
    expires_at: Time(
      `When it is deleted, its pages with it: ${CRAWL_JOB_TTL_HOURS} h after created_at; GET then answers 404.`,
    ),
    pages: Type.Array(CrawlPage, {
      description: 'The pages read so far (all of them once the job has ended), in crawl order.',
    }),
    complete: Type.Boolean({
      description: 'True when the job completed having read every page within reach; false while it runs.',
    }),
    stopped: Nullable(CrawlStop),
    pages_read: C.pages_read,
    sitemaps_read: C.sitemaps_read,
    charged: C.charged,
    skipped: C.skipped,
    /** Why a failed job could crawl nothing (the status POST /v1/crawl would have answered); null otherwise. */
    error: Nullable(ErrorBody.properties.error),
    response_time_ms: Type.Number(),
  },
  { title: 'CrawlJob', additionalProperties: false },
);
export type CrawlJob = Static<typeof CrawlJob>;
