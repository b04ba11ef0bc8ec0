import { describe, expect, it } from 'vitest';
import { toSearchQuery } from '../../src/search/search-request.ts';

const now = new Date('2026-11-21T12:00:00Z');

describe('toSearchQuery', () => {
  it('applies defaults and normalises domains and country', () => {
    const q = toSearchQuery(
      { query: 'x', include_domains: ['https://WWW.Example.com/a', 'bücher.de'], country: 'de' },
      now,
    );
    expect(q).toMatchObject({
      maxResults: 10,
      depth: 'basic',
      includeDomains: ['example.com', 'xn--bcher-kva.de'],
      country: 'DE',
    });
  });

  it('resolves freshness to a start date, and explicit dates win over it', () => {
    expect(toSearchQuery({ query: 'x', freshness: 'week' }, now).startDate).toBe('2026-11-14');
    const both = toSearchQuery({ query: 'x', freshness: 'day', end_date: '2026-01-01' }, now);
    expect(both.startDate).toBeUndefined();
    expect(both.endDate).toBe('2026-01-01');
    expect(both.freshness).toBeUndefined();
  });

  it('refuses impossible dates and start after end', () => {
    expect(() => toSearchQuery({ query: 'x', start_date: '2025-02-30' }, now)).toThrow(/real calendar date/);
    expect(() => toSearchQuery({ query: 'x', start_date: '2025-03-02', end_date: '2025-03-01' }, now)).toThrow(
      /must not be after/,
    );
    expect(toSearchQuery({ query: 'x', start_date: '2024-02-29', end_date: '2024-02-29' }, now).startDate).toBe(
      '2024-02-29',
    );
  });
});
