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
];
