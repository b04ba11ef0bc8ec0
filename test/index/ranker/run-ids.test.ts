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

  it('gives the tokens tokenize() gives, in order, with each term one id (also a second time, from memory)', () => {
    const names: string[] = [];
    const known = new Map<string, number>();
    const runIds = new RunIds((term) => {
      let id = known.get(term);
      if (id === undefined) known.set(term, (id = names.push(term) - 1));
      return id;
    });
    const texts = [...unusual, ...[...corpusLines({ docs: 40, seed: 3 })].map((l) => JSON.parse(l).content as string)];
    for (let pass = 0; pass < 2; pass++) {
      for (const text of texts) expect(terms(runIds, names, text), text.slice(0, 60)).toEqual(tokenize(text));
    }
    expect(new Set(names).size).toBe(names.length);
  });
});
