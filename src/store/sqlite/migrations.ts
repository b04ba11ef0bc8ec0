/** Schema of the embedded store (scout.db). Append only: a shipped migration never changes. */
export const migrations: readonly string[] = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     revoked_at TEXT
   );
   CREATE TABLE search_budget (
     period TEXT PRIMARY KEY,
     used INTEGER NOT NULL
   );`,
  // Usage totals per key (requests, refusals, last use), added to by addUsage. No foreign
  // key: a delta for an unknown id is skipped by the insert's WHERE EXISTS, not an error.
  `CREATE TABLE api_key_usage (
     key_id TEXT PRIMARY KEY,
     requests INTEGER NOT NULL,
     refusals INTEGER NOT NULL,
     last_used_at TEXT
   );`,
  // Asynchronous crawl jobs (ports.ts CrawlJobStore; the statements are store/sql/crawl-job-rows.ts).
  // Times are epoch milliseconds. The claim index holds the jobs a claim may take, in the
  // order it takes them; the owner index counts an owner's active jobs; purge reads expiry.
  `CREATE TABLE crawl_jobs (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     request TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
     progress TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     lease_owner TEXT,
     lease_until INTEGER,
     attempts INTEGER NOT NULL
   );
   CREATE INDEX crawl_jobs_claim ON crawl_jobs (created_at, id) WHERE status IN ('queued', 'running');
   CREATE INDEX crawl_jobs_owner ON crawl_jobs (owner, status);
   CREATE INDEX crawl_jobs_expiry ON crawl_jobs (expires_at);`,
];
