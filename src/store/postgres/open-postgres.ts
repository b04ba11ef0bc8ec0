import pg from 'pg';
import { checkSchemaName } from '../../config/storage-names.ts';

export { checkSchemaName };

export interface PostgresOptions {
  /** postgres://user:password@host:5432/db */
  url: string;
  /** Every table lives in this schema (search_path), so deployments can share a database. */
  schema: string;
  /** Most connections this pool opens (default 10). */
  max?: number;
  /** How long a new connection may take before its query fails (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Client-side limit of one query, none by default (a migration may take long). */
  queryTimeoutMs?: number;
  /** An idle pooled connection failed (server restart, network): told here, never thrown. */
  onIdleError?: (error: Error) => void;
}

/**
 * A pool whose every connection has `search_path` set to `schema`, so queries name tables
 * unqualified. The schema itself is created by `migrate`. An idle client that errors (its
 * server went away) would otherwise be an unhandled 'error' event that ends the process:
 * the pool drops that client and the error goes to `onIdleError`.
 */
export function openPostgres(o: PostgresOptions): pg.Pool {
  const schema = checkSchemaName(o.schema);
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.max ?? 10,
    options: `-c search_path=${schema}`,
    application_name: 'scout',
    connectionTimeoutMillis: o.connectTimeoutMs ?? 5000,
    // A dead peer is found by the kernel instead of by a query that never returns.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(o.queryTimeoutMs === undefined ? {} : { query_timeout: o.queryTimeoutMs }),
  });
  pool.on('error', (e) => o.onIdleError?.(e));
  return pool;
}

/** The client settings of `pool` (its URL, search_path, timeouts) for a dedicated connection. */
export const clientConfigOf = (pool: pg.Pool): pg.ClientConfig => ({ ...pool.options });
