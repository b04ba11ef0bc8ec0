import { describe, expect, it } from 'vitest';
import { buildFtsQuery } from '../../src/index/fts-query.ts';
import { doc, search, useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();

/** Strings that break a naive `MATCH ?` with the user's text, or a naive tokenizer. */
const HOSTILE = [
  '"',
  '""',
  '"unbalanced quote',
  "it's o'reilly's",
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'cats AND',
  'OR dogs',
  'NOT cats',
  'NEAR(cats dogs, 2)',
  'NEAR/3',
  'cat*',
  '*',
  '-',
  '-cats',
  '^cats',
  'title:cats',
  'content:',
  ':',
  '(cats OR dogs',
  ')',
  '()',
  '{title content}: cats',
  '+cats +dogs',
  'cats | dogs & birds',
  '\\',
  "'; DROP TABLE documents; --",
  '%_%',
  '🙂🙂🙂',
  '👩‍👩‍👧‍👦 family',
  'ℌ𝔢𝔩𝔩𝔬 𝕨𝕠𝕣𝕝𝕕',
  '東京 の 天気',
  'مرحبا بالعالم',
  'e\u0301te\u0301',
  '\u0000\u0001\u0002',
  '\u200b\u200d\ufeff',
  '\ud800 lone surrogate',
  '...',
  '?',
  'the of and a',
  '   ',
  'a'.repeat(400),
  'x '.repeat(200),
  '"a" "b" "c" '.repeat(33),
  'rank MATCH bm25',
  'documents_fts',
  'col1:col2:col3',
  '0x7f 1e10 -1 3.14',
];

describe('hostile queries', () => {
  it(`covers at least 30 strings`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE.map((q) => [JSON.stringify(q).slice(0, 40), q]))('%s never throws', (_, query) => {
    const index = t.open();
    index.upsert([doc(1, { content: 'cats and dogs, NEAR the title: "quoted" café 東京 🙂' }), doc(2)]);
    const hits = index.search(search(query));
    expect(Array.isArray(hits)).toBe(true);
    // With filters too: every statement shape must accept the expression.
    expect(() =>
      index.search(search(query, { includeDomains: ['example.com'], startDate: '2000-01-01', country: 'US' })),
    ).not.toThrow();
    if (buildFtsQuery(query).match === undefined) expect(hits).toEqual([]);
  });

  it('a seeded fuzz of 500 random strings never throws', () => {
    const index = t.open({ cacheSize: 0 });
    index.upsert([doc(1, { content: 'cats and dogs café 東京' })]);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = [
      '"',
      "'",
      '*',
      '-',
      '^',
      ':',
      '(',
      ')',
      '{',
      '}',
      ' ',
      'AND',
      'OR',
      'NOT',
      'NEAR',
      'cat',
      '\\',
      '\u0301',
      '🙂',
      '東',
    ];
    for (let i = 0; i < 500; i++) {
      let q = '';
      const len = 1 + rand(40);
      for (let k = 0; k < len; k++)
        q += rand(3) === 0 ? String.fromCodePoint(rand(0x2ffff)) : pieces[rand(pieces.length)];
      expect(() => index.search(search(q.slice(0, 400))), JSON.stringify(q)).not.toThrow();
    }
  });

  it('still finds what the words ask for', () => {
    const index = t.open();
    index.upsert([doc(1, { content: 'cats and dogs' }), doc(2, { content: 'nothing' })]);
    for (const q of ['cats AND', 'NOT cats', '"cats', '(cats OR dogs', 'title:cats', '-cats', 'cat*']) {
      expect(
        index.search(search(q)).map((h) => h.url),
        q,
      ).toEqual(['https://example.com/doc-1']);
    }
  });
});
