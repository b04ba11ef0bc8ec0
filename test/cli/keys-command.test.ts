import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWellFormedApiKey } from '../../src/keys/api-key-format.ts';
import { storeFile } from '../../src/store/create-stores.ts';
import { openDatabase } from '../../src/store/sqlite/open-database.ts';
import { createSqliteKeyStore } from '../../src/store/sqlite/sqlite-key-store.ts';
import { runScout } from '../helpers/cli.ts';
import { startTestScout } from '../helpers/test-scout.ts';

const env = () => ({ SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-cli-')) });

describe('scout keys', () => {
  it('create prints the key alone; --json prints id, name, key, created_at', async () => {
    const e = env();
    const plain = await runScout(['keys', 'create', '--name', 'ci'], e);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^scout_[0-9A-Za-z]{38}\n$/);
    expect(isWellFormedApiKey(plain.stdout.trim())).toBe(true);
    const json = await runScout(['keys', 'create', '--name', 'bot', '--json'], e);
    const created = JSON.parse(json.stdout);
    expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'key', 'name']);
    expect(created.name).toBe('bot');
  });

  it('list shows no secrets; revoke needs a known id', async () => {
    const e = env();
    const key = (await runScout(['keys', 'create', '--name', 'one'], e)).stdout.trim();
    const list = await runScout(['keys', 'list', '--json'], e);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).not.toContain(key.slice(6, 20));
    const [entry] = JSON.parse(list.stdout);
    expect(entry).toMatchObject({ name: 'one', revoked_at: null });
    expect((await runScout(['keys', 'revoke', entry.id], e)).code).toBe(0);
    const again = await runScout(['keys', 'revoke', entry.id], e);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no active key');
    expect((await runScout(['keys', 'list'], e)).stdout).toContain('revoked');
  });

  it("list shows each key's requests, refusals and last use as the store holds them", async () => {
    const e = env();
    const used = JSON.parse((await runScout(['keys', 'create', '--name', 'used', '--json'], e)).stdout);
    const idle = JSON.parse((await runScout(['keys', 'create', '--name', 'idle', '--json'], e)).stdout);
    // Written as a server's usage recorder writes it, on a connection of its own.
    const db = openDatabase(storeFile(e.SCOUT_DATA_DIR));
    try {
      await createSqliteKeyStore(db).addUsage([
        { id: used.id, requests: 7, refusals: 2, lastUsedAt: '2026-01-02T03:04:05.678Z' },
      ]);
    } finally {
      db.close();
    }
    const listed = JSON.parse((await runScout(['keys', 'list', '--json'], e)).stdout);
    expect(listed.find((k: { id: string }) => k.id === used.id)).toMatchObject({
      requests: 7,
      refusals: 2,
      last_used_at: '2026-01-02T03:04:05.678Z',
    });
    expect(listed.find((k: { id: string }) => k.id === idle.id)).toMatchObject({
      requests: 0,
      refusals: 0,
      last_used_at: null,
    });
    const lines = (await runScout(['keys', 'list'], e)).stdout.trim().split('\n');
    expect(lines.find((l) => l.startsWith(used.id))).toMatch(
      /\tactive\t7 requests\t2 refused\tlast used 2026-01-02T03:04:05\.678Z$/,
    );
    expect(lines.find((l) => l.startsWith(idle.id))).toMatch(/\tactive\t0 requests\t0 refused\tnever used$/);
  });

  it('usage errors exit 2 with a message', async () => {
    const r = await runScout(['keys', 'create'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--name');
  });

  it('a revocation by the CLI takes effect on the next request of a running server', async () => {
    const t = await startTestScout();
    try {
      const e = { SCOUT_DATA_DIR: t.dataDir };
      const created = JSON.parse((await runScout(['keys', 'create', '--name', 'live', '--json'], e)).stdout);
      expect((await t.request('POST', '/v1/search', { body: { query: 'scout' }, key: created.key })).status).toBe(200);
      expect((await runScout(['keys', 'revoke', created.id], e)).code).toBe(0);
      expect((await t.request('POST', '/v1/search', { body: { query: 'scout' }, key: created.key })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
