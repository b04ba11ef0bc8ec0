/**
 * What differs between the SQL drivers when a row is read or a statement is written, said
 * once so the table mappings beside this file (campaign-rows.ts, key-rows.ts, …) serve both
 * backends. Values written are the same for both (numbers, text, JSON as text: a jsonb
 * parameter takes JSON text); only placeholders and a few values read back differ.
 */
export interface SqlCodec {
  /** The placeholder of the n-th parameter (1-based) in statement text order. */
  param(n: number): string;
  /** A JSON column as read: SQLite keeps it as text, pg hands jsonb over already parsed. */
  json(value: unknown): unknown;
  /**
   * A select-list expression reading time column `column` as toISOString text
   * (2026-01-02T03:04:05.678Z), aliased to the column's name. SQLite keeps such text as
   * written; PostgreSQL's timestamptz is formatted in UTC whatever the session's TimeZone.
   */
  isoTime(column: string): string;
}

export const sqliteCodec: SqlCodec = {
  param: () => '?',
  json: (value) => JSON.parse(value as string),
  isoTime: (column) => column,
};

export const postgresCodec: SqlCodec = {
  param: (n) => `$${n}`,
  json: (value) => value,
  isoTime: (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`,
};

/**
 * An integer column as read: SQLite gives a number, pg gives bigint as exact decimal text
 * (our values, micros and epoch milliseconds, stay far below 2^53): Number() reads both.
 */
export const int = (value: number | string): number => Number(value);

/** `count` placeholders from the `from`-th on, comma separated. */
export const params = (codec: SqlCodec, count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => codec.param(from + i)).join(', ');
