import type pg from 'pg';
import { ConfigError } from '../../config/load-config.ts';
import type { Config } from '../../config/settings.ts';
import { migrate, migrationStatus, type MigrationState } from './migrate.ts';
import { missingDatabaseReason } from './missing-database.ts';
import { openPostgres } from './open-postgres.ts';

type DatabaseSettings = Pick<Config, 'databaseUrl' | 'databaseSchema'> & Partial<Pick<Config, 'databasePoolSize'>>;

/**
 * SQLSTATE 53300 (too_many_connections): every connection slot the server admits is taken,
 * often by replicas whose pools together exceed max_connections. Said as what to change.
 */
const tooManyConnectionsReason = (e: unknown): string | undefined =>
  (e as { code?: unknown } | undefined)?.code === '53300'
    ? 'the server has no connection slot left (53300 too_many_connections): raise its max_connections, or lower SCOUT_DATABASE_POOL_SIZE so that replicas x (SCOUT_DATABASE_POOL_SIZE + 1) plus the CLI fit in it'
    : undefined;

/** A one-line reason when PostgreSQL cannot be reached or used (never the password). */
function databaseError(config: DatabaseSettings, e: unknown): ConfigError {
  const u = new URL(config.databaseUrl!);
  const where = `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname}`;
  const reason =
    missingDatabaseReason(e, u) ??
    tooManyConnectionsReason(e) ??
    (e as NodeJS.ErrnoException).code ??
    (e as Error).message;
  return new ConfigError(
    `cannot use PostgreSQL at ${where} (SCOUT_DATABASE_URL, schema ${config.databaseSchema}): ${reason}`,
    { cause: e },
  );
}

/**
 * A pool on SCOUT_DATABASE_SCHEMA, migrated (store/create-stores.ts opens every PostgreSQL
 * store through it). `mustExist`: a schema without Scout's tables is a wrong setting, not created.
 */
export async function openMigratedPool(
  config: DatabaseSettings,
  o: { mustExist: boolean; server?: { onIdleError: (e: Error) => void } },
): Promise<pg.Pool> {
  const pool = openPostgres({
    url: config.databaseUrl!,
    schema: config.databaseSchema,
    // A server fails a request fast while the database is unreachable (503), rather than
    // holding it for the driver's defaults; the CLI waits as long as a query takes.
    // A server's pool is SCOUT_DATABASE_POOL_SIZE (replicas x it is what PostgreSQL must
    // admit). Connections open only as concurrent queries need them: a CLI command, which
    // runs few at once, keeps the driver's bound.
    ...(o.server
      ? {
          connectTimeoutMs: 2000,
          queryTimeoutMs: 10_000,
          onIdleError: o.server.onIdleError,
          ...(config.databasePoolSize === undefined ? {} : { max: config.databasePoolSize }),
        }
      : { connectTimeoutMs: 5000 }),
  });
  try {
    if (o.mustExist && (await migrationStatus(pool, config.databaseSchema)).every((m) => m.appliedAt === null)) {
      throw new ConfigError(
        `SCOUT_DATABASE_SCHEMA=${config.databaseSchema} holds no Scout tables in that database; point SCOUT_DATABASE_URL and SCOUT_DATABASE_SCHEMA at the ones the server uses`,
      );
    }
    await migrate(pool, config.databaseSchema);
    return pool;
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e instanceof ConfigError ? e : databaseError(config, e);
  }
}

/** `scout db migrate|status`: applies the pending migrations (and lists those), or lists them all. */
export async function runMigrations(config: DatabaseSettings, action: 'migrate' | 'status'): Promise<MigrationState[]> {
  const pool = openPostgres({ url: config.databaseUrl!, schema: config.databaseSchema, connectTimeoutMs: 5000 });
  try {
    if (action === 'status') return await migrationStatus(pool, config.databaseSchema);
    const applied = await migrate(pool, config.databaseSchema);
    return (await migrationStatus(pool, config.databaseSchema)).filter((s) =>
      applied.some((a) => a.version === s.version),
    );
  } catch (e) {
    throw e instanceof ConfigError ? e : databaseError(config, e);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
