import { Type, type Static } from '@sinclair/typebox';
import { rule } from '../schemas/rule.ts';
import { SEARCH_LIMITS, SearchRequest, SearchResponse } from '../schemas/search.ts';
import { ToolFailure } from './fetch-pages-schemas.ts';

/**
 * parallel_search's arguments and result. The options are POST /v1/search's own (the same
 * limits and messages), each applied to every query; basic depth only, since advanced reads
 * every result's page (seconds, two units) and its page text could not fit the shared bound.
 */
export const PARALLEL_SEARCH_LIMITS = { queries: { min: 2, max: 5 } } as const;

const P = SearchRequest.properties;

export const ParallelSearchArguments = Type.Object(
  {
    queries: Type.Array(P.query, {
      minItems: PARALLEL_SEARCH_LIMITS.queries.min,
      maxItems: PARALLEL_SEARCH_LIMITS.queries.max,
      uniqueItems: true,
      ...rule(
        `must be a list of ${PARALLEL_SEARCH_LIMITS.queries.min} to ${PARALLEL_SEARCH_LIMITS.queries.max} different queries, each 1 to ${SEARCH_LIMITS.queryMax} characters`,
      ),
    }),
    max_results: P.max_results,
    include_domains: P.include_domains,
    exclude_domains: P.exclude_domains,
    freshness: P.freshness,
    country: P.country,
  },
  { title: 'ParallelSearchArguments', additionalProperties: false },
);
export type ParallelSearchArguments = Static<typeof ParallelSearchArguments>;

export const SearchDone = Type.Object(
  {
    query: Type.String(),
    ok: Type.Literal(true),
    response: SearchResponse,
  },
  { additionalProperties: false },
);
export type SearchDone = Static<typeof SearchDone>;

export const SearchFailed = Type.Object(
  { query: Type.String(), ok: Type.Literal(false), error: ToolFailure },
  { additionalProperties: false },
);
export type SearchFailed = Static<typeof SearchFailed>;

export const ParallelSearchResult = Type.Object(
  {
    searches: Type.Array(Type.Union([SearchDone, SearchFailed]), {
      description: 'One outcome per query, in the order of queries: the /v1/search body, or the error.',
    }),
  },
  { title: 'ParallelSearchResult', additionalProperties: false },
);
export type ParallelSearchResult = Static<typeof ParallelSearchResult>;
