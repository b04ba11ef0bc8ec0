import type { BudgetStore } from '../ports.ts';
import type { SqliteDatabase } from './open-database.ts';

export function createSqliteBudgetStore(db: SqliteDatabase): BudgetStore {
  // One statement is the atomic check-and-add (and one autocommit, not a four-statement
  // transaction, on every search): a new period is inserted only when the cost fits, an
  // existing one is raised only when the sum fits; no row back means refused. Concurrent
  // writers (CLI, other processes) serialise on SQLite's write lock.
  const add = db
    .prepare<{ period: string; cost: number; limit: number }, number>(
      `INSERT INTO search_budget (period, used) SELECT @period, @cost WHERE @cost <= @limit
       ON CONFLICT (period) DO UPDATE SET used = used + excluded.used WHERE used + excluded.used <= @limit
       RETURNING used`,
    )
    .pluck();
  const sub = db.prepare('UPDATE search_budget SET used = max(used - ?, 0) WHERE period = ?');
  const get = db.prepare<[string], number>('SELECT used FROM search_budget WHERE period = ?').pluck();
  const used = (period: string) => get.get(period) ?? 0;
  return {
    async consume(period, cost, limit) {
      const after = add.get({ period, cost, limit });
      return after === undefined ? { allowed: false, used: used(period) } : { allowed: true, used: after };
    },
    async refund(period, cost) {
      sub.run(cost, period);
    },
    async used(period) {
      return used(period);
    },
  };
}
