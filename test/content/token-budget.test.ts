import { countTokens as reference } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { cutToTokens, shareInRankOrder } from '../../src/content/token-budget.ts';
import { countTokens } from '../../src/content/token-count.ts';
import { defined } from '../helpers/defined.ts';

// The tokenizer as a caller would use it, special-token text taken as plain text.
const tokens = (text: string): number => reference(text, { disallowedSpecial: new Set() });

const para = (n: number, word = 'word'): string => `${Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ')}.`;

describe('countTokens', () => {
  it('counts with o200k_base and takes special-token spellings as text', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('see <|endoftext|> here')).toBe(tokens('see <|endoftext|> here'));
    expect(countTokens('')).toBe(0);
  });
});

describe('cutToTokens', () => {
  it('keeps a text that fits whole', () => {
    const text = 'One short paragraph.\n\nAnother one.';
    expect(cutToTokens(text, 100)).toEqual({ text, tokens: tokens(text), truncated: false });
  });

  it('cuts at the last paragraph boundary that fits', () => {
    const blocks = [para(40, 'a'), para(40, 'b'), para(40, 'c'), para(40, 'd')];
    const text = blocks.join('\n\n');
    const limit = tokens(blocks.slice(0, 2).join('\n\n')) + 5;
    const cut = cutToTokens(text, limit);
    expect(cut.text).toBe(blocks.slice(0, 2).join('\n\n'));
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBe(tokens(cut.text));
    expect(cut.tokens).toBeLessThanOrEqual(limit);
  });

  it('falls back to whole sentences when one paragraph is longer than the limit', () => {
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something plain.`);
    const text = sentences.join(' ');
    const cut = cutToTokens(text, 50);
    expect(cut.tokens).toBeLessThanOrEqual(50);
    expect(cut.text.endsWith('plain.')).toBe(true);
    expect(text.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeGreaterThan(100);
  });

  it('extends a short paragraph cut with sentences of the next paragraph', () => {
    const text = `Intro line.\n\n${Array.from({ length: 40 }, (_, i) => `Long paragraph sentence ${i} here.`).join(' ')}`;
    const cut = cutToTokens(text, 100);
    expect(cut.tokens).toBeLessThanOrEqual(100);
    expect(cut.tokens).toBeGreaterThan(50);
    expect(cut.text.startsWith('Intro line.\n\nLong paragraph sentence 0 here.')).toBe(true);
  });

  it('cuts at a token boundary when not even a sentence fits', () => {
    const text = `${'x'.repeat(5)} ${Array.from({ length: 200 }, (_, i) => `w${i}`).join('-')}`;
    const cut = cutToTokens(text, 10);
    expect(cut.tokens).toBeLessThanOrEqual(10);
    expect(cut.text.length).toBeGreaterThan(0);
    expect(text.startsWith(cut.text)).toBe(true);
  });

  it('never splits a multi-byte character at a token cut', () => {
    const text = '漢字かな交じり文の例です'.repeat(50);
    const cut = cutToTokens(text, 7);
    expect(cut.tokens).toBeLessThanOrEqual(7);
    expect(cut.text).not.toContain('\uFFFD');
    expect(text.startsWith(cut.text)).toBe(true);
  });

  it('closes a code fence it cut inside', () => {
    const code = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const text = `Intro.\n\n\`\`\`js\n${code}\n\`\`\`\n\nAfter.`;
    const cut = cutToTokens(text, 60);
    expect(cut.tokens).toBeLessThanOrEqual(60);
    expect(cut.text.startsWith('Intro.\n\n```js\nconst v0 = 0;')).toBe(true);
    expect(cut.text.endsWith('\n```')).toBe(true);
    expect(cut.tokens).toBe(tokens(cut.text));
  });

  it('gives nothing for a limit of zero', () => {
    expect(cutToTokens('some text', 0)).toEqual({ text: '', tokens: 0, truncated: true });
    expect(cutToTokens('', 0)).toEqual({ text: '', tokens: 0, truncated: false });
  });

  it('never exceeds the limit on random markdown (property)', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      'Plain words here.',
      'Ünïcödé café naïve.',
      '日本語の文。',
      '🙂🙃 emoji!',
      '<|endoftext|>',
      '[link](https://e.x/a_b)',
      '- item',
      '| a | b |',
      '```',
      '\n',
      '\n\n',
      '   ',
    ];
    for (let run = 0; run < 150; run += 1) {
      const n = 1 + Math.floor(rand() * 400);
      const text = Array.from({ length: n }, () => pieces[Math.floor(rand() * pieces.length)]).join(
        rand() < 0.5 ? ' ' : '',
      );
      const limit = Math.floor(rand() * 300);
      const cut = cutToTokens(text, limit);
      expect(tokens(cut.text)).toBe(cut.tokens);
      expect(cut.tokens).toBeLessThanOrEqual(limit);
    }
  });
});

// Inputs that took the old cut seconds to minutes: one enormous tokenizer piece (merged in
// quadratic time, and a limit only stops the count between pieces), and thousands of
// paragraphs whose piece counts undercount (the old cut walked back one paragraph per full
// re-count). Each cut must still be exact, within the limit and a prefix of the text.
describe('cutToTokens on hostile pages', () => {
  const expectGoodCut = (text: string, limit: number): void => {
    const cut = cutToTokens(text, limit);
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeGreaterThan(0);
    expect(text.startsWith(cut.text)).toBe(true);
    expect(cut.tokens).toBe(tokens(cut.text));
    expect(cut.tokens).toBeLessThanOrEqual(limit);
  };

  it('one word of 200,000 letters', { timeout: 10_000 }, () => {
    const word = Array.from({ length: 200_000 }, (_, i) => 'qwxzjkvbpgfy'[(i * 7919) % 12]).join('');
    expectGoodCut(word, 400);
    expectGoodCut(`Intro paragraph.\n\n${word}`, 32_000);
  });

  it('200,000 spaces, line breaks, dashes or CJK characters in one run', { timeout: 10_000 }, () => {
    expectGoodCut(`a${' '.repeat(200_000)}b`, 400);
    expectGoodCut(`a${'\n'.repeat(200_000)}b`, 400);
    expectGoodCut('-'.repeat(200_000), 32_000);
    expectGoodCut('東京都データ'.repeat(40_000), 32_000);
  });

  it('30,000 one-letter paragraphs between runs of line breaks', { timeout: 10_000 }, () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `a${'\n'.repeat(2 + (i % 7) * 2)}`).join('');
    expectGoodCut(text, 32_000);
  });
});

describe('shareInRankOrder', () => {
  it('gives even shares and hands the remainder of the division to the first', () => {
    const limits: number[] = [];
    shareInRankOrder(10, 3, (_, limit) => {
      limits.push(limit);
      return limit;
    });
    expect(limits).toEqual([4, 3, 3]);
  });

  it('lets an unused share flow to the next party', () => {
    const limits: number[] = [];
    const wants = [10, 500, 500, 500];
    shareInRankOrder(1000, 4, (i, limit) => {
      limits.push(limit);
      return Math.min(limit, defined(wants[i], `want ${i}`));
    });
    expect(limits).toEqual([250, 490, 250, 250]);
  });

  it('ignores a taker that claims more than its limit', () => {
    const limits: number[] = [];
    shareInRankOrder(100, 2, (_, limit) => {
      limits.push(limit);
      return limit * 5;
    });
    expect(limits).toEqual([50, 50]);
  });
});
