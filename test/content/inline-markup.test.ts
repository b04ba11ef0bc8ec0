import { describe, expect, it } from 'vitest';
import {
  isTableRule,
  stripCodeSpans,
  stripHtmlTags,
  stripStrong,
  unwrapAutolinks,
} from '../../src/content/inline-markup.ts';

// The regexes the scanners replace: same output wanted on every input (fast on short ones).
const REFERENCE = {
  strong: (s: string) => s.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2'),
  code: (s: string) => s.replace(/`+([^`]+)`+/g, '$1'),
  autolink: (s: string) => s.replace(/<(https?:\/\/[^>\s]+)>/g, '$1'),
  tag: (s: string) => s.replace(/<\/?[a-z][^>]*>/gi, ''),
  rule: (s: string) => /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(s),
};

let seed = 42;
const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const randomLine = (atoms: readonly string[], max: number): string =>
  Array.from({ length: Math.floor(rand() * max) }, () => atoms[Math.floor(rand() * atoms.length)]).join('');

describe('inline markup scanners agree with the regexes they replace', () => {
  it('strong emphasis', () => {
    expect(stripStrong('a **bold** and __also__ here')).toBe('a bold and also here');
    expect(stripStrong('***x***')).toBe(REFERENCE.strong('***x***'));
    const atoms = ['*', '**', '_', '__', 'a', 'b', ' ', '\t', '\u00a0'];
    for (let i = 0; i < 4000; i += 1) {
      const line = randomLine(atoms, 16);
      expect(stripStrong(line), JSON.stringify(line)).toBe(REFERENCE.strong(line));
    }
  });

  it('code spans', () => {
    expect(stripCodeSpans('run `npm test` or ``a ` b``')).toBe('run npm test or a  b``');
    const atoms = ['`', '``', 'a', ' ', 'x'];
    for (let i = 0; i < 4000; i += 1) {
      const line = randomLine(atoms, 14);
      expect(stripCodeSpans(line), JSON.stringify(line)).toBe(REFERENCE.code(line));
    }
  });

  it('autolinks', () => {
    expect(unwrapAutolinks('see <https://e.test/a> now')).toBe('see https://e.test/a now');
    const atoms = ['<', '>', '<http://', '<https://', 'a', ' ', '<a', '\t', 'http://'];
    for (let i = 0; i < 4000; i += 1) {
      const line = randomLine(atoms, 10);
      expect(unwrapAutolinks(line), JSON.stringify(line)).toBe(REFERENCE.autolink(line));
    }
  });

  it('HTML tags', () => {
    expect(stripHtmlTags('a <b>bold</b> <br/> 1 < 2')).toBe('a bold  1 < 2');
    const atoms = ['<', '>', '</', 'a', 'B', ' ', '1', '<x'];
    for (let i = 0; i < 4000; i += 1) {
      const line = randomLine(atoms, 12);
      expect(stripHtmlTags(line), JSON.stringify(line)).toBe(REFERENCE.tag(line));
    }
  });

  it('table rules', () => {
    expect(isTableRule('|---|:---:|')).toBe(true);
    expect(isTableRule('| a | b |')).toBe(false);
    const atoms = ['|', '-', '--', ':', ' ', '\t', 'a'];
    for (let i = 0; i < 4000; i += 1) {
      const line = randomLine(atoms, 12);
      expect(isTableRule(line), JSON.stringify(line)).toBe(REFERENCE.rule(line));
    }
  });
});

// Each of these took the replaced regex many seconds (quadratic); the scanners are linear.
describe('inline markup scanners on hostile lines', () => {
  it('a run of 200,000 backticks', { timeout: 10_000 }, () => {
    expect(stripCodeSpans(`x${'`'.repeat(200_000)}a`)).toBe(`x${'`'.repeat(200_000)}a`);
  });

  it('50,000 unclosed strong markers of each kind', { timeout: 10_000 }, () => {
    expect(stripStrong('**a '.repeat(50_000))).toBe('**a '.repeat(50_000));
    expect(stripStrong('__a '.repeat(50_000))).toBe('__a '.repeat(50_000));
  });

  it('25,000 autolink openings without an end', { timeout: 10_000 }, () => {
    expect(unwrapAutolinks('<http://'.repeat(25_000))).toBe('<http://'.repeat(25_000));
  });

  it('100,000 tag openings without a closing bracket', { timeout: 10_000 }, () => {
    expect(stripHtmlTags('<a'.repeat(100_000))).toBe('<a'.repeat(100_000));
  });

  it('200,000 spaces before a would-be table rule', { timeout: 10_000 }, () => {
    expect(isTableRule(`${' '.repeat(200_000)}--x`)).toBe(false);
  });
});
