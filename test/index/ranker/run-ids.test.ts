import { describe, expect, it } from 'vitest';
import { corpusLines } from '../../../bench/make-corpus.ts';
import { RunIds } from '../../../src/index/ranker/run-ids.ts';
import { tokenize } from '../../../src/index/ranker/tokenize.ts';
import { defined } from '../../helpers/defined.ts';

/** Term ids as RunIds gives them, turned back into terms. */
function terms(runIds: RunIds, names: string[], text: string): string[] {
  const ids: number[] = [];
  runIds.ids(text, ids);
  return ids.map((id) => defined(names[id], `the name of term ${id}`));
}

describe('RunIds (term ids of a text, run by run)', () => {
  const unusual = [
    'The running runners ran; caresses, ponies, ties, cats.',
    'skyyed yyying boyyed toy-yard yes yesterday YELLOW',
    'café cafe\u0301 naïve NAÏVE Straße ﬁre İstanbul ǅemal Œuvre',
    'a\u0305b bank\u0305of\u0305america \u19b0 x² ① ½ 東京タワー ไทย русский',
    'emoji😀word 👍🏽 \u200bzero\u200bwidth soft\u00adhyphen',
  ];

  // Remembering up to 200,000 runs (the default) keeps every run of these texts; remembering
  // 16 starts over many times and probes past taken slots of a small table at every size.
  it.each([
    ['runs remembered by default', undefined],
    ['at most 16 runs remembered', 16],
  ])(
    'gives the tokens tokenize() gives, in order, with each term one id (also a second time, from memory): %s',
    (_, maxRuns) => {
      const names: string[] = [];
      const known = new Map<string, number>();
      const runIds = new RunIds((term) => {
        let id = known.get(term);
        if (id === undefined) known.set(term, (id = names.push(term) - 1));
        return id;
      }, maxRuns);
      const texts = [
        ...unusual,
        ...[...corpusLines({ docs: 40, seed: 3 })].map((l) => JSON.parse(l).content as string),
      ];
      for (let pass = 0; pass < 2; pass++) {
        for (const text of texts) expect(terms(runIds, names, text), text.slice(0, 60)).toEqual(tokenize(text));
      }
      expect(new Set(names).size).toBe(names.length);
      expect(runIds.size).toBeLessThanOrEqual(maxRuns ?? 200_000);
      expect(runIds.size).toBeGreaterThan(maxRuns === undefined ? 1000 : 8);
    },
  );

  it('tells apart runs of the same length and hash, and runs that are prefixes of others', () => {
    const names: string[] = [];
    const runIds = new RunIds((term) => names.push(term) - 1, 4);
    // Same lengths, a table of a few slots: probes compare every character. xfnxnb and
    // ssgbbc (and kknxnb and btgbbc) have the same 32-bit FNV-1a hash: only the characters
    // tell them apart.
    const text = 'ab ba abc acb bac ab ba abc abcd abcde a b xfnxnb ssgbbc kknxnb btgbbc ssgbbc xfnxnb';
    expect(terms(runIds, names, text)).toEqual(tokenize(text));
    expect(terms(runIds, names, text)).toEqual(tokenize(text));
  });
});
