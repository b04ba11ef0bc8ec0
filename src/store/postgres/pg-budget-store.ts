import type pg from 'pg';
import type { BudgetStore } from '../ports.ts';

/**
 * The search budget in PostgreSQL, shared by every replica. One statement (budget_consume,
 * migration 005: committed without waiting for the WAL flush) is the atomic
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
      const { rows } = await pool.query<{ used: string | null }>({
        name: 'scout_budget_consume',
        text: 'SELECT budget_consume($1, $2::bigint, $3::bigint) AS used',
        values: [period, cost, limit],
      });
      const after = rows[0]?.used;
      return after != null ? { allowed: true, used: Number(after) } : { allowed: false, used: await used(period) };
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
