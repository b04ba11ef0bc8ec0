import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createValidator } from '../schemas/body-validator.ts';
import { SEARCH_LIMITS, SearchRequest, SearchResponse } from '../schemas/search.ts';
import { boundSearch, searchRequestFor } from './bound-search.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { measuredResult } from './rendered-result.ts';
import { NULL_IS_ABSENT, READ_ONLY, readerOf, readOn, SEARCH_WHAT, SPONSORED_SENTENCE } from './tool-definitions.ts';
import { nullableOptionals } from './tool-arguments.ts';
import { defineTool } from './tool-spec.ts';

export const WEB_SEARCH = 'web_search';

const L = SEARCH_LIMITS;

/** What each search option means to a model (parallel_search describes the ones it shares the same way). */
export const SEARCH_OPTION_TEXT = {
  query: `What to search for, 1 to ${L.queryMax} characters: keywords or a plain question. Put site and date limits in include_domains, freshness or the dates rather than in the query.`,
  max_results: `How many organic results to return, ${L.maxResults.min} to ${L.maxResults.max} (default ${L.maxResults.default}). Ask for fewer to get a shorter answer.`,
  include_domains: `Only return results from these domains: one domain or a list of at most ${L.domainEntries}; each also matches its subdomains (e.g. ["python.org"] for the official docs).`,
  exclude_domains: `Never return results from these domains (one domain or a list of at most ${L.domainEntries}; subdomains included).`,
  freshness:
    'Only results published within the last day, week, month or year: use it for news and recent events. start_date and end_date override it.',
  start_date: 'Earliest publication date, YYYY-MM-DD (inclusive). Undated results are left out under any date filter.',
  end_date: 'Latest publication date, YYYY-MM-DD (inclusive).',
  search_depth:
    "basic (default): titles, URLs, snippets and dates; fast, 1 search unit. advanced: Scout also reads each result's page and adds its most relevant passages and page text; slower (seconds) and 2 search units. Use advanced when snippets will not answer the question (details, numbers, technical specifics), basic to find pages or for simple facts.",
  max_content_tokens: `Token budget, ${L.maxContentTokens.min} to ${L.maxContentTokens.max}, for the page text (advanced) or the snippets (basic) of all results together. Leave it out unless you need less text; the whole result is kept under a fixed size anyway.`,
  country:
    'Two-letter ISO 3166-1 country code (US, GB, DE, ...) to get results for that country. The United Kingdom is GB.',
};

export const webSearchInput = nullableOptionals(
  describedSchema(
    SearchRequest,
    `Arguments of web_search. Only query is required. ${NULL_IS_ABSENT}`,
    SEARCH_OPTION_TEXT,
  ),
);
export const webSearchOutput = jsonSchemaOf(SearchResponse);

// The HTTP API's validator and messages, with "arguments" where HTTP says "request body".
const searchArgs = createValidator<SearchRequest>(SearchRequest, 'arguments');

/** web_search: POST /v1/search, its answer bounded and rendered (bound-search.ts). */
export const webSearchTool = defineTool<SearchRequest>({
  name: WEB_SEARCH,
  role: 'search',
  definition: (setting): Tool => ({
    name: WEB_SEARCH,
    title: 'Web search',
    description: [
      `${SEARCH_WHAT[setting.scope]} Returns numbered results with title, URL, source domain, publication date and snippet (advanced depth: also the most relevant page text).`,
      `Use it to find pages and facts${readOn(readerOf(setting))}`,
      SPONSORED_SENTENCE,
    ].join(' '),
    inputSchema: webSearchInput as Tool['inputSchema'],
    outputSchema: webSearchOutput as Tool['outputSchema'],
    annotations: { title: 'Web search', ...READ_ONLY },
  }),
  parse: searchArgs,
  async run(args, { backend, caller, setting }) {
    const limit = setting.maxResultTokens;
    const req = searchRequestFor(args, limit);
    const { body, text, json } = boundSearch(await backend.search(req, caller), limit, readerOf(setting));
    return measuredResult(text, body, json);
  },
});
