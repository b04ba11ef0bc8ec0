import type { KeyUsage } from './ports.ts';

/**
 * Usage deltas with every lastUsedAt in toISOString form (2026-01-02T03:04:05.678Z), which
 * compares as text in time order, for the stores that keep it as text (memory, SQLite).
 * Read before anything is written: a time that does not parse throws (RangeError), so the
 * call fails whole with nothing stored.
 */
export const withIsoTimes = (deltas: readonly KeyUsage[]): KeyUsage[] =>
  deltas.map((d) => ({ ...d, lastUsedAt: d.lastUsedAt === null ? null : new Date(d.lastUsedAt).toISOString() }));
