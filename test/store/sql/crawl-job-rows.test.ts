import { describe, expect, it } from 'vitest';
import {
  CRAWL_JOB_COLUMNS,
  cancelCrawlJobSql,
  cancelCrawlJobValues,
  claimCrawlJobSql,
  claimCrawlJobValues,
  crawlJobByIdSql,
  crawlJobFromRow,
  createCrawlJobSql,
  createCrawlJobValues,
  ownedCrawlJobSql,
  purgeCrawlJobsSql,
  saveCrawlJobSql,
  saveCrawlJobValues,
} from '../../../src/store/sql/crawl-job-rows.ts';
import { postgresCodec, type SqlCodec, sqliteCodec } from '../../../src/store/sql/sql-codec.ts';

const placeholders = (sql: string, codec: SqlCodec): string[] =>
  sql.match(codec === sqliteCodec ? /\?/g : /\$\d+/g) ?? [];

describe('crawl job rows', () => {
  it("reads a row from SQLite's numbers and pg's bigint text alike, leased or not", () => {
    const leased = {
      id: 'job_a',
      owner: 'key_a',
      request: '{}',
      status: 'running',
      progress: 'p',
      lease_owner: 'w1',
      attempts: 2,
    };
    const record = {
      id: 'job_a',
      owner: 'key_a',
      request: '{}',
      status: 'running',
      progress: 'p',
      createdAt: 1_773_144_000_000,
      updatedAt: 1_773_144_000_500,
      expiresAt: 1_773_230_400_000,
      leaseOwner: 'w1',
      leaseUntil: 1_773_144_030_500,
      attempts: 2,
    };
    const times = { created_at: 1_773_144_000_000, updated_at: 1_773_144_000_500, expires_at: 1_773_230_400_000 };
    expect(crawlJobFromRow({ ...leased, ...times, lease_until: 1_773_144_030_500 })).toEqual(record);
    const asText = { created_at: '1773144000000', updated_at: '1773144000500', expires_at: '1773230400000' };
    expect(crawlJobFromRow({ ...leased, ...asText, lease_until: '1773144030500' })).toEqual(record);
    expect(
      crawlJobFromRow({ ...leased, ...times, status: 'queued', progress: null, lease_owner: null, lease_until: null }),
    ).toMatchObject({ status: 'queued', progress: null, leaseOwner: null, leaseUntil: null });
  });

  it('gives each statement as many values as placeholders, numbered in text order, on both drivers', () => {
    const job = { id: 'j', owner: 'o', request: 'r', createdAt: 1, expiresAt: 2 };
    const update = { progress: 'p', status: 'running', now: 5, leaseMs: 10 } as const;
    const statements: [(c: SqlCodec) => string, unknown[]][] = [
      [crawlJobByIdSql, ['j']],
      [createCrawlJobSql, createCrawlJobValues(job, 3)],
      [(c) => claimCrawlJobSql(c), claimCrawlJobValues('w', 5, 10)],
      [saveCrawlJobSql, saveCrawlJobValues('j', 'w', update)],
      [cancelCrawlJobSql, cancelCrawlJobValues('j', 'o', 5)],
      [ownedCrawlJobSql, ['j', 'o']],
      [purgeCrawlJobsSql, [5]],
    ];
    for (const [sql, values] of statements) {
      expect(placeholders(sql(sqliteCodec), sqliteCodec)).toHaveLength(values.length);
      expect(placeholders(sql(postgresCodec), postgresCodec)).toEqual(values.map((_, i) => `$${i + 1}`));
    }
    expect(claimCrawlJobSql(postgresCodec, 'FOR UPDATE SKIP LOCKED')).toContain('LIMIT 1 FOR UPDATE SKIP LOCKED)');
    expect(createCrawlJobSql(sqliteCodec)).toContain(`INSERT INTO crawl_jobs (${CRAWL_JOB_COLUMNS})`);
  });

  it('keeps the lease of a running save (extended) and ends it on completed or failed', () => {
    const at = { progress: 'p', now: 100, leaseMs: 50 };
    const running = saveCrawlJobValues('j', 'w', { ...at, status: 'running' });
    expect(running).toEqual(['p', 'running', 100, 'w', 150, 'j', 'w']);
    for (const status of ['completed', 'failed'] as const)
      expect(saveCrawlJobValues('j', 'w', { ...at, status })).toEqual(['p', status, 100, null, null, 'j', 'w']);
  });
});
