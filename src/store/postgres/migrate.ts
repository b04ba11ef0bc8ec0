import { readdir, readFile } from 'node:fs/promises';
import type pg from 'pg';
import { withConnection } from './in-transaction.ts';
import { checkSchemaName } from './open-postgres.ts';
import { must } from '../../domain/must.ts';

/** A migration file: `migrations/NNN-name.sql`, applied once, in version order. */
export interface MigrationFile {
  version: number;
  name: string;
  file: URL;
}

export interface MigrationState {
  version: number;
  name: string;
  /** When it was applied; null while pending. */
  appliedAt: Date | null;
}

const FOLDER = new URL('./migrations/', import.meta.url);
const FILE_NAME = /^(\d{3,})-([a-z0-9][a-z0-9-]*)\.sql$/;

/** Every migration shipped (the package ships src/, so the .sql files sit beside this one). */
export async function migrationFiles(folder: URL = FOLDER): Promise<MigrationFile[]> {
  const files: MigrationFile[] = [];
  for (const entry of await readdir(folder)) {
    if (!entry.endsWith('.sql')) continue;
    const m = FILE_NAME.exec(entry);
    if (!m)
      throw new Error(
        `migration file ${entry} must be named NNN-name.sql (digits, a dash, lower-case letters, digits and dashes)`,
      );
    const version = Number(m[1]);
    const twin = files.find((f) => f.version === version);
    if (twin) throw new Error(`migration files ${twin.version}-${twin.name}.sql and ${entry} share version ${version}`);
    files.push({ version, name: must(m[2], "a migration file's name"), file: new URL(entry, folder) });
  }
  return files.sort((a, b) => a.version - b.version);
}

/** Advisory lock key of one schema's migrations: replicas of other deployments never wait on it. */
const LOCK = "hashtextextended('scout migrations ' || $1, 0)";

const ledger = (quoted: string): string => `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Creates `schema` when missing and applies the pending migrations in version order, each
 * in its own transaction together with its row in `schema_migrations` (so a file must not
 * hold BEGIN or COMMIT itself). All of it runs under a session advisory lock keyed by the
 * schema name: replicas starting together queue, and each finds the others' work done.
 * Returns the migrations this call applied.
 */
export async function migrate(pool: pg.Pool, schema: string, folder?: URL): Promise<MigrationFile[]> {
  const quoted = `"${checkSchemaName(schema)}"`;
  const files = await migrationFiles(folder);
  return withConnection(pool, async (client, inDoubt) => {
    await client.query(`SELECT pg_advisory_lock(${LOCK})`, [schema]);
    try {
      // Under the lock: two CREATE SCHEMA IF NOT EXISTS racing can still collide.
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      await client.query(ledger(quoted));
      const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${quoted}.schema_migrations`);
      const applied = new Set(rows.map((r) => r.version));
      const pending = files.filter((f) => !applied.has(f.version));
      for (const f of pending) await applyOne(client, quoted, f);
      return pending;
    } catch (e) {
      // A connection in doubt (its lock or transaction state unknown) is closed, not pooled again.
      inDoubt(e as Error);
      throw e;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK})`, [schema]).catch(inDoubt);
    }
  });
}

async function applyOne(client: pg.PoolClient, quoted: string, f: MigrationFile): Promise<void> {
  const sql = await readFile(f.file, 'utf8');
  await client.query('BEGIN');
  try {
    // SET LOCAL: the file names its tables unqualified, and functions it creates with
    // `SET search_path FROM CURRENT` keep this schema.
    await client.query(`SET LOCAL search_path TO ${quoted}`);
    await client.query(sql);
    await client.query(`INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`, [f.version, f.name]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new Error(`migration ${f.file.pathname.split('/').pop()} failed: ${(e as Error).message}`, { cause: e });
  }
}

/** Every migration known here or recorded in the schema, in version order; pending ones have appliedAt null. */
export async function migrationStatus(pool: pg.Pool, schema: string, folder?: URL): Promise<MigrationState[]> {
  checkSchemaName(schema);
  const files = await migrationFiles(folder);
  const { rows: exists } = await pool.query<{ ok: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'schema_migrations') AS ok",
    [schema],
  );
  const applied = new Map<number, { name: string; applied_at: Date }>();
  if (exists[0]?.ok) {
    const { rows } = await pool.query<{ version: number; name: string; applied_at: Date }>(
      `SELECT version, name, applied_at FROM "${schema}".schema_migrations`,
    );
    for (const r of rows) applied.set(r.version, r);
  }
  const states: MigrationState[] = files.map((f) => ({
    version: f.version,
    name: f.name,
    appliedAt: applied.get(f.version)?.applied_at ?? null,
  }));
  // Applied by a newer Scout than this one: listed under the name it recorded.
  for (const [version, r] of applied)
    if (!files.some((f) => f.version === version)) states.push({ version, name: r.name, appliedAt: r.applied_at });
  return states.sort((a, b) => a.version - b.version);
}
