import type { CrawlJobStore, NewCrawlJob } from '../ports.ts';
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
import { sqliteCodec } from '../sql/sql-codec.ts';
import type { SqliteDatabase } from './open-database.ts';

/**
 * Crawl jobs in scout.db's `crawl_jobs`. Every process opening the file (the server, the CLI)
 * shares them. A claim is one write statement, which holds the file's write lock from its
 * start (waiting out another writer under the busy timeout): no other connection takes the
 * same job. A create reads before it writes, so it runs in a BEGIN IMMEDIATE transaction:
 * the write lock is taken first, and the count it checks is still true when it inserts.
 */
export function createSqliteCrawlJobStore(db: SqliteDatabase): CrawlJobStore {
  const byId = db.prepare<[string], CrawlJobRow>(crawlJobByIdSql(sqliteCodec));
  const insert = db.prepare(createCrawlJobSql(sqliteCodec));
  const claim = db.prepare<unknown[], CrawlJobRow>(claimCrawlJobSql(sqliteCodec));
  const save = db.prepare(saveCrawlJobSql(sqliteCodec));
  const cancel = db.prepare<unknown[], CrawlJobRow>(cancelCrawlJobSql(sqliteCodec));
  const owned = db.prepare<[string, string], CrawlJobRow>(ownedCrawlJobSql(sqliteCodec));
  const purge = db.prepare(purgeCrawlJobsSql(sqliteCodec));
  // The duplicate is looked for first: an id in use throws whether or not the owner is full.
  const create = db.transaction((job: NewCrawlJob, maxActive: number) => {
    if (byId.get(job.id) !== undefined) throw duplicateCrawlJob(job.id);
    return insert.run(createCrawlJobValues(job, maxActive)).changes > 0;
  });
  return {
    async create(job, maxActive) {
      return create.immediate(job, maxActive);
    },
    async get(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : crawlJobFromRow(row);
    },
    async claim(worker, now, leaseMs) {
      const row = claim.get(claimCrawlJobValues(worker, now, leaseMs));
      return row === undefined ? undefined : crawlJobFromRow(row);
    },
    async save(id, worker, update) {
      return save.run(saveCrawlJobValues(id, worker, update)).changes > 0;
    },
    async cancel(id, owner, now) {
      // Not cancelled: finished (it stays so), another owner's, or unknown; read as it is.
      const row = cancel.get(cancelCrawlJobValues(id, owner, now)) ?? owned.get(id, owner);
      return row === undefined ? undefined : crawlJobFromRow(row);
    },
    async purge(now) {
      return purge.run(now).changes;
    },
  };
}
