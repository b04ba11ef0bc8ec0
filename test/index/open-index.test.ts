import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import type { LocalIndexApi } from '../../src/index/local-index-api.ts';
import { openIndexWriter, openServerIndex } from '../../src/index/open-index.ts';
import { openServerStorage } from '../../src/store/create-stores.ts';
import { testSchema } from '../helpers/postgres.ts';

const lines: string[] = [];
const logger = {
  info: (_: object, msg: string) => void lines.push(msg),
  warn: (_: object, msg: string) => void lines.push(msg),
};
/** Closed after the file, last opened first: each index before the storage it came from. */
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server's storage and the local index opened over it. */
async function serverIndex(env: Record<string, string>): Promise<LocalIndexApi> {
  const config = loadConfig(env);
  const storage = await openServerStorage(config, { logger, remoteProviders: false });
  closers.push(() => storage.close());
  const index = await openServerIndex(storage.index, config, logger);
  closers.push(() => index.close());
  return index;
}

const puffins = { url: 'https://a.test/p', title: 'Puffins', content: 'puffins nest on cliffs' };
const finds = (index: LocalIndexApi, text: string): boolean =>
  index.search({ query: text, limit: 5, includeDomains: [], excludeDomains: [] }).length > 0;

/**
 * Whether `index` finds `text` within 20 s: a follower applies others' writes as it polls,
 * within a poll or two; the bound is far above that, for the machine may be busy.
 */
async function eventuallyFinds(index: LocalIndexApi, text: string): Promise<boolean> {
  const until = Date.now() + 20_000;
  while (!finds(index, text) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return finds(index, text);
}

describe('openServerIndex: embedded', () => {
  it('opens the SQLite file storage chose; `scout index` writes to the same file', async () => {
    const env = { SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-open-index-')) };
    const index = await serverIndex(env);
    await index.upsert([puffins]);
    expect(finds(index, 'puffins')).toBe(true);
    const writer = await openIndexWriter(loadConfig(env), { mustExist: true });
    await writer.upsert([{ url: 'https://b.test/g', title: 'Gannets', content: 'gannets dive for fish' }]);
    await writer.close();
    expect(await eventuallyFinds(index, 'gannets')).toBe(true);
  });

  it('refuses to open a missing index for `scout index` commands that need one', async () => {
    const env = { SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-open-index-')) };
    await expect(openIndexWriter(loadConfig(env), { mustExist: true })).rejects.toThrow(/local index/);
  });
});

const db = testSchema();

describe.skipIf(!db)('openServerIndex: PostgreSQL', () => {
  afterAll(() => db?.drop());
  const env = () => ({ SCOUT_DATABASE_URL: db!.url, SCOUT_DATABASE_SCHEMA: db!.schema });

  it('follows the shared document store: a write through one replica, or `scout index`, is found by the other', async () => {
    const [a, b] = await Promise.all([serverIndex(env()), serverIndex(env())]);
    await a.upsert([puffins]);
    expect(await eventuallyFinds(b, 'puffins')).toBe(true);
    const writer = await openIndexWriter(loadConfig(env()), { mustExist: true });
    await writer.upsert([{ url: 'https://b.test/g', title: 'Gannets', content: 'gannets dive for fish' }]);
    await writer.close();
    expect(await eventuallyFinds(a, 'gannets')).toBe(true);
    expect(await eventuallyFinds(b, 'gannets')).toBe(true);
    expect(lines).toContain('local index (PostgreSQL) ranked in memory');
  });
});
