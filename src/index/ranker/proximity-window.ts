import { at } from '../../domain/must.ts';
import { idf, K1_PLUS_1 } from './bm25.ts';
import type { Ranked } from './ranker-types.ts';

/**
 * How many of the BM25 leaders the proximity bonus must score: only the first `wanted` are
 * shown, so a candidate whose score plus the largest bonus any document could get stays
 * below the `wanted`-th score is left where it is, unscored (bonuses only raise scores, so
 * it could not reach the page). Each phrase adds less than IDF × (k1 + 1), and no IDF
 * passes that of a phrase in one document of `documents`.
 */
export function proximityWindow(
  ranked: readonly Ranked[],
  wanted: number,
  phrases: number,
  weight: number,
  documents: number,
): number {
  if (ranked.length <= wanted) return ranked.length;
  const maxBonus = weight * phrases * K1_PLUS_1 * idf(documents, 1) * (1 + 1e-9);
  const floor = at(ranked, wanted - 1, 'ranked result').score;
  const end = ranked.findIndex((r, i) => i >= wanted && !(r.score + maxBonus >= floor));
  return end < 0 ? ranked.length : end;
}
