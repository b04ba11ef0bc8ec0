import { describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import type { ImpressionRecord } from '../../../src/store/ports.ts';
import {
  IMPRESSION_COLUMNS,
  impressionFromRow,
  putImpression,
  type ImpressionRow,
} from '../../../src/store/sql/impression-rows.ts';

const valuesOf = (i: ImpressionRecord): unknown[] => {
  const values: unknown[] = [];
  putImpression(values, 0, i);
  return values;
};
const rowOf = (values: unknown[], bigint: (v: unknown) => unknown): ImpressionRow =>
  Object.fromEntries(
    IMPRESSION_COLUMNS.map((c, i) => [c, c === 'shown_at' ? bigint(values[i]) : values[i]]),
  ) as unknown as ImpressionRow;

const impressions: ImpressionRecord[] = [
  {
    recId: 'r1',
    campaignId: 'cmp_a',
    landingUrl: 'https://acme.example/shoes?x=1',
    shownAt: Date.parse('2026-03-10T12:00:00Z'),
    requestId: 'req_1',
    position: 3,
  },
  { recId: 'r2', campaignId: 'c', landingUrl: '', shownAt: 0, requestId: '', position: 0 },
];

describe('impression rows', () => {
  it("round-trips with SQLite's numbers and pg's bigint text", () => {
    for (const i of impressions) {
      expect(impressionFromRow(rowOf(valuesOf(i), (v) => v))).toEqual(i);
      expect(impressionFromRow(rowOf(valuesOf(i), String))).toEqual(i);
    }
  });

  it('writes one value a column, from the offset asked for', () => {
    const values: unknown[] = ['x'];
    putImpression(values, 1, defined(impressions[0], 'an impression'));
    expect(values).toHaveLength(1 + IMPRESSION_COLUMNS.length);
    expect(values[0]).toBe('x');
  });
});
