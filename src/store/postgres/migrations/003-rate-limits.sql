-- GCRA rate limits for PostgreSQL-only deployments (with Redis, Redis holds them). One row
-- per key: its theoretical arrival time in epoch milliseconds of the database server's
-- clock, so replicas with skewed clocks agree. rate_limit_take decides and records in one
-- round trip, under the row's lock. rate_limit_take returns the arrival time before the
-- take (raised to now), from which src/store/gcra.ts derives the decision in JS.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  tat double precision NOT NULL
);

CREATE FUNCTION rate_limit_take(p_key text, p_cost double precision, p_interval double precision, p_window double precision)
RETURNS TABLE (allowed boolean, tat double precision, now_ms double precision)
LANGUAGE plpgsql AS $$
DECLARE
  t double precision;
  cur double precision;
BEGIN
  -- A new key starts with an empty bucket (tat 0 is always in the past).
  INSERT INTO rate_limits AS r (key, tat) VALUES (p_key, 0) ON CONFLICT (key) DO NOTHING;
  SELECT r.tat INTO cur FROM rate_limits r WHERE r.key = p_key FOR UPDATE;
  -- The clock is read once the row is ours: read before a wait for the lock, it would be
  -- older than the arrival time the previous holder just wrote, and charge the wait as debt.
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

CREATE FUNCTION rate_limit_peek(p_key text)
RETURNS TABLE (tat double precision, now_ms double precision)
LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT r.tat FROM rate_limits r WHERE r.key = p_key), 0), extract(epoch FROM clock_timestamp()) * 1000
$$;
