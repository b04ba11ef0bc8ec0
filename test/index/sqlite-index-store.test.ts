import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openSqliteIndexStore } from '../../src/index/sqlite-index-store.ts';
import type { IndexDocumentStore } from '../../src/store/index-ports.ts';
import { indexStoreContract } from './index-store-contract.ts';
import { useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();
const opened: IndexDocumentStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

indexStoreContract('sqlite', async () => {
  const store = openSqliteIndexStore(join(t.dir(), 'index.db'));
  opened.push(store);
  return store;
});
