import type { BudgetStore } from '../ports.ts';
import type { SqliteDatabase } from './open-database.ts';

export function createSqliteBudgetStore(db: SqliteDatabase): BudgetStore {
  const ensure = db.prepare('INSERT OR IGNORE INTO search_budget (period, used) VALUES (?, 0)');
  // One conditional UPDATE is the atomic check-and-add: concurrent CLI/server writers
  // serialise on SQLite's write lock, so the limit can never be overshot.
  const add = db.prepare('UPDATE search_budget SET used = used + ? WHERE period = ? AND used + ? <= ?');
  const sub = db.prepare('UPDATE search_budget SET used = max(used - ?, 0) WHERE period = ?');
  const get = db.prepare<[string], { used: number }>('SELECT used FROM search_budget WHERE period = ?');
  const used = (period: string) => get.get(period)?.used ?? 0;
  const consume = db.transaction((period: string, cost: number, limit: number) => {
    ensure.run(period);
    const allowed = add.run(cost, period, cost, limit).changes > 0;
    return { allowed, used: used(period) };
  });
  return {
    async consume(period, cost, limit) {
      return consume.immediate(period, cost, limit);
    },
    async refund(period, cost) {
      sub.run(cost, period);
    },
    async used(period) {
      return used(period);
    },
  };
}
