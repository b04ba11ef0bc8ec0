import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Fts5Oracle, tokenize } from '../../../src/index/ranker/tokenize.ts';
import { FTS5_TOKENIZER } from '../../../src/index/schema.ts';
import { corpusLines } from '../../../bench/make-corpus.ts';
import { defined } from '../../helpers/defined.ts';

/** FTS5's own tokens of each text, in offset order (fts5vocab 'instance'). */
function fts5Tokens(texts: string[]): string[][] {
  const db = new Database(':memory:');
  db.exec(
    `CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${FTS5_TOKENIZER}'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`,
  );
  const insert = db.prepare('INSERT INTO t(rowid, x) VALUES (?, ?)');
  for (const [i, x] of texts.entries()) insert.run(i + 1, x);
  const out = texts.map((): string[] => []);
  for (const r of db.prepare('SELECT term, doc, offset FROM v').all() as {
    term: string;
    doc: number;
    offset: number;
  }[]) {
    defined(out[r.doc - 1], `text ${r.doc}`)[r.offset] = r.term;
  }
  db.close();
  return out;
}

const SAMPLES = [
  'The running runners ran; caresses, ponies, ties, cats. Generalization relational conditional!',
  'Hopping hoped hopeful hopefulness electrical electricity formalize sensitivity analogously.',
  'skyyed yyying boyyed toy-yard yes yesterday YELLOW Yield',
  'café cafe\u0301 naïve NAÏVE Straße ﬁre İstanbul ǅemal Œuvre Ærø ǿ ϕ ӯ',
  'x² ① ½ 4\u20e32 abc_def o’neil “quoted” — dash – en-dash …',
  '東京タワー ไทย العربية Ελληνικά русский текст 한국어',
  'emoji😀word 👍🏽 thumbs \u200bzero\u200bwidth soft\u00adhyphen nbsp\u00a0space',
  `${'a'.repeat(63)} ${'b'.repeat(64)} ${'c'.repeat(65)}ing ${'d'.repeat(70)}`,
  'unassigned \u0378x \ufff2y \u{41ee7}z and private \ue000use',
  'Version 2.0.1, IPv6 ::1, HTTP/1.1 404s, 3rd 21st C++ C# .NET node.js',
];

describe('tokenize (the in-memory ranker reproduces FTS5 porter unicode61 remove_diacritics 2)', () => {
  it('makes the same tokens, in the same positions, as FTS5 on hand-picked edge cases', () => {
    const fts = fts5Tokens(SAMPLES);
    for (const [i, text] of SAMPLES.entries()) expect(tokenize(text), text).toEqual(fts[i]);
  });

  it('makes the same tokens as FTS5 on a generated corpus (stems, stop words, numbers)', () => {
    const texts = [...corpusLines({ docs: 150, seed: 3 })].map((l) => {
      const d = JSON.parse(l) as { title: string; content: string };
      return `${d.title}\n${d.content}`;
    });
    const fts = fts5Tokens(texts);
    for (const [i, text] of texts.entries()) expect(tokenize(text)).toEqual(fts[i]);
  });

  it('answers a repeated non-ASCII run from memory, with the same tokens', () => {
    const text = 'naïve café naïve café';
    expect(tokenize(text)).toEqual(tokenize(text));
    expect(tokenize(text)).toEqual(['naiv', 'cafe', 'naiv', 'cafe']);
  });
});

describe('Fts5Oracle (the runs only FTS5 tokenizes)', () => {
  it('keeps the runs it knew when its memory fills up in the middle of a batch', () => {
    // Room for two runs: the second batch knows one and brings two more, so the memory is
    // cleared while that batch is answered; the known run must still be answered.
    const small = new Fts5Oracle(2);
    const fresh = new Fts5Oracle();
    expect(small.terms(['Éclair', 'naïve'])).toEqual(fresh.terms(['Éclair', 'naïve']));
    const batch = ['naïve', 'Ångström', 'café', 'naïve'];
    expect(small.terms(batch)).toEqual(fresh.terms(batch));
    expect(small.terms(batch)).toEqual([['naiv'], ['angstrom'], ['cafe'], ['naiv']]);
  });
});
