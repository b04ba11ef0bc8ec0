/**
 * Checks of the names storage settings carry, shared by the settings table (a bad value
 * stops the start with a one-line reason) and the store openers (which tests and the CLI
 * may call directly). No driver is loaded here: config stays cheap to import.
 */

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const REDIS_PREFIX = /^[A-Za-z0-9:_.-]{1,100}$/;

/** A schema name that needs no quoting rules beyond double quotes (it is put in SQL as "name"). */
export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `PostgreSQL schema must be a lower-case SQL name (a-z, 0-9, _; at most 63 characters, not starting with a digit), got "${schema}"`,
    );
  }
  return schema;
}

/** Throws a one-line reason when the URL cannot be a PostgreSQL URL (never echoes a password). */
export function checkDatabaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('the PostgreSQL URL is not a URL (expected postgres://user@host:5432/database)');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new Error(`the PostgreSQL URL must start with postgres:// or postgresql:// (got ${u.protocol}//)`);
  }
  if (u.hostname === '' && !u.searchParams.has('host'))
    throw new Error('the PostgreSQL URL names no host (expected postgres://user@host:5432/database)');
  return url;
}

/** Throws a one-line reason when the URL or prefix cannot be used (never echoes a password). */
export function checkRedisSettings(url: string, prefix: string): void {
  checkRedisUrl(url);
  checkRedisPrefix(prefix);
}

export function checkRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('the Redis URL is not a URL (expected redis://host:port)');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error(`the Redis URL must start with redis:// or rediss:// (got ${u.protocol}//)`);
  }
  return url;
}

export function checkRedisPrefix(prefix: string): string {
  if (!REDIS_PREFIX.test(prefix)) {
    throw new Error('the Redis key prefix must be 1 to 100 letters, digits or : _ . - (e.g. scout:)');
  }
  return prefix;
}
