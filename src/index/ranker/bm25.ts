/**
 * FTS5's bm25() (sqlite/ext/fts5/fts5_aux.c), term for term, so the in-memory ranker's
 * scores equal the SQL path's. Each phrase of the query adds
 *   idf × (f × (k1 + 1)) / (f + k1 × (1 − b + b × D / avgdl))
 * where f is the phrase's column-weighted count in the row, D the row's tokens over all
 * columns and avgdl the mean of D; the IDF of a phrase found in half the rows or more is
 * floored to 1e-6 (its log would be ≤ 0). The operations keep fts5_aux.c's order so the
 * doubles agree to the last bits (up to Math.log vs libm's log).
 */
export const K1 = 1.2;
export const B = 0.75;
export const K1_PLUS_1 = K1 + 1.0;

/** FTS5's IDF of a phrase found in `hits` of `rows` rows. */
export function idf(rows: number, hits: number): number {
  const v = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return v <= 0.0 ? 1e-6 : v;
}

/** The length part of the denominator for a row of `tokens` tokens. */
export const lengthNorm = (tokens: number, avgdl: number): number => K1 * (1 - B + (B * tokens) / avgdl);

/** One phrase's addition to a row's score. */
export const contribution = (phraseIdf: number, freq: number, norm: number): number =>
  phraseIdf * ((freq * K1_PLUS_1) / (freq + norm));
