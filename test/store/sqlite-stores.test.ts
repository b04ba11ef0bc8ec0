import { describe, expect, it } from 'vitest';
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

describe('SQLite key store memory', () => {
  it('sees a key revoked or created by another connection (the CLI) on the very next look-up', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'scout-store-')), 'scout.db');
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

  it('hands out copies: a caller changing a record does not change what is remembered', async () => {
    const s = createSqliteKeyStore(freshDb());
    await s.insert({ id: 'key_a', name: 'a', hash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' });
    const first = await s.findByHash('h1');
    first!.revokedAt = 'tampered';
    expect((await s.findByHash('h1'))?.revokedAt).toBeNull();
  });
});
