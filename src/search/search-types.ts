/** Scout's own terms for a search, after validation and normalisation of the wire request. */
export type Freshness = 'day' | 'week' | 'month' | 'year';
export type SearchDepth = 'basic' | 'advanced';

export interface SearchQuery {
  /** The user's text, 1..400 characters, untouched. */
  query: string;
  /** Organic results wanted, 1..20. */
  maxResults: number;
  /** Normalised registrable names or hosts (lower case, punycode, no scheme/path/www). */
  includeDomains: string[];
  excludeDomains: string[];
  freshness?: Freshness;
  /** Inclusive YYYY-MM-DD bounds, already resolved: explicit dates win over freshness. */
  startDate?: string;
  endDate?: string;
  depth: SearchDepth;
  maxContentTokens?: number;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
}

/** One result as a provider hands it over, before Scout numbers, dedupes and filters. */
export interface ProviderResult {
  title: string;
  url: string;
  /** Snippet text shown as `content`. */
  content: string;
  /** ISO 8601 when known. */
  publishedDate?: string;
  favicon?: string;
  extraSnippets?: string[];
  rawContent?: string;
  /** Provider's own score when it gives one (higher is better); informational. */
  score?: number;
}
