import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../domain/errors.ts';
import { createValidator } from '../schemas/body-validator.ts';
import { SEARCH_LIMITS } from '../schemas/search.ts';
import { boundSearches, type SearchOutcome } from './bound-searches.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { PARALLEL_SEARCH_LIMITS, ParallelSearchArguments, ParallelSearchResult } from './parallel-search-schemas.ts';
import { measuredResult } from './rendered-result.ts';
import {
  NULL_IS_ABSENT,
  READ_ONLY,
  readerOf,
  readOn,
  type SearchScope,
  SPONSORED_SENTENCE,
} from './tool-definitions.ts';
import { nullableOptionals } from './tool-arguments.ts';
import { defineTool } from './tool-spec.ts';
import { SEARCH_OPTION_TEXT, WEB_SEARCH } from './web-search-tool.ts';

export const PARALLEL_SEARCH = 'parallel_search';

const Q = PARALLEL_SEARCH_LIMITS.queries;

export const parallelSearchInput = nullableOptionals(
  describedSchema(
    ParallelSearchArguments,
    `Arguments of parallel_search. Only queries is required; every other argument applies to each query. ${NULL_IS_ABSENT}`,
    {
      queries: `${Q.min} to ${Q.max} different searches to run at once, each 1 to ${SEARCH_LIMITS.queryMax} characters: keywords or a plain question. Put site and date limits in include_domains or freshness rather than in the queries.`,
      max_results: `How many organic results to return for each query, ${SEARCH_LIMITS.maxResults.min} to ${SEARCH_LIMITS.maxResults.max} (default ${SEARCH_LIMITS.maxResults.default}). Ask for fewer to get a shorter answer.`,
      include_domains: SEARCH_OPTION_TEXT.include_domains,
      exclude_domains: SEARCH_OPTION_TEXT.exclude_domains,
      freshness: 'Only results published within the last day, week, month or year: use it for news and recent events.',
      country: SEARCH_OPTION_TEXT.country,
    },
  ),
);
export const parallelSearchOutput = jsonSchemaOf(ParallelSearchResult);

const RUN_WHAT: Record<SearchScope, string> = {
  web: `Run ${Q.min} to ${Q.max} web searches at once.`,
  local: `Run ${Q.min} to ${Q.max} searches of this server's own index at once (no web search provider is configured: results come only from the documents indexed on this server, not from the web).`,
};

const parallelArgs = createValidator<ParallelSearchArguments>(ParallelSearchArguments, 'arguments');

/**
 * parallel_search (Jina's parallel_search_web, Exa's several queries): 2 to 5 searches through
 * the same search service as web_search, at basic depth, the options applied to each, answered
 * grouped per query in their order (bound-searches.ts). Charged one request per query against
 * the rate limit, all before any runs, and one search unit per query against the budget, as
 * that many POST /v1/search would be.
 */
export const parallelSearchTool = defineTool<ParallelSearchArguments>({
  name: PARALLEL_SEARCH,
  role: 'search',
  definition: (setting): Tool => ({
    name: PARALLEL_SEARCH,
    title: 'Parallel search',
    description: [
      RUN_WHAT[setting.scope],
      `Use it to cover several phrasings or parts of a question in one call${setting.offered.has(WEB_SEARCH) ? ' instead of one web_search call each' : ''}.`,
      'Returns the results grouped per query, in the order given, each group numbered with title, URL, source domain, publication date and snippet; a failed query does not fail the others.',
      'The groups share one fixed result size, so the more queries, the shorter each group.',
      `Each query counts as one request against the rate limit and one search unit against the search budget (${Q.max} queries: ${Q.max} of each).`,
      `Use it to find pages and facts${readOn(readerOf(setting))}`,
      SPONSORED_SENTENCE,
    ].join(' '),
    inputSchema: parallelSearchInput as Tool['inputSchema'],
    outputSchema: parallelSearchOutput as Tool['outputSchema'],
    annotations: { title: 'Parallel search', ...READ_ONLY },
  }),
  parse: parallelArgs,
  cost: (args) => args.queries.length,
  async run(args, { backend, caller, setting, onUnexpected }) {
    const { queries, ...options } = args;
    const outcomes = await Promise.all(
      queries.map(async (query): Promise<SearchOutcome> => {
        try {
          return { query, response: await backend.search({ query, ...options }, caller) };
        } catch (error) {
          if (!isDomainError(error)) onUnexpected(error);
          return { query, error };
        }
      }),
    );
    const { body, text, json } = boundSearches(outcomes, setting.maxResultTokens, readerOf(setting));
    return measuredResult(text, body, json);
  },
});
