import { countTokens as reference } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { countTokens, LONG_PIECE, tokenizableEnd, tokenPrefix } from '../../src/content/token-count.ts';

const tokens = (text: string): number => reference(text, { disallowedSpecial: new Set() });

/** tokenizableEnd without its shortcut: every piece of the tokenizer's own split. */
function fullScan(text: string): number {
  for (const m of text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))) {
    if (m[0].length > LONG_PIECE) {
      const end = (m.index ?? 0) + LONG_PIECE;
      const code = text.charCodeAt(end - 1);
      return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
    }
  }
  return text.length;
}

describe('tokenizableEnd', () => {
  it('is the whole text when no piece is long', () => {
    const prose = 'Plain words, café 東京都。 Code: `a/b/c`\n\n'.repeat(2000);
    expect(tokenizableEnd(prose)).toBe(prose.length);
  });

  it('stops LONG_PIECE characters into the first long piece', () => {
    // The piece is " xxx…": a letter run takes the space before it.
    expect(tokenizableEnd(`intro ${'x'.repeat(5000)} tail`)).toBe(5 + LONG_PIECE);
    expect(tokenizableEnd('東'.repeat(5000))).toBe(LONG_PIECE);
    // One punctuation piece with a tail of slashes and line breaks: no long run of one kind.
    expect(tokenizableEnd(`a-${'/\n'.repeat(5000)}`)).toBe(1 + LONG_PIECE);
  });

  it('never ends between the two halves of a surrogate pair', () => {
    const text = `a ${'😀'.repeat(1000)}`;
    const end = tokenizableEnd(text);
    expect(end).toBeLessThanOrEqual(1 + LONG_PIECE);
    expect(text.slice(0, end)).not.toMatch(/[\ud800-\udbff]$/);
  });

  it('agrees with a scan of every piece (its shortcut skips texts without long runs)', () => {
    let seed = 11;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const atoms = [
      'a',
      'B',
      ' ',
      '  ',
      '\n',
      '/',
      '-',
      '.',
      '1',
      '東',
      '😀',
      '\t',
      "'s",
      'x'.repeat(300),
      ' '.repeat(300),
      '/\n'.repeat(200),
    ];
    for (let i = 0; i < 300; i += 1) {
      const text = Array.from(
        { length: Math.floor(rand() * 120) },
        () => atoms[Math.floor(rand() * atoms.length)],
      ).join('');
      expect(tokenizableEnd(text)).toBe(fullScan(text));
    }
  });
});

// The tokenizer merges each piece in time quadratic in its length: the old tokenPrefix took
// about 15 s on a 200,000-letter word.
describe('tokenPrefix', () => {
  it('cuts a 200,000-letter word quickly, to at most the limit', { timeout: 10_000 }, () => {
    const word = Array.from({ length: 200_000 }, (_, i) => 'qwxzjkvbpgfy'[(i * 7919) % 12]).join('');
    const prefix = tokenPrefix(word, 100);
    expect(prefix.length).toBeGreaterThan(0);
    expect(word.startsWith(prefix)).toBe(true);
    expect(tokens(prefix)).toBeLessThanOrEqual(100);
  });
});

describe('countTokens', () => {
  // Mostly filling the cache: about 1.5 s on a quiet machine, 5 s seen on a 2-core machine
  // loaded ten times over; the limit is far above both (issue 24). Whether the repeated piece
  // counts fast (0.09 s against 1.5 s with the default cache) is for bench/, not this limit.
  it('counts a page that repeats one piece quickly once the merge cache is full', { timeout: 30_000 }, () => {
    // Fill the tokenizer's merge cache with distinct pieces, as a long-running server does.
    const letters = 'bcdfghjklmnpqrstvwxz';
    const fill = Array.from({ length: 120_000 }, (_, i) => {
      let w = '';
      for (let n = i + 1; n > 0; n = Math.floor(n / 20)) w += letters[n % 20];
      return `${w}q`;
    }).join(' ');
    expect(countTokens(fill)).toBeGreaterThan(120_000);
    // With the default cache of 100,000 entries this took about 4 s (every hit walks a hash
    // chain of the piece's deleted copies); the cache is kept small now.
    const page = '>ab'.repeat(200_000);
    expect(countTokens(page)).toBe(200_000 * tokens('>ab'));
  });
});
