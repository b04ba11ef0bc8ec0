-- Keys, the search budget, campaigns and ad events: the SQLite stores' schema
-- (src/store/sqlite/migrations.ts and sponsored-migrations.ts) on PostgreSQL. Append only:
-- a shipped migration never changes. Text that is compared or ordered is COLLATE "C" (byte
-- order, as SQLite compares), so lists and day ranges come out as in the embedded mode
-- whatever the database's locale. Micros and epoch milliseconds are bigint.

CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  hash text COLLATE "C" NOT NULL UNIQUE,   -- hex SHA-256 of the key
  created_at text COLLATE "C" NOT NULL,    -- ISO 8601, kept as given
  revoked_at text
);

-- Units of searches served per period (UTC month, "2026-11").
CREATE TABLE search_budget (
  period text COLLATE "C" PRIMARY KEY,
  used bigint NOT NULL
);

CREATE TABLE campaigns (
  id text COLLATE "C" PRIMARY KEY,
  advertiser text NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  content text NOT NULL,
  keywords jsonb NOT NULL,                 -- array of strings
  negative_keywords jsonb NOT NULL,        -- array of strings
  countries jsonb NOT NULL,                -- array of ISO 3166-1 alpha-2 codes
  bid_micros bigint NOT NULL,
  budget_micros bigint NOT NULL,
  daily_cap_micros bigint,
  start_date text,
  end_date text,
  status text NOT NULL,
  disclosure text NOT NULL,
  incentive jsonb,
  created_at text COLLATE "C" NOT NULL,
  updated_at text NOT NULL,
  deleted_at text                          -- deleted campaigns keep their row for reports and charges
);

-- Bumped by a trigger on every campaign change, whichever connection writes (a replica, the
-- CLI, psql): replicas poll it and reload their keyword index when it moves. The function
-- keeps the search_path it was created with, so the trigger finds this schema's table from
-- any session.
CREATE TABLE campaign_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO campaign_version (id, version) VALUES (1, 0);
CREATE FUNCTION campaign_version_bump() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE campaign_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER campaigns_changed AFTER INSERT OR UPDATE OR DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION campaign_version_bump();

-- One row per impression: what a rec_id resolves to, and whether it was read, clicked and charged.
CREATE TABLE impressions (
  rec_id text COLLATE "C" PRIMARY KEY,
  campaign_id text COLLATE "C" NOT NULL,
  landing_url text NOT NULL,
  shown_at bigint NOT NULL,                -- epoch ms
  request_id text NOT NULL,
  position integer NOT NULL,
  read_at bigint,                          -- first agent read, epoch ms
  clicked_at bigint,                       -- first click, epoch ms (later clicks are not stored)
  charge_micros bigint NOT NULL DEFAULT 0
);

-- Every read (repeats included) and every first click: the audit log, append only.
CREATE TABLE events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('read', 'click')),
  rec_id text NOT NULL,
  campaign_id text NOT NULL,
  at bigint NOT NULL,                      -- epoch ms
  charge_micros bigint NOT NULL DEFAULT 0
);

-- Counters per campaign and UTC day: reports, budgets and daily caps read these, never events.
CREATE TABLE campaign_days (
  campaign_id text COLLATE "C" NOT NULL,
  day text COLLATE "C" NOT NULL,           -- UTC YYYY-MM-DD
  impressions bigint NOT NULL DEFAULT 0,
  reads bigint NOT NULL DEFAULT 0,         -- first reads of a rec_id
  clicks bigint NOT NULL DEFAULT 0,        -- first clicks of a rec_id
  spend_micros bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, day)
);
