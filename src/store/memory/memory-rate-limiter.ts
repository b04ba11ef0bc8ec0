import { gcra, gcraDecision, gcraState } from '../gcra.ts';
import type { RateLimitDecision, RateLimiter, RateLimitState } from '../ports.ts';

/**
 * GCRA (a token bucket kept as one "theoretical arrival time" per key, src/store/gcra.ts):
 * `perMinute` requests a minute, bursts of up to `perMinute`. In-process: each Scout process
 * counts on its own.
 */
export function createMemoryRateLimiter(perMinute: number, now: () => number = Date.now): RateLimiter {
  const g = gcra(perMinute);
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
      const decision = gcraDecision(g, tat, t, cost);
      if (decision.allowed) tats.set(key, tat + g.interval * cost);
      return decision;
    },

    async peek(key): Promise<RateLimitState> {
      const t = now();
      return gcraState(g, tats.get(key) ?? t, t);
    },
  };
}
