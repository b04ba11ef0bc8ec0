import { describe, expect, it } from 'vitest';
import {
  findMatches,
  lightStem,
  makeSnippet,
  SNIPPET_MAX_CHARS,
  snippetMatcher,
  tidySnippet,
} from '../../src/index/snippet.ts';

describe('tidySnippet', () => {
  it('flattens whitespace', () => {
    expect(tidySnippet('  a\n\n b\t c  ')).toBe('a b c');
  });

  it('cuts long text at a word boundary with an ellipsis', () => {
    const s = tidySnippet('word '.repeat(200), 50);
    expect(s.length).toBeLessThanOrEqual(50);
    expect(s).toMatch(/word…$/);
  });

  it('never leaves half a surrogate pair', () => {
    const s = tidySnippet('🙂'.repeat(100), 51);
    expect(s.endsWith('…')).toBe(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(s)).toBe(false);
  });
});

describe('makeSnippet', () => {
  const filler = (word: string, n: number) => `${word} `.repeat(n);

  it('shows the window with the most distinct query terms', () => {
    const text = `${filler('alpha', 100)}Here the heron meets the otter at dawn. ${filler('omega', 100)} A lone heron.`;
    const s = makeSnippet(text, snippetMatcher(['heron', 'otter']));
    expect(s).toContain('Here the heron meets the otter at dawn.');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
  });

  it('matches inflected forms and folds the query’s diacritics', () => {
    const text = `${filler('x', 200)}The pages were indexed at the Cafe overnight.`;
    expect(makeSnippet(text, snippetMatcher(['indexing']))).toContain('indexed');
    expect(makeSnippet(text, snippetMatcher(['café']))).toContain('Cafe overnight');
  });

  it('starts at a word boundary and keeps short texts whole', () => {
    const s = makeSnippet(`${'abcdefghij '.repeat(30)}needle here`, snippetMatcher(['needle']));
    expect(s).toMatch(/^…abcdefghij /);
    expect(makeSnippet('A short needle text.', snippetMatcher(['needle']))).toBe('A short needle text.');
  });

  it('shows the opening when no term is found', () => {
    expect(makeSnippet(`Opening words. ${filler('more', 200)}`, snippetMatcher(['absent']))).toMatch(
      /^Opening words\. more/,
    );
    expect(makeSnippet('Text', undefined)).toBe('Text');
  });

  it('light-stems common suffixes only when a stem of 3+ letters remains', () => {
    expect(['indexing', 'stations', 'parties', 'runs', 'bus', 'is'].map(lightStem)).toEqual([
      'index',
      'stat',
      'part',
      'run',
      'bus',
      'is',
    ]);
  });
});

describe('snippet term matching', () => {
  it('matches inflections of a stem, not longer words that start with it', () => {
    const m = snippetMatcher(['cat']);
    const found = (text: string) => findMatches(text, m!).map((x) => text.slice(x.at, x.end));
    expect(found('cat cats Cat. category catalog concat')).toEqual(['cat', 'cats', 'Cat']);
  });
});
