/**
 * Ranking quality as BEIR scores it (SciFact among its sets): nDCG@k with graded relevance
 * and a log2 discount (gain = the qrels' grade, position i counted as 1/log2(i + 1) from 1),
 * over the ideal ordering of every judged document; recall@k, the share of a query's relevant
 * documents in its first k. Queries are averaged, each alike.
 */

/** A query's judged documents and their grades (above 0 is relevant). */
export type Judgements = ReadonlyMap<string, number>;

/** `qrels-train.tsv` (query-id, corpus-id, score, a header line first) as judgements by query. */
export function parseQrels(tsv: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of tsv.split(/\r?\n/).slice(1)) {
    const [query, doc, score] = line.split('\t');
    if (query === undefined || doc === undefined || score === undefined || query === '') continue;
    const grades = out.get(query) ?? new Map<string, number>();
    grades.set(doc, Number(score));
    out.set(query, grades);
  }
  return out;
}

const discount = (position: number): number => 1 / Math.log2(position + 2);

/** nDCG@k of `ranked` (document ids, best first); 0 for a query without a relevant document. */
export function ndcgAt(k: number, ranked: readonly string[], judged: Judgements): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((doc, i) => {
    dcg += (judged.get(doc) ?? 0) * discount(i);
  });
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g * discount(i), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Share of the relevant documents among the first k of `ranked`. */
export function recallAt(k: number, ranked: readonly string[], judged: Judgements): number {
  const relevant = [...judged].filter(([, g]) => g > 0).map(([doc]) => doc);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((doc) => top.has(doc)).length / relevant.length;
}

/** Share of the first k of `a` that are among the first k of `b` (order aside). */
export function topOverlap(k: number, a: readonly string[], b: readonly string[]): number {
  const top = new Set(b.slice(0, k));
  const mine = a.slice(0, k);
  if (mine.length === 0 && top.size === 0) return 1;
  return mine.filter((doc) => top.has(doc)).length / Math.max(mine.length, top.size);
}
