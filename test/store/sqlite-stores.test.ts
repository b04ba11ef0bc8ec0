import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../../src/store/sqlite/open-database.ts';
import { migrations } from '../../src/store/sqlite/migrations.ts';
import { createSqliteBudgetStore } from '../../src/store/sqlite/sqlite-budget-store.ts';
import { createSqliteKeyStore } from '../../src/store/sqlite/sqlite-key-store.ts';
import { budgetStoreContract, keyStoreContract } from './store-contract.ts';

const freshDb = () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'scout-store-')), 'scout.db'));
  migrate(db, migrations);
  return db;
};

keyStoreContract('sqlite', async () => createSqliteKeyStore(freshDb()));
budgetStoreContract('sqlite', async () => createSqliteBudgetStore(freshDb()));
