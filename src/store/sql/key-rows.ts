import type { ApiKeyRecord, KeyUsage } from '../ports.ts';
import { int, params, type SqlCodec } from './sql-codec.ts';

/** The `api_keys` and `api_key_usage` tables ⇄ ApiKeyRecord and KeyUsage, for the SQLite and the PostgreSQL store alike. */

/** Named columns, never *: a prepared pg statement fails once a later migration changes the row shape. */
export const KEY_COLUMNS = 'id, name, hash, created_at, revoked_at';

/** Every column but revoked_at, which a new key has not. */
const INSERTED = ['id', 'name', 'hash', 'created_at'];

export interface KeyRow {
  id: string;
  name: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export const keyFromRow = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** How many parameters insertKeySql takes: a statement around it numbers its own from the next one. */
export const INSERT_KEY_PARAMS = INSERTED.length;

/** The insert of a new key; its values are insertKeyValues(r). */
export const insertKeySql = (codec: SqlCodec): string =>
  `INSERT INTO api_keys (${INSERTED.join(', ')}) VALUES (${params(codec, INSERTED.length)})`;

export const insertKeyValues = (r: Omit<ApiKeyRecord, 'revokedAt'>): unknown[] => [r.id, r.name, r.hash, r.createdAt];

/** A row of usageSql: counts are bigint on pg (text), INTEGER on SQLite (numbers). */
export interface UsageRow {
  id: string;
  requests: number | string;
  refusals: number | string;
  last_used_at: string | null;
}

/**
 * Every key's usage in id (byte) order, the time back in the toISOString form callers wrote
 * (text on SQLite, timestamptz on pg: see codec.isoTime).
 */
export const usageSql = (codec: SqlCodec): string =>
  `SELECT key_id AS id, requests, refusals, ${codec.isoTime('last_used_at')} FROM api_key_usage ORDER BY key_id`;

export const usageFromRow = (r: UsageRow): KeyUsage => ({
  id: r.id,
  requests: int(r.requests),
  refusals: int(r.refusals),
  lastUsedAt: r.last_used_at,
});
