import type { RateLimitDecision, RateLimiter, RateLimitState } from '../ports.ts';

/**
 * GCRA (a token bucket kept as one "theoretical arrival time" per key): `perMinute` requests
 * a minute, bursts of up to `perMinute`. In-process: each Scout process counts on its own.
 */
export function createMemoryRateLimiter(perMinute: number, now: () => number = Date.now): RateLimiter {
  const interval = 60_000 / perMinute; // ms per request
  const window = interval * perMinute; // a full bucket, in ms of "debt"
  const tats = new Map<string, number>();
  let lastSweep = now();

  const sweep = (t: number) => {
    if (t - lastSweep < 60_000) return;
    lastSweep = t;
    for (const [k, tat] of tats) if (tat <= t) tats.delete(k);
  };

  return {
    async consume(key, cost): Promise<RateLimitDecision> {
      const t = now();
      sweep(t);
      const tat = Math.max(tats.get(key) ?? t, t);
      const next = tat + interval * cost;
      const debt = next - t;
      if (debt > window) {
        return {
          allowed: false,
          limit: perMinute,
          remaining: 0,
          resetMs: tat - t,
          retryAfterMs: debt - window,
        };
      }
      tats.set(key, next);
      return {
        allowed: true,
        limit: perMinute,
        remaining: Math.floor((window - debt) / interval),
        resetMs: debt,
        retryAfterMs: 0,
      };
    },

    async peek(key): Promise<RateLimitState> {
      const t = now();
      const debt = Math.max((tats.get(key) ?? t) - t, 0);
      // The same test as consume(key, 1), so peek and consume never disagree on a boundary.
      const allowed = debt + interval <= window;
      return {
        limit: perMinute,
        remaining: allowed ? Math.max(1, Math.floor((window - debt) / interval)) : 0,
        resetMs: debt,
        retryAfterMs: allowed ? 0 : debt + interval - window,
      };
    },
  };
}
