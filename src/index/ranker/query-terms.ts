import { MAX_PHRASE_TOKENS } from './doc-vector.ts';
import type { RankQuery } from './ranker-types.ts';
import { tokenize } from './tokenize.ts';

/**
 * A query's words as a ranker's term ids (-1 for a token it has never seen; a word FTS5
 * splits is several), and its proximity spans as tokens (none when the bonus is off).
 * Undefined for a word or span of more than MAX_PHRASE_TOKENS tokens (no 400-character
 * query makes one): such a query is left to FTS5.
 */
export function queryTerms(
  q: RankQuery,
  termIds: ReadonlyMap<string, number>,
): { words: number[][]; spans: string[][] } | undefined {
  const words: number[][] = [];
  for (const word of q.terms) {
    const toks = tokenize(word);
    if (toks.length > MAX_PHRASE_TOKENS) return undefined;
    words.push(toks.map((t) => termIds.get(t) ?? -1));
  }
  const spans = q.proximityWeight > 0 ? q.spans.map((s) => tokenize(s)) : [];
  if (spans.some((s) => s.length > MAX_PHRASE_TOKENS)) return undefined;
  return { words, spans };
}
