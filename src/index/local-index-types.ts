/** The public shapes of the local index (src/index/local-index.ts re-exports them). */

export interface LocalSearch {
  /** The user's text as typed; any 1..400 characters. */
  query: string;
  limit: number;
  /** Normalised domains (see src/domain/domains.ts); each matches itself and its subdomains. */
  includeDomains: string[];
  excludeDomains: string[];
  /** Inclusive YYYY-MM-DD bounds on the UTC day of published_date. */
  startDate?: string;
  endDate?: string;
  /** ISO 3166-1 alpha-2; documents without a country pass. */
  country?: string;
  offset?: number;
  /** Also return the stored full text (`text`), for the advanced depth. */
  withText?: boolean;
}

export interface LocalHit {
  url: string;
  title: string;
  /** Snippet of the content showing the query terms in context, plain text, ≤ 300 chars. */
  content: string;
  /** Stored full text, when LocalSearch.withText. */
  text?: string;
  /** ISO 8601: YYYY-MM-DD, or a UTC date-time YYYY-MM-DDTHH:MM:SSZ. */
  publishedDate?: string;
  /** Host without `www.`. */
  domain: string;
  /** Higher is better; BM25 plus the proximity bonus. Comparable within one search only. */
  score: number;
}

export interface LocalIndexOptions {
  /**
   * Searches ranked by FTS5 remembered per (query terms, filters, page); 0 turns the cache
   * off. Default 1000 (and at most 32 Mi characters). Any write, by this or another
   * connection, makes the remembered answers stale at once. Searches ranked in memory are
   * not cached (they cost about what a cache look-up does).
   */
  cacheSize?: number;
  /** Weight of the adjacent-terms phrase score added to BM25; 0 turns it off. Default 0.25. */
  proximityWeight?: number;
  /** How many BM25 leaders the proximity bonus may reorder. Default 100. */
  rerankWindow?: number;
  /**
   * Bytes the in-memory ranker (src/index/ranker/) may hold: its compact postings take about
   * the text's size (bench:index); past the budget, sealed posting blocks move to a spill file and
   * are read from disk, with the same answers. 0 turns the ranker off (FTS5's bm25() ranks
   * alone). Default DEFAULT_RANKER_BUDGET_BYTES.
   */
  memoryBudgetBytes?: number;
  /** Where the ranker's spill file goes. Default: the OS temporary directory. */
  spillDir?: string;
  /** Told when the in-memory ranker finishes a build (`ready`). */
  onRankerChange?: (status: { state: string; documents: number; ms?: number }) => void;
}
