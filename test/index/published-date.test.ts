import { describe, expect, it } from 'vitest';
import { parsePublishedDate } from '../../src/index/published-date.ts';

describe('parsePublishedDate', () => {
  it.each([
    ['2024-05-01', '2024-05-01', '2024-05-01'],
    ['2024-05-01T10:20:30Z', '2024-05-01T10:20:30Z', '2024-05-01'],
    ['2024-05-01T10:20:30.123Z', '2024-05-01T10:20:30Z', '2024-05-01'],
    ['2024-05-01T01:00:00+02:00', '2024-04-30T23:00:00Z', '2024-04-30'],
    ['2024-05-01T23:30-0100', '2024-05-02T00:30:00Z', '2024-05-02'],
    ['2024-05-01 10:20', '2024-05-01T10:20:00Z', '2024-05-01'],
  ])('%s → %s', (raw, iso, day) => {
    expect(parsePublishedDate(raw)).toEqual({ iso, day });
  });

  it.each(['2024-02-30', '2024-13-01', '24-05-01', 'May 1, 2024', '2024-05-01T25:00:00Z', 'yesterday', ''])(
    'refuses %j',
    (raw) => {
      expect(parsePublishedDate(raw)).toBeUndefined();
    },
  );
});
