import { describe, expect, it } from 'vitest';
import { buildFtsQuery, MAX_TERMS } from '../../src/index/fts-query.ts';

describe('buildFtsQuery', () => {
  it('ORs quoted terms and drops stop words', () => {
    expect(buildFtsQuery('What is the best SQLite full-text search?')).toMatchObject({
      terms: ['best', 'sqlite', 'full', 'text', 'search'],
      match: '"best" OR "sqlite" OR "full" OR "text" OR "search"',
    });
  });

  it('turns FTS5 operators and syntax into plain words or separators', () => {
    const q = buildFtsQuery('cats AND dogs OR NEAR(birds) NOT fish* -x ^y col:z "quoted"');
    expect(q.terms).toEqual(['cats', 'dogs', 'near', 'birds', 'fish', 'x', 'y', 'col', 'z', 'quoted']);
    expect(q.match).not.toMatch(/[*^():-]/);
  });

  it('has no match expression for a query of stop words only', () => {
    expect(buildFtsQuery('To be or not to be')).toEqual({ terms: [], spans: [] });
  });

  it('has no match expression for text without words', () => {
    expect(buildFtsQuery('?!… 🙂 -- ()').match).toBeUndefined();
  });

  it('keeps letters of any script and dedupes case-insensitively', () => {
    expect(buildFtsQuery('Zürich zürich 東京 café').terms).toEqual(['zürich', '東京', 'café']);
  });

  it('builds adjacency phrases across up to two stop words', () => {
    expect(buildFtsQuery('bank of america new york').phrases).toBe('"bank of america" OR "america new" OR "new york"');
    expect(buildFtsQuery('apples are in the barn').phrases).toBeUndefined();
    expect(buildFtsQuery('single').phrases).toBeUndefined();
  });

  it('bounds the number of terms', () => {
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    expect(buildFtsQuery(many).terms).toHaveLength(MAX_TERMS);
  });
});
