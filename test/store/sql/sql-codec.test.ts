import { describe, expect, it } from 'vitest';
import { int, params, postgresCodec, sqliteCodec } from '../../../src/store/sql/sql-codec.ts';

describe('sql codecs', () => {
  it('write placeholders as each driver numbers them', () => {
    expect(params(sqliteCodec, 3)).toBe('?, ?, ?');
    expect(params(postgresCodec, 3)).toBe('$1, $2, $3');
    expect(params(postgresCodec, 2, 5)).toBe('$5, $6');
  });

  it('read JSON as SQLite keeps it (text) and as pg hands jsonb over (parsed)', () => {
    const value = { kind: 'code', code: 'SAVE10', benefit: '10% off' };
    expect(sqliteCodec.json(JSON.stringify(value))).toEqual(value);
    expect(postgresCodec.json(value)).toBe(value);
  });

  it('read integers from numbers and from bigint text', () => {
    expect(int(42)).toBe(42);
    expect(int('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });
});
