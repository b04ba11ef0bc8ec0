/**
 * Schema of the sponsored store (sponsored.db, beside scout.db so ad traffic never contends
 * with keys and quotas). Append only: a shipped migration never changes.
 */
export const sponsoredMigrations: readonly string[] = [
  `CREATE TABLE campaigns (
     id TEXT PRIMARY KEY,
     advertiser TEXT NOT NULL,
     title TEXT NOT NULL,
     url TEXT NOT NULL,
     content TEXT NOT NULL,
     keywords TEXT NOT NULL,          -- JSON array
     negative_keywords TEXT NOT NULL, -- JSON array
     countries TEXT NOT NULL,         -- JSON array
     bid_micros INTEGER NOT NULL,
     budget_micros INTEGER NOT NULL,
     daily_cap_micros INTEGER,
     start_date TEXT,
     end_date TEXT,
     status TEXT NOT NULL,
     disclosure TEXT NOT NULL,
     incentive TEXT,                  -- JSON object
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     deleted_at TEXT
   );
   -- Bumped by triggers on every campaign change, whichever process writes: servers poll it.
   CREATE TABLE campaign_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
   INSERT INTO campaign_version (id, version) VALUES (1, 0);
   CREATE TRIGGER campaigns_insert AFTER INSERT ON campaigns BEGIN UPDATE campaign_version SET version = version + 1; END;
   CREATE TRIGGER campaigns_update AFTER UPDATE ON campaigns BEGIN UPDATE campaign_version SET version = version + 1; END;
   CREATE TRIGGER campaigns_delete AFTER DELETE ON campaigns BEGIN UPDATE campaign_version SET version = version + 1; END;

   -- One row per impression: what a rec_id resolves to. rec_ids start with their time, so
   -- rows are appended; no secondary index, which would cost a random page write per row.
   CREATE TABLE impressions (
     rec_id TEXT PRIMARY KEY,
     campaign_id TEXT NOT NULL,
     landing_url TEXT NOT NULL,
     shown_at INTEGER NOT NULL,       -- epoch ms
     request_id TEXT NOT NULL,
     position INTEGER NOT NULL,
     read_at INTEGER,                 -- first agent read, epoch ms
     charge_micros INTEGER NOT NULL DEFAULT 0
   ) WITHOUT ROWID;

   -- Every read and click, repeats included: the audit log (append only).
   CREATE TABLE events (
     id INTEGER PRIMARY KEY,
     kind TEXT NOT NULL,              -- read | click
     rec_id TEXT NOT NULL,
     campaign_id TEXT NOT NULL,
     at INTEGER NOT NULL,
     charge_micros INTEGER NOT NULL DEFAULT 0
   );

   -- Counters per campaign and UTC day: reports, budgets and daily caps read these.
   CREATE TABLE campaign_days (
     campaign_id TEXT NOT NULL,
     day TEXT NOT NULL,               -- UTC YYYY-MM-DD
     impressions INTEGER NOT NULL DEFAULT 0,
     reads INTEGER NOT NULL DEFAULT 0, -- first reads of a rec_id
     clicks INTEGER NOT NULL DEFAULT 0,
     spend_micros INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (campaign_id, day)
   ) WITHOUT ROWID;`,
  // Clicks come from an unauthenticated URL anyone can repeat: only the first follow of a
  // rec_id is stored and counted (unique clicks), so repeats cannot grow the log or inflate reports.
  `ALTER TABLE impressions ADD COLUMN clicked_at INTEGER;`,
  // Secrets shared by every process on this file (the rec_id signing key), so click URLs
  // stay valid across restarts and between the server and the CLI.
  `CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;`,
];
