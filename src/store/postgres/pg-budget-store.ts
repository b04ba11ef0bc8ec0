import type pg from 'pg';
import type { BudgetStore } from '../ports.ts';

/**
 * The search budget in PostgreSQL, shared by every replica. One statement is the atomic
 * check-and-add, one round trip per served search: a new period is inserted only when the
 * cost fits its limit, an existing one raised only when the sum fits; no row back means
 * refused (then a second query reads what is used, for the message). Concurrent consumers
 * queue on the period's row lock and each re-checks the sum it finds, so the limit is exact.
 */
export function createPostgresBudgetStore(pool: pg.Pool): BudgetStore {
  const used = async (period: string): Promise<number> => {
    const { rows } = await pool.query<{ used: string }>({
      name: 'scout_budget_used',
      text: 'SELECT used FROM search_budget WHERE period = $1',
      values: [period],
    });
    return rows[0] ? Number(rows[0].used) : 0;
  };
  return {
    async consume(period, cost, limit) {
      const { rows } = await pool.query<{ used: string }>({
        name: 'scout_budget_consume',
        text: `INSERT INTO search_budget AS b (period, used) SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
               ON CONFLICT (period) DO UPDATE SET used = b.used + EXCLUDED.used WHERE b.used + EXCLUDED.used <= $3::bigint
               RETURNING used`,
        values: [period, cost, limit],
      });
      return rows[0] ? { allowed: true, used: Number(rows[0].used) } : { allowed: false, used: await used(period) };
    },
    async refund(period, cost) {
      await pool.query({
        name: 'scout_budget_refund',
        text: 'UPDATE search_budget SET used = GREATEST(used - $2::bigint, 0) WHERE period = $1',
        values: [period, cost],
      });
    },
    used,
  };
}
