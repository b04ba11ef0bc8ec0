-- Usage of each key (requests, refusals, last use) for the operator's dashboard. Every
-- replica adds its batched counts (src/keys/key-usage-recorder.ts) with one upsert that
-- increments the row where it is stored: no process reads a total and writes it back.
-- last_used_at is timestamptz, unlike the text times of api_keys: GREATEST then compares
-- instants whatever form a writer used (psql included), and the dashboard can ask by time
-- (last_used_at > now() - interval '30 days'). The store reads it back in toISOString form
-- (to_char in UTC, milliseconds), the form it was written in.
-- No foreign key: addUsage keeps only the ids found in api_keys (WHERE EXISTS), so an
-- unknown id is skipped rather than failing the whole batch; keys are never deleted.
CREATE TABLE api_key_usage (
  key_id text COLLATE "C" PRIMARY KEY,
  requests bigint NOT NULL,
  refusals bigint NOT NULL,
  last_used_at timestamptz
);
