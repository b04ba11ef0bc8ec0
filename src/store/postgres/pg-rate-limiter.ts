import type pg from 'pg';
import type { RateLimitDecision, RateLimiter, RateLimitState } from '../ports.ts';

/** Idle rows (a full bucket) are deleted this often; any replica may do it. */
const SWEEP_MS = 60_000;

/**
 * GCRA on PostgreSQL (migration 003): the same arithmetic as the memory limiter, decided by
 * the database with its own clock in one round trip per request, so every replica counts
 * against one bucket per key. Used when there is no Redis; slower, equally exact.
 */
export function createPostgresRateLimiter(pool: pg.Pool, perMinute: number): RateLimiter {
  const interval = 60_000 / perMinute;
  const window = interval * perMinute;
  let lastSweep = Date.now();

  const sweep = (): void => {
    if (Date.now() - lastSweep < SWEEP_MS) return;
    lastSweep = Date.now();
    pool.query('DELETE FROM rate_limits WHERE tat < extract(epoch FROM clock_timestamp()) * 1000').catch(() => undefined);
  };

  return {
    async consume(key, cost): Promise<RateLimitDecision> {
      sweep();
      const { rows } = await pool.query<{ allowed: boolean; tat: number; now_ms: number }>({
        name: 'scout_rate_limit_take',
        text: 'SELECT allowed, tat, now_ms FROM rate_limit_take($1, $2, $3, $4)',
        values: [key, cost, interval, window],
      });
      const { allowed, tat, now_ms: t } = rows[0]!;
      if (!allowed) {
        const debt = tat + interval * cost - t;
        return { allowed: false, limit: perMinute, remaining: 0, resetMs: tat - t, retryAfterMs: debt - window };
      }
      const debt = tat - t;
      return { allowed: true, limit: perMinute, remaining: Math.floor((window - debt) / interval), resetMs: debt, retryAfterMs: 0 };
    },

    async peek(key): Promise<RateLimitState> {
      const { rows } = await pool.query<{ tat: number; now_ms: number }>({
        name: 'scout_rate_limit_peek',
        text: 'SELECT tat, now_ms FROM rate_limit_peek($1)',
        values: [key],
      });
      const { tat, now_ms: t } = rows[0]!;
      const debt = Math.max(tat - t, 0);
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
