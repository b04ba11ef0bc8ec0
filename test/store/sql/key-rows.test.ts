import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../src/store/ports.ts';
import {
  INSERT_KEY_PARAMS,
  KEY_COLUMNS,
  insertKeySql,
  insertKeyValues,
  keyFromRow,
  usageFromRow,
  usageSql,
  type KeyRow,
} from '../../../src/store/sql/key-rows.ts';
import { postgresCodec, sqliteCodec } from '../../../src/store/sql/sql-codec.ts';

/** A stored key's row: the inserted values, then revoked_at (text on both drivers). */
const rowOf = (r: ApiKeyRecord): KeyRow =>
  Object.fromEntries(
    KEY_COLUMNS.split(', ').map((c, i) => [c, [...insertKeyValues(r), r.revokedAt][i]]),
  ) as unknown as KeyRow;

describe('key rows', () => {
  it('round-trips a revoked and a live key', () => {
    const revoked: ApiKeyRecord = {
      id: 'key_a',
      name: 'ci',
      hash: 'ab'.repeat(32),
      createdAt: '2026-01-01T00:00:00.000Z',
      revokedAt: '2026-02-01T00:00:00.000Z',
    };
    const live: ApiKeyRecord = {
      id: 'key_b',
      name: '',
      hash: 'cd'.repeat(32),
      createdAt: '2026-01-02T00:00:00.000Z',
      revokedAt: null,
    };
    for (const r of [revoked, live]) expect(keyFromRow(rowOf(r))).toEqual(r);
  });

  it('inserts with as many placeholders as values, per driver', () => {
    const values = insertKeyValues({ id: 'k', name: 'n', hash: 'h', createdAt: 't' });
    expect(values).toHaveLength(INSERT_KEY_PARAMS);
    expect(insertKeySql(sqliteCodec)).toBe('INSERT INTO api_keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)');
    expect(insertKeySql(postgresCodec)).toBe(
      'INSERT INTO api_keys (id, name, hash, created_at) VALUES ($1, $2, $3, $4)',
    );
  });

  it("reads usage from SQLite's numbers and pg's bigint text alike, a time or none", () => {
    const used = { id: 'key_a', requests: 12, refusals: 3, lastUsedAt: '2026-01-02T03:04:05.678Z' };
    expect(usageFromRow({ id: 'key_a', requests: 12, refusals: 3, last_used_at: used.lastUsedAt })).toEqual(used);
    expect(usageFromRow({ id: 'key_a', requests: '12', refusals: '3', last_used_at: used.lastUsedAt })).toEqual(used);
    expect(usageFromRow({ id: 'key_b', requests: '0', refusals: '0', last_used_at: null })).toEqual({
      id: 'key_b',
      requests: 0,
      refusals: 0,
      lastUsedAt: null,
    });
  });

  it('reads the last use as text on SQLite and formats the timestamptz in UTC on pg', () => {
    expect(usageSql(sqliteCodec)).toContain('refusals, last_used_at FROM api_key_usage');
    expect(usageSql(postgresCodec)).toContain(
      `to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_used_at`,
    );
  });
});
