-- Asynchronous crawl jobs (src/store/ports.ts CrawlJobStore; the statements are
-- src/store/sql/crawl-job-rows.ts), shared by every replica: one creates a job, any runs it,
-- another takes it over when its runner's lease ends. Times are epoch milliseconds of the
-- callers' clocks (bigint). Ids are compared in byte order (COLLATE "C"), as SQLite does,
-- so claims take jobs of one creation time in the same order in both modes.
CREATE TABLE crawl_jobs (
  id text COLLATE "C" PRIMARY KEY,
  owner text COLLATE "C" NOT NULL,         -- the API key's id
  request text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  progress text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  lease_owner text,
  lease_until bigint,
  attempts integer NOT NULL
);

-- The jobs a claim may take, in the order it takes them.
CREATE INDEX crawl_jobs_claim ON crawl_jobs (created_at, id) WHERE status IN ('queued', 'running');
-- An owner's active jobs, counted by every create.
CREATE INDEX crawl_jobs_owner ON crawl_jobs (owner, status);
CREATE INDEX crawl_jobs_expiry ON crawl_jobs (expires_at);
