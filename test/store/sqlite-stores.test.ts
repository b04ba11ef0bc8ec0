import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteIndexStore } from '../../src/index/sqlite-index-store.ts';
import type { IndexDocumentStore, SponsoredStores } from '../../src/store/ports.ts';
import { migrate, openDatabase, type SqliteDatabase } from '../../src/store/sqlite/open-database.ts';
import { migrations } from '../../src/store/sqlite/migrations.ts';
import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { createSqliteBudgetStore } from '../../src/store/sqlite/sqlite-budget-store.ts';
import { createSqliteCrawlJobStore } from '../../src/store/sqlite/sqlite-crawl-job-store.ts';
import { createSqliteKeyStore } from '../../src/store/sqlite/sqlite-key-store.ts';
import { adEventStoreContract } from './contract/ad-event-store.ts';
import { budgetStoreContract } from './contract/budget-store.ts';
import { campaignStoreContract } from './contract/campaign-store.ts';
import { crawlJobStoreContract } from './contract/crawl-job-store.ts';
import { indexDocumentStoreContract } from './contract/index-document-store.ts';
import { keyStoreContract } from './contract/key-store.ts';
import { secretStoreContract } from './contract/secret-store.ts';

const dirs: string[] = [];
const dbs: SqliteDatabase[] = [];
const sponsored: SponsoredStores[] = [];
const indexes: IndexDocumentStore[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-store-'));
  dirs.push(dir);
  return dir;
};
const freshDb = () => {
  const db = openDatabase(join(newDir(), 'scout.db'));
  migrate(db, migrations);
  dbs.push(db);
  return db;
};
/** Through openSponsoredStore, as the server opens it: writes go through its writer thread. */
const freshSponsored = async () => {
  const stores = openSponsoredStore(newDir());
  sponsored.push(stores);
  return stores;
};
// One afterAll closes what every suite opened (so no contract is given a cleanup).
afterAll(async () => {
  for (const s of sponsored.splice(0)) await s.close();
  for (const s of indexes.splice(0)) await s.close();
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

keyStoreContract('sqlite', async () => createSqliteKeyStore(freshDb()));
budgetStoreContract('sqlite', async () => createSqliteBudgetStore(freshDb()));
campaignStoreContract('sqlite', async () => (await freshSponsored()).campaigns);
adEventStoreContract('sqlite', freshSponsored);
// Two openings of one sponsored.db: the server and the CLI.
secretStoreContract('sqlite', async () => {
  const dir = newDir();
  const [one, two] = [openSponsoredStore(dir), openSponsoredStore(dir)];
  sponsored.push(one, two);
  return [one.secrets, two.secrets];
});
// Two connections on one scout.db: two processes (server, CLI, or servers sharing a folder).
crawlJobStoreContract('sqlite', async () => {
  const file = join(newDir(), 'scout.db');
  const [one, two] = [openDatabase(file), openDatabase(file)];
  dbs.push(one, two);
  for (const db of [one, two]) migrate(db, migrations);
  return [createSqliteCrawlJobStore(one), createSqliteCrawlJobStore(two)];
});
// An index file of its own per test, as `scout index` opens it. It rewrites unchanged rows
// (see the contract's option).
indexDocumentStoreContract(
  'sqlite',
  async () => {
    const store = openSqliteIndexStore(join(newDir(), 'index.db'));
    indexes.push(store);
    return store;
  },
  { rewritesUnchanged: true },
);

describe('SQLite key store memory', () => {
  it('sees a key revoked or created by another connection (the CLI) on the very next look-up', async () => {
    const file = join(newDir(), 'scout.db');
    const serverDb = openDatabase(file);
    migrate(serverDb, migrations);
    const server = createSqliteKeyStore(serverDb);
    const cliDb = openDatabase(file);
    const cli = createSqliteKeyStore(cliDb);
    await cli.insert({ id: 'key_a', name: 'a', hash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' });
    expect((await server.findByHash('h1'))?.revokedAt).toBeNull();
    expect((await server.findByHash('h1'))?.revokedAt).toBeNull(); // remembered
    await cli.revoke('key_a', '2026-02-01T00:00:00.000Z');
    expect((await server.findByHash('h1'))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
    expect(await server.findByHash('h2')).toBeUndefined();
    await cli.insert({ id: 'key_b', name: 'b', hash: 'h2', createdAt: '2026-01-01T00:00:00.000Z' });
    expect((await server.findByHash('h2'))?.id).toBe('key_b');
    cliDb.close();
    serverDb.close();
  });
});
