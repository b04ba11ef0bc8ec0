import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { missingDatabaseReason } from '../../../src/store/postgres/missing-database.ts';
import { openMigratedPool } from '../../../src/store/postgres/migrated-pool.ts';
import { runScout } from '../../helpers/cli.ts';

const testUrl = process.env.SCOUT_TEST_DATABASE_URL;

/** The test server's URL naming a database nobody created. */
function missingDatabaseUrl(): { url: string; name: string } {
  const name = `scout_missing_${randomBytes(5).toString('hex')}`;
  const u = new URL(testUrl!);
  u.pathname = `/${name}`;
  return { url: u.href, name };
}

describe('missingDatabaseReason', () => {
  it('quotes names for the shell and for SQL, and ignores other errors', () => {
    const e = Object.assign(new Error('database "my db" does not exist'), { code: '3D000' });
    expect(missingDatabaseReason(e, new URL('postgres://bob@[::1]:5433/my%20db'))).toBe(
      'database "my db" does not exist: create it with `createdb -h ::1 -p 5433 -U bob \'my db\'` or `CREATE DATABASE "my db";` (Scout creates its schema and tables, not the database), then start again',
    );
    expect(
      missingDatabaseReason(
        Object.assign(new Error('password authentication failed'), { code: '28P01' }),
        new URL('postgres://h/db'),
      ),
    ).toBeUndefined();
  });
});

describe.skipIf(!testUrl)('a database that does not exist (real PostgreSQL, SQLSTATE 3D000)', () => {
  it('stops the start with a sentence saying how to create it, not the bare code', async () => {
    const { url, name } = missingDatabaseUrl();
    const u = new URL(url);
    const where = `${u.hostname}:${u.port || 5432}/${name}`;
    const createdb = `createdb -h ${u.hostname}${u.port ? ` -p ${u.port}` : ''}${u.username ? ` -U ${u.username}` : ''} ${name}`;
    const expected = `cannot use PostgreSQL at ${where} (SCOUT_DATABASE_URL, schema scout): database "${name}" does not exist: create it with \`${createdb}\` or \`CREATE DATABASE "${name}";\` (Scout creates its schema and tables, not the database), then start again`;

    await expect(
      openMigratedPool(
        { databaseUrl: url, databaseSchema: 'scout' },
        { mustExist: false, server: { onIdleError: () => undefined } },
      ),
    ).rejects.toThrow(expected);
    // The same line from `scout serve` and from `scout db migrate`, exit 1, no stack trace.
    for (const argv of [['serve'], ['db', 'migrate']]) {
      const r = await runScout(argv, {
        SCOUT_DATABASE_URL: url,
        PORT: '0',
        HOST: '127.0.0.1',
        SCOUT_LOG_LEVEL: 'silent',
      });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toContain(`scout: ${expected}\n`);
      expect(r.stderr).not.toContain('3D000');
    }
  });
});
