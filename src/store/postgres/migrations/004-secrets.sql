-- Secrets shared by every replica and the CLI (the rec_id signing key): a click URL issued
-- by one replica verifies on all of them, and after restarts.
CREATE TABLE secrets (
  name text PRIMARY KEY,
  value bytea NOT NULL
);
