import type { CrawlJobRecord, CrawlJobStatus, CrawlJobStore, NewCrawlJob } from '../ports.ts';
import { int, type SqlCodec } from './sql-codec.ts';

/**
 * The `crawl_jobs` table ⇄ CrawlJobRecord, and the statements of the CrawlJobStore, for the
 * SQLite and the PostgreSQL store alike. Placeholders are numbered in text order and a value
 * used twice is passed twice, so one text serves `?` and `$n`. What only one driver needs
 * (PostgreSQL's row locks when claiming, its advisory lock around a create) is the store's.
 */

/** Named columns, never *: a prepared pg statement fails once a later migration changes the row shape. */
export const CRAWL_JOB_COLUMNS =
  'id, owner, request, status, progress, created_at, updated_at, expires_at, lease_owner, lease_until, attempts';

/** A row as either driver hands it over: pg gives bigint (the times) as text, SQLite numbers. */
export interface CrawlJobRow {
  id: string;
  owner: string;
  request: string;
  status: string;
  progress: string | null;
  created_at: number | string;
  updated_at: number | string;
  expires_at: number | string;
  lease_owner: string | null;
  lease_until: number | string | null;
  attempts: number | string;
}

export const crawlJobFromRow = (r: CrawlJobRow): CrawlJobRecord => ({
  id: r.id,
  owner: r.owner,
  request: r.request,
  // The column's CHECK admits these five only.
  status: r.status as CrawlJobStatus,
  progress: r.progress,
  createdAt: int(r.created_at),
  updatedAt: int(r.updated_at),
  expiresAt: int(r.expires_at),
  leaseOwner: r.lease_owner,
  leaseUntil: r.lease_until === null ? null : int(r.lease_until),
  attempts: int(r.attempts),
});

/** The statuses that count against an owner's bound, and that a cancel ends. */
const ACTIVE = "status IN ('queued', 'running')";

export const crawlJobByIdSql = (c: SqlCodec): string =>
  `SELECT ${CRAWL_JOB_COLUMNS} FROM crawl_jobs WHERE id = ${c.param(1)}`;

/**
 * Adds the job, queued, only while its owner has fewer than the bound queued or running:
 * no row changed means refused. Atomic on its own on SQLite (a write statement holds the
 * file's write lock from its start); PostgreSQL's store runs it under a per-owner lock.
 */
export const createCrawlJobSql = (c: SqlCodec): string =>
  `INSERT INTO crawl_jobs (${CRAWL_JOB_COLUMNS})
   SELECT ${c.param(1)}, ${c.param(2)}, ${c.param(3)}, 'queued', NULL, ${c.param(4)}, ${c.param(5)}, ${c.param(6)}, NULL, NULL, 0
   WHERE (SELECT count(*) FROM crawl_jobs WHERE owner = ${c.param(7)} AND ${ACTIVE}) < ${c.param(8)}`;

export const createCrawlJobValues = (job: NewCrawlJob, maxActive: number): unknown[] => [
  job.id,
  job.owner,
  job.request,
  job.createdAt,
  job.createdAt,
  job.expiresAt,
  job.owner,
  maxActive,
];

/**
 * Leases the oldest free job (queued, or running with its lease ended) to a worker in one
 * statement, so no other claim sees it free in between. `lock` follows the inner SELECT:
 * PostgreSQL's FOR UPDATE SKIP LOCKED, which passes over a job another claim is taking.
 * The `status IN (…)` term is the claim index's own condition, so both databases use it.
 */
export const claimCrawlJobSql = (c: SqlCodec, lock = ''): string =>
  `UPDATE crawl_jobs SET status = 'running', lease_owner = ${c.param(1)}, lease_until = ${c.param(2)},
     attempts = attempts + 1, updated_at = ${c.param(3)}
   WHERE id = (SELECT id FROM crawl_jobs
     WHERE ${ACTIVE} AND (status = 'queued' OR lease_until <= ${c.param(4)})
     ORDER BY created_at, id LIMIT 1 ${lock})
   RETURNING ${CRAWL_JOB_COLUMNS}`;

export const claimCrawlJobValues = (worker: string, now: number, leaseMs: number): unknown[] => [
  worker,
  now + leaseMs,
  now,
  now,
];

/** Writes only while `worker` holds the job: no row changed means it does not (any more). */
export const saveCrawlJobSql = (c: SqlCodec): string =>
  `UPDATE crawl_jobs SET progress = ${c.param(1)}, status = ${c.param(2)}, updated_at = ${c.param(3)},
     lease_owner = ${c.param(4)}, lease_until = ${c.param(5)}
   WHERE id = ${c.param(6)} AND status = 'running' AND lease_owner = ${c.param(7)}`;

export const saveCrawlJobValues = (id: string, worker: string, u: Parameters<CrawlJobStore['save']>[2]): unknown[] => {
  // Running keeps the lease (extended); completed or failed ends it.
  const running = u.status === 'running';
  return [u.progress, u.status, u.now, running ? worker : null, running ? u.now + u.leaseMs : null, id, worker];
};

/** Cancels the owner's job if it is queued or running; no row back means it is not (then read it as it is). */
export const cancelCrawlJobSql = (c: SqlCodec): string =>
  `UPDATE crawl_jobs SET status = 'cancelled', lease_owner = NULL, lease_until = NULL, updated_at = ${c.param(1)}
   WHERE id = ${c.param(2)} AND owner = ${c.param(3)} AND ${ACTIVE}
   RETURNING ${CRAWL_JOB_COLUMNS}`;

export const cancelCrawlJobValues = (id: string, owner: string, now: number): unknown[] => [now, id, owner];

export const ownedCrawlJobSql = (c: SqlCodec): string =>
  `SELECT ${CRAWL_JOB_COLUMNS} FROM crawl_jobs WHERE id = ${c.param(1)} AND owner = ${c.param(2)}`;

export const purgeCrawlJobsSql = (c: SqlCodec): string => `DELETE FROM crawl_jobs WHERE expires_at <= ${c.param(1)}`;

/** The duplicate id's error, worded as the memory twin words it. */
export const duplicateCrawlJob = (id: string): Error => new Error(`crawl job ${id} exists already`);
