/**
 * PostgreSQL refuses a connection to a database that was never created with SQLSTATE 3D000
 * (invalid_catalog_name). Scout creates its schema and tables, but not the database: the
 * operator does, once, and this says how instead of the bare code.
 */

const INVALID_CATALOG_NAME = '3D000';

/** A name as the shell takes it: bare when plain, else single-quoted. */
const shellWord = (s: string): string => (/^[A-Za-z0-9_.:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** An SQL identifier, quoted (doubled quotes inside). */
const sqlIdentifier = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/**
 * The sentence for a 3D000 error, or undefined for any other error. The database's name is
 * taken from the server's message (it knows which one it refused, whatever PGDATABASE or the
 * URL said), else from the URL's path.
 */
export function missingDatabaseReason(e: unknown, url: URL): string | undefined {
  if ((e as { code?: unknown } | undefined)?.code !== INVALID_CATALOG_NAME) return undefined;
  const named = /database "(.*)" does not exist/.exec((e as Error).message ?? '')?.[1];
  const name = named ?? decodeURIComponent(url.pathname.slice(1));
  const options = [
    url.hostname ? `-h ${shellWord(decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')))}` : '',
    url.port ? `-p ${url.port}` : '',
    url.username ? `-U ${shellWord(decodeURIComponent(url.username))}` : '',
  ].filter((o) => o !== '');
  return `database "${name}" does not exist: create it with \`createdb ${[...options, shellWord(name)].join(' ')}\` or \`CREATE DATABASE ${sqlIdentifier(name)};\` (Scout creates its schema and tables, not the database), then start again`;
}
