import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';
import { openFollowerIndex, type FollowerIndex } from '../../src/index/follower-index.ts';
import { migrate } from '../../src/store/postgres/migrate.ts';
import { createPostgresIndexStore } from '../../src/store/postgres/pg-index-store.ts';
import { testSchema } from '../helpers/postgres.ts';
import { search } from '../index/temp-index.ts';

const db = testSchema();

/** `scout index …` with SCOUT_DATABASE_URL set: the index in PostgreSQL, as the replicas read it. */
const run = (argv: string[], env: Record<string, string>) => runScout(['index', ...argv], env);

describe.skipIf(!db)('scout index with the local index in PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-index-pg-cli-'));
  let server: FollowerIndex;
  const env = { SCOUT_DATABASE_URL: db?.url ?? '', SCOUT_DATABASE_SCHEMA: db?.schema ?? '', SCOUT_DATA_DIR: dir };

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
        JSON.stringify({
          url: 'https://a.test/1',
          title: 'Puffins',
          content: 'puffins nest on cliffs',
          published_date: '2024-01-02',
        }),
        'not json',
        JSON.stringify({ url: 'https://b.test/2', title: 'Gannets', content: 'gannets dive for fish', country: 'nl' }),
      ].join('\n'),
    );
    const imported = await run(['import', file], env);
    expect(imported.stderr).toMatch(/^line 2: invalid JSON/m);
    expect(imported.stdout).toBe('imported 2 documents, skipped 1 bad lines; the index now holds 2 documents\n');
    expect(imported.code).toBe(0);

    const start = performance.now();
    while (server.search(search('puffins')).length === 0 && performance.now() - start < 10_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(server.search(search('puffins')).map((h) => h.url)).toEqual(['https://a.test/1']);

    const stats = await run(['stats', '--json'], env);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      documents: 2,
      domains: 2,
      dated: 1,
      newest: '2024-01-02',
      sources: { import: 2 },
    });
  });

  it('refuses to read a schema that holds no Scout tables (a mistyped setting), creating nothing', async () => {
    const r = await run(['stats'], { ...env, SCOUT_DATABASE_SCHEMA: 'scout_t_missing' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'scout index: SCOUT_DATABASE_SCHEMA=scout_t_missing holds no Scout tables in that database; point SCOUT_DATABASE_URL and SCOUT_DATABASE_SCHEMA at the ones the server uses\n',
    );
    const { rows } = await db!.pool.query(
      "SELECT 1 FROM information_schema.schemata WHERE schema_name = 'scout_t_missing'",
    );
    expect(rows).toEqual([]);
  });

  it('says in one line when the index cannot be opened', async () => {
    const r = await run(['stats'], { ...env, SCOUT_DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/test' });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `scout index: cannot use PostgreSQL at 127.0.0.1:1/test (SCOUT_DATABASE_URL, schema ${db!.schema}): ECONNREFUSED\n`,
    });
  });
});
