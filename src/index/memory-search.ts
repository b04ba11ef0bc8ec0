import { buildFtsQuery } from './fts-query.ts';
import type { LocalHit, LocalSearch } from './local-index-types.ts';
import { normalizeFilters, type Filters } from './search-filters.ts';
import { makeSnippet, snippetMatcher } from './snippet.ts';
import type { MemoryRanker, Ranked } from './ranker/memory-ranker.ts';

/**
 * What every local index does with a search before and after ranking: the query's words,
 * filters and page (planSearch), and the hits of a page ranked in memory (searchInMemory).
 * The embedded index (local-index.ts) and the one following a shared store
 * (follower-index.ts) share it, so they answer alike for the same documents.
 */

/** Largest limit and offset of a local search. */
export const MAX_PAGE = 1000;

export interface SearchPlan {
  /** Distinct query words, stop words dropped (fts-query.ts). */
  terms: string[];
  /** Adjacent-word spans for the proximity bonus. */
  spans: string[];
  /** The same as FTS5 MATCH expressions (the SQL path's). */
  match: string;
  phrases: string | undefined;
  filters: Filters;
  limit: number;
  offset: number;
  withText: boolean;
}

export interface RankWeights {
  proximityWeight: number;
  rerankWindow: number;
}

export const clamp = (n: number, min: number, max: number): number =>
  Number.isFinite(n) ? Math.min(max, Math.max(min, Math.trunc(n))) : min;

/** The search in canonical form; undefined when its text has no word (it finds nothing). */
export function planSearch(q: LocalSearch): SearchPlan | undefined {
  const fts = buildFtsQuery(q.query);
  if (fts.match === undefined) return undefined;
  return {
    terms: fts.terms,
    spans: fts.spans,
    match: fts.match,
    phrases: fts.phrases,
    filters: normalizeFilters(q),
    limit: clamp(q.limit, 1, MAX_PAGE),
    offset: clamp(q.offset ?? 0, 0, MAX_PAGE),
    withText: q.withText === true,
  };
}

/**
 * The ranked documents of the search's page, best first. Undefined when the ranker cannot
 * rank this query (see MemoryRanker.rank).
 */
export function rankInMemory(ranker: MemoryRanker, plan: SearchPlan, weights: RankWeights): Ranked[] | undefined {
  const ranked = ranker.rank({
    terms: plan.terms,
    spans: plan.spans,
    filters: plan.filters,
    wanted: plan.offset + plan.limit,
    proximityWeight: weights.proximityWeight,
    rerankWindow: weights.rerankWindow,
  });
  return ranked?.slice(plan.offset, plan.offset + plan.limit);
}

/**
 * The page of hits ranked by a ranker that keeps texts (a follower's): fields and text
 * come from it, the snippet as the SQL path makes it. Undefined when the ranker cannot
 * rank this query.
 */
export function searchInMemory(ranker: MemoryRanker, plan: SearchPlan, weights: RankWeights): LocalHit[] | undefined {
  const page = rankInMemory(ranker, plan, weights);
  if (page === undefined) return undefined;
  const matcher = snippetMatcher(plan.terms);
  return ranker.page(page).map((row) => toHit(row, row.score, makeSnippet(row.content, matcher), plan.withText));
}

/** A frozen hit (hits may be shared with a result cache). */
export function toHit(
  row: { url: string; title: string; domain: string; publishedDate: string | null; content: string },
  score: number,
  snippet: string,
  withText: boolean,
): LocalHit {
  const hit: LocalHit = { url: row.url, title: row.title, content: snippet, domain: row.domain, score };
  if (row.publishedDate !== null) hit.publishedDate = row.publishedDate;
  if (withText) hit.text = row.content;
  return Object.freeze(hit);
}
