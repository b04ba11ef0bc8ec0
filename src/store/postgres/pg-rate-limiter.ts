import type pg from 'pg';
import { gcra, gcraDecision, gcraState } from '../gcra.ts';
import type { RateLimitDecision, RateLimiter, RateLimitState } from '../ports.ts';
import { must } from '../../domain/must.ts';

/** Idle rows (a full bucket) are deleted this often; any replica may do it. */
const SWEEP_MS = 60_000;

/**
 * GCRA on PostgreSQL (migration 003): the arithmetic of src/store/gcra.ts, decided by
 * the database with its own clock in one round trip per request, so every replica counts
 * against one bucket per key. Used when there is no Redis; slower, equally exact.
 */
export function createPostgresRateLimiter(pool: pg.Pool, perMinute: number): RateLimiter {
  const g = gcra(perMinute);
  let lastSweep = Date.now();

  const sweep = (): void => {
    if (Date.now() - lastSweep < SWEEP_MS) return;
    lastSweep = Date.now();
    pool
      .query('DELETE FROM rate_limits WHERE tat < extract(epoch FROM clock_timestamp()) * 1000')
      .catch(() => undefined);
  };

  return {
    async consume(key, cost): Promise<RateLimitDecision> {
      sweep();
      const { rows } = await pool.query<{ tat: number; now_ms: number }>({
        name: 'scout_rate_limit_take',
        text: 'SELECT tat, now_ms FROM rate_limit_take($1, $2, $3, $4)',
        values: [key, cost, g.interval, g.window],
      });
      const { tat, now_ms: t } = must(rows[0], 'the row of rate_limit_take');
      return gcraDecision(g, tat, t, cost);
    },

    async peek(key): Promise<RateLimitState> {
      const { rows } = await pool.query<{ tat: number; now_ms: number }>({
        name: 'scout_rate_limit_peek',
        text: 'SELECT tat, now_ms FROM rate_limit_peek($1)',
        values: [key],
      });
      const { tat, now_ms: t } = must(rows[0], 'the row of rate_limit_peek');
      return gcraState(g, tat, t);
    },
  };
}
