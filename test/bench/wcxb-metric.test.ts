import { describe, expect, it } from 'vitest';
import {
  scoreWcxbPage,
  snippetRate,
  summarise,
  summariseByType,
  type WcxbPageScore,
  wordF1,
  words,
} from '../../bench/wcxb-metric.ts';

describe("WCXB's words", () => {
  it('lower-cases runs of letters, digits, marks and underscores', () => {
    expect(words('Héllo, WÖRLD_1 — 42! ½ snake_case')).toEqual(['héllo', 'wörld_1', '42', '½', 'snake_case']);
  });

  it('keeps combining marks inside a word, where an ASCII \\w would cut it', () => {
    // "naïve" with a combining diaeresis (U+0308), and Hindi with its vowel signs (Mc, Mn).
    expect(words('nai\u0308ve हिन्दी')).toEqual(['nai\u0308ve', 'हिन्दी']);
  });

  it('has no words in punctuation, symbols or white space', () => {
    expect(words(' — … | # * - \n')).toEqual([]);
  });
});

describe("WCXB's word F1", () => {
  it('compares bags of words: overlap is the sum of the smaller counts', () => {
    // Reference: the×2 cat sat on mat (6 words); prediction: the×2 cat dog (4 words).
    // Overlap: min(2, 2) + min(1, 1) = 3; P = 3/4, R = 3/6, F1 = 2·0.75·0.5 / 1.25 = 0.6.
    const s = wordF1('The cat sat on the mat.', 'the CAT, the dog');
    expect(s.precision).toBeCloseTo(0.75);
    expect(s.recall).toBeCloseTo(0.5);
    expect(s.f1).toBeCloseTo(0.6);
  });

  it('ignores order and case, not repetition', () => {
    expect(wordF1('École a b', 'b a école').f1).toBe(1);
    // Reference a×1, prediction a×3: overlap 1, P = 1/3, R = 1, F1 = 0.5.
    expect(wordF1('a', 'a a a')).toEqual({ precision: 1 / 3, recall: 1, f1: 0.5 });
  });

  it('counts an underscore as part of a word', () => {
    // snake_case is one word, not snake and case: no overlap with "snake case".
    expect(wordF1('snake_case', 'snake case').f1).toBe(0);
  });

  it('scores the empty cases as the benchmark does', () => {
    expect(wordF1('', '')).toEqual({ precision: 1, recall: 1, f1: 1 });
    // No words on either side is empty too, whatever punctuation there is.
    expect(wordF1('— …', '| |')).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(wordF1('', 'extra words')).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(wordF1('the text', '')).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
});

describe("WCXB's snippet rates", () => {
  it('finds snippets case-insensitively as substrings, white space runs as one space', () => {
    const text = 'Hello  World\n\n- First item\nfoo bar';
    expect(snippetRate(text, ['hello world', 'FOO', 'first item foo', 'missing'])).toBe(3 / 4);
  });

  it('scores a page with no snippets of a kind 1, as evaluate.py does', () => {
    expect(snippetRate('anything', [])).toBe(1);
  });

  it('does not equate typographic and straight quotes (nor does the benchmark)', () => {
    expect(snippetRate('it’s here', ["it's here"])).toBe(0);
  });
});

describe('a WCXB page score', () => {
  it('scores markdown as plain text: link targets, escapes and emphasis gone', () => {
    const s = scoreWcxbPage(
      {
        pageType: 'documentation',
        reference: 'Install\nThe snake_case package, quickly.',
        with: ['the snake_case package, quickly', 'Not there'],
        without: ['x.example', 'Install'],
      },
      '# Install\n\nThe [snake\\_case](https://x.example/a_b) *package*, _quickly_.',
    );
    expect(s).toEqual({
      pageType: 'documentation',
      precision: 1,
      recall: 1,
      f1: 1,
      withRate: 0.5,
      withoutRate: 0.5,
      empty: false,
    });
  });

  it('marks an extraction without words as empty', () => {
    const truth = { pageType: 'forum', reference: 'a post', with: [], without: [] };
    expect(scoreWcxbPage(truth, '![only an image](https://x.example/i.png)\n\n---').empty).toBe(true);
    expect(scoreWcxbPage(truth, '').f1).toBe(0);
  });
});

const page = (pageType: string, f1: number, empty = false): WcxbPageScore => ({
  pageType,
  precision: f1,
  recall: f1,
  f1,
  withRate: f1,
  withoutRate: 1 - f1,
  empty,
});

describe('WCXB summaries', () => {
  it('take the mean of per-page figures, not the F1 of means', () => {
    const s = summarise([page('article', 1), page('article', 0, true), page('article', 0.5)]);
    expect(s).toEqual({
      pages: 3,
      f1: 0.5,
      precision: 0.5,
      recall: 0.5,
      withRate: 0.5,
      withoutRate: 0.5,
      empty: 1,
    });
  });

  it('give all, the seven types in the benchmark order (even with no pages), then others', () => {
    const rows = summariseByType([page('service', 1), page('forum', 0, true), page('recipe', 0.5)]);
    expect(rows.map(([t, s]) => [t, s.pages, s.f1, s.empty])).toEqual([
      ['all', 3, 0.5, 1],
      ['article', 0, 0, 0],
      ['forum', 1, 0, 1],
      ['product', 0, 0, 0],
      ['collection', 0, 0, 0],
      ['listing', 0, 0, 0],
      ['documentation', 0, 0, 0],
      ['service', 1, 1, 0],
      ['recipe', 1, 0.5, 0],
    ]);
  });
});
