import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexCommand, type OpenIndexWriter } from '../../src/cli/index-command.ts';
import { openFollowerIndex, type FollowerIndex } from '../../src/index/follower-index.ts';
import { StoreIndexWriter } from '../../src/index/store-index-writer.ts';
import { migrate } from '../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../src/store/postgres/open-postgres.ts';
import { createPostgresIndexStore } from '../../src/store/postgres/pg-index-store.ts';
import { testSchema } from '../helpers/postgres.ts';
import { search } from '../index/temp-index.ts';

const db = testSchema();

/** `scout index …` with the index in PostgreSQL, as store/create-stores.ts opens it when SCOUT_DATABASE_URL is set. */
async function run(argv: string[], open: OpenIndexWriter): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const code = await createIndexCommand(open)(argv, { stdin: Readable.from(['']), stdout: out, stderr: err, env: {} });
  return { code, stdout, stderr };
}

describe.skipIf(!db)('scout index with the local index in PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-index-pg-cli-'));
  let server: FollowerIndex;
  // As a `scout index` run opens it: a pool of its own, ended when the command closes the index.
  const open: OpenIndexWriter = async () => new StoreIndexWriter(createPostgresIndexStore(openPostgres({ url: db!.url, schema: db!.schema }), { endPool: true }));

  beforeAll(async () => {
    await migrate(db!.pool, db!.schema);
    server = await openFollowerIndex(createPostgresIndexStore(db!.another()));
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a JSONL file that a running replica then finds within 2 s, and reports stats', async () => {
    const file = join(dir, 'docs.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ url: 'https://a.test/1', title: 'Puffins', content: 'puffins nest on cliffs', published_date: '2024-01-02' }),
        'not json',
        JSON.stringify({ url: 'https://b.test/2', title: 'Gannets', content: 'gannets dive for fish', country: 'nl' }),
      ].join('\n'),
    );
    const imported = await run(['import', file], open);
    expect(imported.stderr).toMatch(/^line 2: invalid JSON/m);
    expect(imported.stdout).toBe('imported 2 documents, skipped 1 bad lines; the index now holds 2 documents\n');
    expect(imported.code).toBe(0);

    const start = performance.now();
    while (server.search(search('puffins')).length === 0 && performance.now() - start < 2000) await new Promise((r) => setTimeout(r, 20));
    expect(server.search(search('puffins')).map((h) => h.url)).toEqual(['https://a.test/1']);

    const stats = await run(['stats', '--json'], open);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ documents: 2, domains: 2, dated: 1, newest: '2024-01-02', sources: { import: 2 } });
  });

  it('says in one line when the index cannot be opened', async () => {
    const r = await run(['stats'], async () => {
      throw new Error('PostgreSQL at 127.0.0.1:1 refused the connection');
    });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'scout index: PostgreSQL at 127.0.0.1:1 refused the connection\n' });
  });
});
