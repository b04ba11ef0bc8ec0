/**
 * The shapes MemoryRanker takes and gives (memory-ranker.ts re-exports them); the document it
 * takes is the document store's RankerDocument (store/index-rows.ts).
 */
import type { Filters } from '../search-filters.ts';

export interface RankQuery {
  /** Distinct query words, stop words dropped (fts-query.ts). */
  terms: readonly string[];
  /** Adjacent-word spans for the proximity bonus ("bank of america"). */
  spans: readonly string[];
  filters: Filters;
  /** How many the caller shows (offset + limit). */
  wanted: number;
  proximityWeight: number;
  rerankWindow: number;
}

export interface Ranked {
  id: number;
  score: number;
  /** The ranker's slot of the document (internal; saves a look-up per candidate). */
  slot?: number;
}

/** What a result shows of a ranked document (a ranker that keeps texts gives it). */
export interface RankerHit {
  score: number;
  url: string;
  title: string;
  domain: string;
  publishedDate: string | null;
  content: string;
}
