-- The counters every request writes (the budget take, the rate-limit take) commit without
-- waiting for the WAL flush: synchronous_commit off for their transaction alone, via
-- set_config(..., true), which lasts until the statement's implicit transaction commits.
-- Otherwise each held its row lock through an fsync, and every request of every replica
-- queued on one row (bench/replicas.ts: ~3,200 budget takes/s at most, p99 +4 ms). Locks and
-- exactness between replicas are unchanged; what a PostgreSQL server crash can forget is
-- the takes of its last moments (docs/scale-out.md).
CREATE FUNCTION budget_consume(p_period text, p_cost bigint, p_limit bigint)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_used bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO search_budget AS b (period, used) SELECT p_period, p_cost WHERE p_cost <= p_limit
  ON CONFLICT (period) DO UPDATE SET used = b.used + EXCLUDED.used WHERE b.used + EXCLUDED.used <= p_limit
  RETURNING b.used INTO v_used;
  RETURN v_used;
END;
$$;

CREATE OR REPLACE FUNCTION rate_limit_take(p_key text, p_cost double precision, p_interval double precision, p_window double precision)
RETURNS TABLE (allowed boolean, tat double precision, now_ms double precision)
LANGUAGE plpgsql AS $$
DECLARE
  t double precision;
  cur double precision;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  -- As in 003: a new key starts with an empty bucket; the clock is read once the row is ours.
  INSERT INTO rate_limits AS r (key, tat) VALUES (p_key, 0) ON CONFLICT (key) DO NOTHING;
  SELECT r.tat INTO cur FROM rate_limits r WHERE r.key = p_key FOR UPDATE;
  t := extract(epoch FROM clock_timestamp()) * 1000;
  cur := GREATEST(cur, t);
  IF cur + p_interval * p_cost - t > p_window THEN
    RETURN QUERY SELECT false, cur, t;
    RETURN;
  END IF;
  UPDATE rate_limits r SET tat = cur + p_interval * p_cost WHERE r.key = p_key;
  RETURN QUERY SELECT true, cur, t;
END
$$;
