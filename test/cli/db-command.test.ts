import { afterAll, describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';
import { randomSchemaName, testSchema } from '../helpers/postgres.ts';

const db = testSchema();

describe('scout db without PostgreSQL', () => {
  it('says it needs SCOUT_DATABASE_URL and exits 1', async () => {
    for (const sub of ['migrate', 'status']) {
      const r = await runScout(['db', sub], {});
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'scout: scout db works on PostgreSQL: set SCOUT_DATABASE_URL (the embedded SQLite files are migrated when opened)\n',
      });
    }
  });

  it('rejects unknown subcommands and arguments with its usage (exit 2)', async () => {
    const unknown = await runScout(['db', 'drop'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^scout db: unknown command "drop"\nusage: scout db <migrate\|status>/);
    const extra = await runScout(['db', 'migrate', 'now'], {});
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/^unexpected argument now\n/);
  });

  it('names an unreachable server in one line, without the password', async () => {
    const r = await runScout(['db', 'status'], {
      SCOUT_DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/test',
      SCOUT_DATABASE_SCHEMA: 'scout_x',
    });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'scout: cannot use PostgreSQL at 127.0.0.1:1/test (SCOUT_DATABASE_URL, schema scout_x): ECONNREFUSED\n',
    });
  });
});

describe.skipIf(!db)('scout db on PostgreSQL', () => {
  afterAll(() => db?.drop());
  const env = () => ({ SCOUT_DATABASE_URL: db!.url, SCOUT_DATABASE_SCHEMA: db!.schema });

  it('status lists every migration pending on a new schema without creating it', async () => {
    const r = await runScout(['db', 'status'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^001-core\tpending\n002-local-index\tpending\n/);
    expect(r.stdout).toMatch(/\nschema scout_t_[0-9a-f]+: 0 applied, (\d+) pending\n$/);
    const { rows } = await db!.pool.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [
      db!.schema,
    ]);
    expect(rows).toEqual([]);
  });

  it('migrate applies each pending migration once and says so; a second run has nothing to do', async () => {
    const status = JSON.parse((await runScout(['db', 'status', '--json'], env())).stdout) as {
      version: number;
      name: string;
      applied_at: null;
    }[];
    const first = await runScout(['db', 'migrate'], env());
    expect(first.code).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('\t')[0])).toEqual(
      status.map((m) => `${String(m.version).padStart(3, '0')}-${m.name}`),
    );
    for (const l of lines) expect(l).toMatch(/\tapplied \d{4}-\d\d-\d\dT/);
    const again = await runScout(['db', 'migrate'], env());
    expect(again).toEqual({ code: 0, stdout: `schema ${db!.schema} is up to date\n`, stderr: '' });
    const after = JSON.parse((await runScout(['db', 'status', '--json'], env())).stdout) as {
      applied_at: string | null;
    }[];
    expect(after).toHaveLength(status.length);
    for (const m of after) expect(Date.parse(m.applied_at!)).toBeGreaterThan(0);
  });

  it('keys created by the CLI with SCOUT_DATABASE_URL are in PostgreSQL; list and revoke see them', async () => {
    const created = JSON.parse((await runScout(['keys', 'create', '--name', 'ci', '--json'], env())).stdout);
    const { rows } = await db!.pool.query('SELECT name FROM api_keys WHERE id = $1', [created.id]);
    expect(rows).toEqual([{ name: 'ci' }]);
    const listed = JSON.parse((await runScout(['keys', 'list', '--json'], env())).stdout);
    expect(listed.map((k: { id: string }) => k.id)).toEqual([created.id]);
    expect(await runScout(['keys', 'revoke', created.id], env())).toEqual({
      code: 0,
      stdout: `revoked ${created.id}\n`,
      stderr: '',
    });
  });

  it('commands that read existing records refuse a schema without Scout tables, creating nothing', async () => {
    const missing = randomSchemaName();
    for (const argv of [
      ['keys', 'list'],
      ['campaigns', 'list'],
      ['index', 'stats'],
    ]) {
      const r = await runScout(argv, { ...env(), SCOUT_DATABASE_SCHEMA: missing });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toContain(`SCOUT_DATABASE_SCHEMA=${missing} holds no Scout tables in that database`);
    }
    const { rows } = await db!.pool.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [
      missing,
    ]);
    expect(rows).toEqual([]);
  });
});
