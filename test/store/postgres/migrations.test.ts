import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import { migrate, migrationFiles, migrationStatus } from '../../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../../src/store/postgres/open-postgres.ts';
import { randomSchemaName, testSchema } from '../../helpers/postgres.ts';

const db = testSchema();

describe('PostgreSQL migration files', () => {
  it('are every NNN-name.sql of the folder, in version order, 001-core first', async () => {
    const files = await migrationFiles();
    expect(files[0]).toMatchObject({ version: 1, name: 'core' });
    expect(files.map((f) => f.version)).toEqual([...files.map((f) => f.version)].sort((a, b) => a - b));
  });

  it('refuses a misnamed file and two files of one version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-mig-'));
    try {
      writeFileSync(join(dir, '001-a.sql'), 'SELECT 1;');
      writeFileSync(join(dir, 'notes.txt'), 'ignored');
      expect(await migrationFiles(folder(dir))).toHaveLength(1);
      writeFileSync(join(dir, '001-b.sql'), 'SELECT 1;');
      await expect(migrationFiles(folder(dir))).rejects.toThrow(/share version 1/);
      rmSync(join(dir, '001-b.sql'));
      writeFileSync(join(dir, '2-Bad Name.sql'), 'SELECT 1;');
      await expect(migrationFiles(folder(dir))).rejects.toThrow(/must be named NNN-name\.sql/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a schema name that is not a plain lower-case SQL name', () => {
    expect(() => openPostgres({ url: 'postgres://x@127.0.0.1/x', schema: 'Bad-Name' })).toThrow(/lower-case SQL name/);
    expect(() => openPostgres({ url: 'postgres://x@127.0.0.1/x', schema: 'a'.repeat(64) })).toThrow(/at most 63/);
  });
});

const folder = (dir: string): URL => pathToFileURL(`${dir}/`);

describe.skipIf(!db)('PostgreSQL migrations', () => {
  const extra: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const e of extra) await e.drop();
    await db?.drop();
  });

  it('lists every migration as pending on a fresh schema, applies each once, then none', async () => {
    const { pool, schema } = db!;
    const files = await migrationFiles();
    const before = await migrationStatus(pool, schema);
    expect(before.map((s) => [s.version, s.name, s.appliedAt])).toEqual(files.map((f) => [f.version, f.name, null]));
    expect((await migrate(pool, schema)).map((f) => f.version)).toEqual(files.map((f) => f.version));
    expect(await migrate(pool, schema)).toEqual([]);
    const after = await migrationStatus(pool, schema);
    expect(after.map((s) => s.name)).toEqual(files.map((f) => f.name));
    for (const s of after) expect(s.appliedAt).toBeInstanceOf(Date);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM schema_migrations');
    expect(rows[0].n).toBe(files.length);
  });

  it('lets replicas race on a fresh schema: both succeed, each migration applied exactly once', async () => {
    const schema = randomSchemaName();
    const pools = [0, 1, 2].map(() => openPostgres({ url: db!.url, schema }));
    extra.push({
      drop: async () => {
        await defined(pools[0], 'pool 0').query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await Promise.all(pools.map((p) => p.end()));
      },
    });
    const applied = await Promise.all(pools.map((p) => migrate(p, schema)));
    const files = await migrationFiles();
    expect(
      applied
        .flat()
        .map((f) => f.version)
        .sort((a, b) => a - b),
    ).toEqual(files.map((f) => f.version));
    const { rows } = await defined(pools[1], 'pool 1').query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(files.map((f) => f.version));
  });

  it('applies each file in its own transaction: a failing one leaves the earlier ones applied and itself pending', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-mig-'));
    const schema = randomSchemaName();
    const pool = openPostgres({ url: db!.url, schema });
    extra.push({
      drop: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
        rmSync(dir, { recursive: true, force: true });
      },
    });
    writeFileSync(join(dir, '001-first.sql'), 'CREATE TABLE a (x int); INSERT INTO a VALUES (1);');
    writeFileSync(join(dir, '002-broken.sql'), 'CREATE TABLE b (x int); SELECT no_such_function();');
    await expect(migrate(pool, schema, folder(dir))).rejects.toThrow(
      /migration 002-broken\.sql failed: .*no_such_function/,
    );
    const status = await migrationStatus(pool, schema, folder(dir));
    expect(status.map((s) => [s.name, s.appliedAt === null])).toEqual([
      ['first', false],
      ['broken', true],
    ]);
    const { rows } = await pool.query("SELECT to_regclass('b') AS b, (SELECT x FROM a) AS x");
    expect(rows[0]).toEqual({ b: null, x: 1 });
    // Fixed, it is picked up by the next start; the pooled connections are still usable.
    writeFileSync(join(dir, '002-broken.sql'), 'CREATE TABLE b (x int);');
    expect((await migrate(pool, schema, folder(dir))).map((f) => f.name)).toEqual(['broken']);
  });

  it('bumps the campaign version from a session whose search_path is another schema', async () => {
    const { pool, schema, url } = db!;
    const other = openPostgres({ url, schema: 'public' });
    try {
      const before = (await pool.query('SELECT version FROM campaign_version')).rows[0].version;
      await other.query(
        `INSERT INTO "${schema}".campaigns (id, advertiser, title, url, content, keywords, negative_keywords, countries, bid_micros, budget_micros, status, disclosure, created_at, updated_at)
         VALUES ('cmp_psql', 'a', 't', 'https://a.example/', 'c', '[]', '[]', '[]', 1, 1, 'active', 'd', 'x', 'x')`,
      );
      expect(Number((await pool.query('SELECT version FROM campaign_version')).rows[0].version)).toBe(
        Number(before) + 1,
      );
    } finally {
      await other.end();
    }
  });
});
