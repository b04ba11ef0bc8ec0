import type { RateLimitDecision, RateLimitState } from './ports.ts';

/**
 * The GCRA arithmetic every rate limiter shares (memory and PostgreSQL here; Redis runs the
 * same formulas in Lua, src/store/redis/rate-limit-scripts.ts). A bucket is one theoretical
 * arrival time `tat` (ms); `perMinute` requests a minute, bursts of up to `perMinute`.
 */
export interface Gcra {
  perMinute: number;
  /** ms per request. */
  interval: number;
  /** A full bucket, in ms of "debt". */
  window: number;
}

export const gcra = (perMinute: number): Gcra => {
  const interval = 60_000 / perMinute;
  return { perMinute, interval, window: interval * perMinute };
};

/**
 * What taking `cost` from a bucket whose arrival time is `tat` (already raised to at least
 * `t`) decides at time `t`; when allowed, the new arrival time is tat + interval × cost.
 */
export function gcraDecision(g: Gcra, tat: number, t: number, cost: number): RateLimitDecision {
  const debt = tat + g.interval * cost - t;
  if (debt > g.window)
    return { allowed: false, limit: g.perMinute, remaining: 0, resetMs: tat - t, retryAfterMs: debt - g.window };
  return {
    allowed: true,
    limit: g.perMinute,
    remaining: Math.floor((g.window - debt) / g.interval),
    resetMs: debt,
    retryAfterMs: 0,
  };
}

/** The bucket at time `t` without taking from it: the same test as a consume of 1. */
export function gcraState(g: Gcra, tat: number, t: number): RateLimitState {
  const debt = Math.max(tat - t, 0);
  const allowed = debt + g.interval <= g.window;
  return {
    limit: g.perMinute,
    remaining: allowed ? Math.max(1, Math.floor((g.window - debt) / g.interval)) : 0,
    resetMs: debt,
    retryAfterMs: allowed ? 0 : debt + g.interval - g.window,
  };
}
