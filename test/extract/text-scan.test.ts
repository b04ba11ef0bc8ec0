import { describe, expect, it } from 'vitest';
import {
  forwardFinder,
  isBlank,
  isNewline,
  isSpace,
  joinLines,
  longestRun,
  skipSpace,
  trimEndWhere,
  trimStartWhere,
} from '../../src/extract/text-scan.ts';

describe('linear text helpers', () => {
  it('trims the characters a predicate accepts, like the regexes they replace', () => {
    const samples = ['', ' ', 'a', ' a \t\n', '\n\na\n\n', 'a\u00a0\u2003', '  a  b  '];
    for (const s of samples) {
      expect(trimEndWhere(s, isSpace)).toBe(s.replace(/\s+$/, ''));
      expect(trimStartWhere(s, isNewline)).toBe(s.replace(/^\n+/, ''));
      expect(trimEndWhere(s, isBlank)).toBe(s.replace(/[ \t]+$/, ''));
    }
    expect(skipSpace('  \u00a0x', 0)).toBe(3);
  });

  it('joins lines like replace(/\\s*\\n\\s*/g, " ")', () => {
    const samples = ['a\nb', 'a \n \n b', 'a  b', '\n\na', 'a\r\n\tb', 'a\u00a0\nb', 'a \u2003 b'];
    for (const s of samples) expect(joinLines(s)).toBe(s.replace(/\s*\n\s*/g, ' '));
  });

  it('finds the longest run of a character', () => {
    expect(longestRun('a``b```c`', '`')).toBe(3);
    expect(longestRun('abc', '`')).toBe(0);
  });

  it('answers repeated forward searches from its memo', () => {
    const text = 'a-->b-->c';
    let calls = 0;
    const find = forwardFinder((from) => {
      calls += 1;
      return text.indexOf('-->', from);
    });
    expect([find(0), find(1), find(2), find(4), find(6), find(9)]).toEqual([1, 1, 5, 5, -1, -1]);
    expect(calls).toBe(3);
  });

  it('stays linear on a long whitespace run that does not end the text', { timeout: 10_000 }, () => {
    // `\s+$` and `\s*\n\s*` rescan such a run from every position: minutes at this size.
    const text = `a${' '.repeat(400_000)}b`;
    expect(trimEndWhere(text, isSpace)).toBe(text);
    expect(joinLines(text)).toBe(text);
  });
});
