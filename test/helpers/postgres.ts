import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { openPostgres } from '../../src/store/postgres/open-postgres.ts';

export interface TestSchema {
  /** The test database's URL (SCOUT_TEST_DATABASE_URL). */
  url: string;
  /** scout_t_<random>: this file's own schema, created by migrate() or by the test. */
  schema: string;
  /** A pool on that schema (search_path set). */
  pool: pg.Pool;
  /** Opens another pool on the same schema (a second replica); drop() ends it too. */
  another(max?: number): pg.Pool;
  /** Drops the schema (CASCADE) and ends every pool opened here. */
  drop(): Promise<void>;
}

/** A fresh schema name, for tests that open their own pools. */
export const randomSchemaName = (): string => `scout_t_${randomBytes(6).toString('hex')}`;

/**
 * A throwaway PostgreSQL schema for one test file, or undefined when SCOUT_TEST_DATABASE_URL
 * is unset (then the file's PostgreSQL suites skip):
 *
 *   const db = testSchema();
 *   describe.skipIf(!db)('...', () => { afterAll(() => db?.drop()); ... });
 *
 * Nothing connects until the pool is used.
 */
export function testSchema(): TestSchema | undefined {
  const url = process.env.SCOUT_TEST_DATABASE_URL;
  if (!url) return undefined;
  const schema = randomSchemaName();
  const pools: pg.Pool[] = [];
  const another = (max?: number): pg.Pool => {
    const p = openPostgres({ url, schema, ...(max === undefined ? {} : { max }) });
    pools.push(p);
    return p;
  };
  const pool = another();
  return {
    url,
    schema,
    pool,
    another,
    async drop() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all(pools.map((p) => p.end()));
    },
  };
}
