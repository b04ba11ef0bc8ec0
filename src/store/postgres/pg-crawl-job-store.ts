import type pg from 'pg';
import type { CrawlJobStore } from '../ports.ts';
import {
  cancelCrawlJobSql,
  cancelCrawlJobValues,
  claimCrawlJobSql,
  claimCrawlJobValues,
  crawlJobByIdSql,
  crawlJobFromRow,
  createCrawlJobSql,
  createCrawlJobValues,
  duplicateCrawlJob,
  ownedCrawlJobSql,
  purgeCrawlJobsSql,
  saveCrawlJobSql,
  saveCrawlJobValues,
  type CrawlJobRow,
} from '../sql/crawl-job-rows.ts';
import { postgresCodec as pgc } from '../sql/sql-codec.ts';
import { inTransaction } from './in-transaction.ts';

/**
 * Crawl jobs in PostgreSQL's `crawl_jobs`, shared by every replica.
 * - create: under a transaction-scoped advisory lock keyed by the schema and the owner, so
 *   replicas creating for one owner queue, and each counts the jobs the previous committed
 *   (READ COMMITTED reads a new snapshot per statement, taken after the lock);
 * - claim: one UPDATE of the row its subquery picks FOR UPDATE SKIP LOCKED: a job another
 *   claim is taking is passed over, not waited for nor taken twice;
 * - save and cancel: UPDATEs conditioned on the holder or the state, re-checked by
 *   PostgreSQL against the row as a concurrent claim or cancel left it.
 */
export function createPostgresCrawlJobStore(pool: pg.Pool): CrawlJobStore {
  const row = async (name: string, text: string, values: unknown[]): Promise<CrawlJobRow | undefined> =>
    (await pool.query<CrawlJobRow>({ name, text, values })).rows[0];
  return {
    async create(job, maxActive) {
      return inTransaction(pool, async (client) => {
        await client.query({
          name: 'scout_crawl_job_owner_lock',
          text: "SELECT pg_advisory_xact_lock(hashtextextended('scout crawl jobs ' || current_schema() || ' ' || $1, 0))",
          values: [job.owner],
        });
        // The duplicate is looked for first: an id in use throws whether or not the owner is
        // full (an insert racing from another owner still fails on the primary key).
        const known = await client.query({ name: 'scout_crawl_job_get', text: crawlJobByIdSql(pgc), values: [job.id] });
        if (known.rows.length > 0) throw duplicateCrawlJob(job.id);
        const added = await client.query({
          name: 'scout_crawl_job_create',
          text: createCrawlJobSql(pgc),
          values: createCrawlJobValues(job, maxActive),
        });
        return added.rowCount === 1;
      });
    },
    async get(id) {
      const r = await row('scout_crawl_job_get', crawlJobByIdSql(pgc), [id]);
      return r === undefined ? undefined : crawlJobFromRow(r);
    },
    async claim(worker, now, leaseMs) {
      const r = await row(
        'scout_crawl_job_claim',
        claimCrawlJobSql(pgc, 'FOR UPDATE SKIP LOCKED'),
        claimCrawlJobValues(worker, now, leaseMs),
      );
      return r === undefined ? undefined : crawlJobFromRow(r);
    },
    async save(id, worker, update) {
      const { rowCount } = await pool.query({
        name: 'scout_crawl_job_save',
        text: saveCrawlJobSql(pgc),
        values: saveCrawlJobValues(id, worker, update),
      });
      return rowCount === 1;
    },
    async cancel(id, owner, now) {
      // Not cancelled: finished (it stays so), another owner's, or unknown. Read in a statement
      // of its own, whose snapshot sees the change that made the UPDATE pass the row over.
      const r =
        (await row('scout_crawl_job_cancel', cancelCrawlJobSql(pgc), cancelCrawlJobValues(id, owner, now))) ??
        (await row('scout_crawl_job_owned', ownedCrawlJobSql(pgc), [id, owner]));
      return r === undefined ? undefined : crawlJobFromRow(r);
    },
    async purge(now) {
      const { rowCount } = await pool.query({
        name: 'scout_crawl_job_purge',
        text: purgeCrawlJobsSql(pgc),
        values: [now],
      });
      return rowCount ?? 0;
    },
  };
}
