import { join } from 'node:path';
import type { Config } from '../config/settings.ts';
import type { Stores } from './ports.ts';
import { migrate, openDatabase } from './sqlite/open-database.ts';
import { migrations } from './sqlite/migrations.ts';
import { createSqliteKeyStore } from './sqlite/sqlite-key-store.ts';
import { createSqliteBudgetStore } from './sqlite/sqlite-budget-store.ts';
import { createMemoryRateLimiter } from './memory/memory-rate-limiter.ts';

/** Path of the embedded store inside the data folder. */
export const storeFile = (dataDir: string): string => join(dataDir, 'scout.db');

/** The only place that chooses storage backends. */
export function createStores(config: Pick<Config, 'dataDir' | 'rateLimitRpm'>, now: () => number = Date.now): Stores {
  const db = openDatabase(storeFile(config.dataDir));
  migrate(db, migrations);
  const ping = db.prepare('SELECT 1');
  return {
    keys: createSqliteKeyStore(db),
    budget: createSqliteBudgetStore(db),
    rateLimiter: createMemoryRateLimiter(config.rateLimitRpm, now),
    async ping() {
      ping.get();
    },
    async close() {
      db.close();
    },
  };
}
