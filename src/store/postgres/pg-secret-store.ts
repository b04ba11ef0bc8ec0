import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SecretStore } from '../ports.ts';

/** Secrets in the `secrets` table: one statement inserts when missing and returns the row that won. */
export function createPostgresSecretStore(pool: pg.Pool): SecretStore {
  return {
    async get(name, bytes) {
      // The CTE's insert is invisible to the same statement's SELECT, hence the UNION: either
      // the row this statement inserted or the one another process inserted first.
      const { rows } = await pool.query<{ value: Buffer }>(
        `WITH ins AS (INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
         SELECT value FROM ins UNION ALL SELECT value FROM secrets WHERE name = $1 LIMIT 1`,
        [name, randomBytes(bytes)],
      );
      // A racing insert that committed after this statement's snapshot is invisible to it
      // (READ COMMITTED): read again, in a new statement, which sees it.
      const row =
        rows[0] ?? (await pool.query<{ value: Buffer }>('SELECT value FROM secrets WHERE name = $1', [name])).rows[0];
      if (row === undefined) throw new Error(`the secret ${name} could not be read back`);
      return new Uint8Array(row.value);
    },
  };
}
