import { describe, expect, it } from 'vitest';
import { scorePage, scoreSet, stripMarkdown, tokenize } from '../../bench/extract-metric.ts';

describe('extraction metric', () => {
  it('tokenises runs of letters, digits and underscore', () => {
    expect(tokenize('Héllo, wörld_1 — 42!')).toEqual(['Héllo', 'wörld_1', '42']);
  });

  it('strips markdown syntax: images, link targets, emphasis underscores, escapes', () => {
    const md =
      '## Title\n\n![alt text](https://x/img.png) See [the *docs*](https://x/a_b) and _this_ snake_case \\_x\\_';
    expect(tokenize(stripMarkdown(md))).toEqual(['Title', 'See', 'the', 'docs', 'and', 'this', 'snake_case', 'x']);
  });

  it('scores identical text as exact with no fp or fn', () => {
    const s = scorePage('one two three four five', '**one** two three four five');
    expect(s).toEqual({ tp: 1, fp: 0, fn: 0, exact: true });
  });

  it('normalises tp/fp/fn per page and counts multiset overlap', () => {
    // truth shingles: a b c d, b c d e; prediction adds x y z w after.
    const s = scorePage('a b c d e', 'a b c d e x');
    expect(s.tp + s.fp + s.fn).toBeCloseTo(1);
    expect(s.fn).toBe(0);
    expect(s.tp / (s.tp + s.fp)).toBeCloseTo(2 / 3);
    expect(s.exact).toBe(false);
  });

  it('uses one shorter shingle for texts of 1-3 tokens and none for empty text', () => {
    expect(scorePage('short text', 'short text').tp).toBe(1);
    expect(scorePage('', '')).toEqual({ tp: 0, fp: 0, fn: 0, exact: true });
  });

  it('takes F1 of the mean precision and mean recall, skipping undefined pages', () => {
    const pages = [
      { tp: 0.5, fp: 0.5, fn: 0, exact: false }, // P 0.5, R 1
      { tp: 1, fp: 0, fn: 0, exact: true }, // P 1, R 1
      { tp: 0, fp: 0, fn: 1, exact: false }, // no precision, R 0
    ];
    const s = scoreSet(pages);
    expect(s.precision).toBeCloseTo(0.75);
    expect(s.recall).toBeCloseTo(2 / 3);
    expect(s.f1).toBeCloseTo((2 * 0.75 * (2 / 3)) / (0.75 + 2 / 3));
    expect(s.accuracy).toBeCloseTo(1 / 3);
  });
});

describe('markdown stripping edge cases', () => {
  it('handles escaped brackets in link text and parens in targets', () => {
    const md = '[Deltas \\[part 1\\]](https://x.example/a_(b)) and ![img \\[x\\]](https://x/i\\(1\\).png)';
    expect(tokenize(stripMarkdown(md))).toEqual(['Deltas', 'part', '1', 'and']);
  });
});
