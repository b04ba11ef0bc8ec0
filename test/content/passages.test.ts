import { describe, expect, it } from 'vitest';
import { bestPassages, PASSAGE_MAX_CHARS, splitPassages } from '../../src/content/passages.ts';
import { queryTerms, stem, terms } from '../../src/content/text-terms.ts';

const filler = (i: number): string =>
  `Paragraph ${i} talks about weather, trains and the price of bread in a long and winding way that goes on for a while. ` +
  `It continues with more ordinary words so that each paragraph is long enough to stand alone as a passage of its own.`;

describe('terms', () => {
  it('folds case and accents and stems plurals and -ing/-ed forms alike', () => {
    expect(terms('Café NAÏVE')).toEqual(['cafe', 'naive']);
    expect(stem('libraries')).toBe(stem('library'));
    expect(stem('boxes')).toBe(stem('box'));
    expect(stem('caching')).toBe(stem('cached'));
    expect(stem('glass')).toBe('glass');
  });

  it('splits scripts written without spaces into bigrams', () => {
    expect(terms('東京都')).toEqual(['東京', '京都']);
  });

  it('drops stop words from queries unless nothing else is left', () => {
    expect(queryTerms('what does the Rust borrow checker do')).toEqual(['rust', 'borrow', 'checker']);
    expect(queryTerms('to be or not to be')).toEqual(['to', 'be', 'or', 'not']);
    expect(queryTerms('🙂 !!')).toEqual([]);
  });
});

describe('splitPassages', () => {
  it('packs short blocks and splits long ones into passages of at most 500 characters, in page order', () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence ${i} of a very long paragraph keeps going.`).join(' ');
    const md = ['# Title', 'Short intro.', filler(1), filler(2), long, '- item one\n- item two', filler(3)].join(
      '\n\n',
    );
    const passages = splitPassages(md);
    expect(passages.every((p) => p.length <= PASSAGE_MAX_CHARS && p.length > 0)).toBe(true);
    expect(passages[0]?.startsWith('Title Short intro. Paragraph 1')).toBe(true);
    expect(passages.join(' ')).toContain('Sentence 29 of a very long paragraph keeps going.');
    const order = ['Paragraph 1', 'Paragraph 2', 'Sentence 0', 'Sentence 29', 'item one; item two', 'Paragraph 3'].map(
      (s) => passages.findIndex((p) => p.includes(s)),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i >= 0)).toBe(true);
    // Most passages are at least 200 characters (only page ends and headings cut them short).
    expect(passages.filter((p) => p.length >= 200).length).toBeGreaterThanOrEqual(passages.length - 2);
  });

  it('shows snippet text without markdown syntax', () => {
    const [p] = splitPassages(
      '## Head\n\nA [linked **word**](https://x.test/a_b) and ![img](i.png) with `code` and *em*.',
    );
    expect(p).toBe('Head A linked word and with code and em.');
  });
});

describe('bestPassages', () => {
  const page = [
    filler(1),
    'The borrow checker in Rust enforces ownership rules at compile time, which prevents data races.',
    filler(2),
    filler(3),
    'Lifetimes tell the borrow checker how long references are valid in Rust programs.',
    filler(4),
    'Borrowing rules apply to mutable references too.',
    filler(5),
  ].join('\n\n');

  it('picks up to three passages that contain the query terms, in page order', () => {
    const passages = bestPassages(page, 'rust borrow checker', 3);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(3);
    for (const p of passages) expect(p.toLowerCase()).toMatch(/rust|borrow|checker/);
    const positions = passages.map((p) => page.indexOf(p.slice(0, 40)));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(passages.some((p) => p.includes('compile time'))).toBe(true);
  });

  it('matches across accents and inflections', () => {
    const md = [filler(1), 'Le café servait des crêpes délicieuses chaque matin.', filler(2)].join('\n\n');
    const [p] = bestPassages(md, 'CAFE crepe');
    expect(p).toContain('café servait des crêpes');
  });

  it('returns nothing when no passage matches', () => {
    expect(bestPassages(page, 'zeppelin')).toEqual([]);
    expect(bestPassages(page, '🙂')).toEqual([]);
    expect(bestPassages('', 'rust')).toEqual([]);
  });
});

// Blocks that made the old snippet text rules retry from every start (many seconds each).
describe('bestPassages on hostile pages', () => {
  it('scores a page of huge backtick, bold-marker, table-rule and list blocks', { timeout: 10_000 }, () => {
    const page = [
      'The rust borrow checker, first paragraph.',
      `x${'`'.repeat(200_000)}a`,
      '**rust '.repeat(50_000),
      `rust\n${' '.repeat(200_000)}--x`,
      Array.from({ length: 100_000 }, () => '- a').join('\n'),
      'The rust borrow checker, last paragraph.',
    ].join('\n\n');
    const passages = bestPassages(page, 'rust borrow checker');
    expect(passages).toContain('The rust borrow checker, first paragraph.');
    expect(passages).toContain('The rust borrow checker, last paragraph.');
  });
});
