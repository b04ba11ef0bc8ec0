import { describe, expect, it } from 'vitest';
import { normalizeDate } from '../../src/domain/date-normalize.ts';

const NOW = new Date('2025-01-08T12:34:56.789Z');
const n = (raw: unknown) => normalizeDate(raw, NOW);

describe('normalizeDate', () => {
  it('reads ISO 8601 with or without time and zone (no zone means UTC; a day stays a day)', () => {
    expect(n('2024-11-12T09:31:28')).toBe('2024-11-12T09:31:28Z'); // Brave page_age
    expect(n('2023-11-16T01:36:32.547Z')).toBe('2023-11-16T01:36:32Z'); // Exa
    expect(n('2025-01-02 08:00:00+01:00')).toBe('2025-01-02T07:00:00Z'); // SearXNG isoformat
    expect(n('2025-01-02T08:00:00-0530')).toBe('2025-01-02T13:30:00Z');
    expect(n('2025-01-04')).toBe('2025-01-04'); // Tavily
    expect(n('2025-01-04T10:20')).toBe('2025-01-04T10:20:00Z');
  });

  it('reads relative ages against now (a day, without a time, for days and longer)', () => {
    expect(n('2 days ago')).toBe('2025-01-06');
    expect(n('3 hours ago')).toBe('2025-01-08T09:34:56Z');
    expect(n('an hour ago')).toBe('2025-01-08T11:34:56Z');
    expect(n('5 mins ago')).toBe('2025-01-08T12:29:56Z');
    expect(n('1 week ago')).toBe('2025-01-01');
    expect(n('2 months ago')).toBe('2024-11-08');
    expect(n('a year ago')).toBe('2024-01-08');
    expect(n('yesterday')).toBe('2025-01-07');
    expect(n('Today')).toBe('2025-01-08');
    expect(n('just now')).toBe('2025-01-08T12:34:56Z');
  });

  it('reads English dates as Serper and Brave show them', () => {
    expect(n('Jan 5, 2025')).toBe('2025-01-05');
    expect(n('November 12, 2024')).toBe('2024-11-12');
    expect(n('Sept 3, 2024')).toBe('2024-09-03');
    expect(n('5 Jan 2025')).toBe('2025-01-05');
    expect(n('12th March, 2024')).toBe('2024-03-12');
  });

  it('reads RFC 2822 dates (Tavily published_date)', () => {
    expect(n('Mon, 06 Jan 2025 10:00:00 GMT')).toBe('2025-01-06T10:00:00Z');
    expect(n('6 Jan 2025 10:00:00 +0200')).toBe('2025-01-06T08:00:00Z');
  });

  it('drops what it cannot read instead of guessing', () => {
    for (const bad of [
      '2025-02-30',
      '2025-13-01',
      '2025-01-01T25:00:00',
      'Foo 5, 2025',
      'recently',
      '',
      '   ',
      null,
      undefined,
      1736000000,
      'Marchxyz 5, 2024',
    ]) {
      expect(n(bad)).toBeUndefined();
    }
  });
});
