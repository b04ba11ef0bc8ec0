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
];
