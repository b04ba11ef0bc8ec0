import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import { FetchResponse } from '../schemas/fetch.ts';
import { SEARCH_LIMITS, SearchRequest, SearchResponse } from '../schemas/search.ts';
import { FetchPageArguments } from './fetch-page-arguments.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { nullableOptionals } from './tool-arguments.ts';

/**
 * The two tools as tools/list shows them. Input schemas are the HTTP API's (src/schemas) with
 * descriptions written for a model, and null also allowed for each optional argument (as left
 * out, tool-arguments.ts); output schemas are the HTTP response bodies, which
 * structuredContent always matches.
 */

export const WEB_SEARCH = 'web_search';
export const FETCH_PAGE = 'fetch_page';

const L = SEARCH_LIMITS;

const NULL_IS_ABSENT = 'An optional argument given as null is the same as leaving it out.';

export const webSearchInput = nullableOptionals(
  describedSchema(SearchRequest, `Arguments of web_search. Only query is required. ${NULL_IS_ABSENT}`, {
    query: `What to search for, 1 to ${L.queryMax} characters: keywords or a plain question. Put site and date limits in include_domains, freshness or the dates rather than in the query.`,
    max_results: `How many organic results to return, ${L.maxResults.min} to ${L.maxResults.max} (default ${L.maxResults.default}). Ask for fewer to get a shorter answer.`,
    include_domains: `Only return results from these domains: one domain or a list of at most ${L.domainEntries}; each also matches its subdomains (e.g. ["python.org"] for the official docs).`,
    exclude_domains: `Never return results from these domains (one domain or a list of at most ${L.domainEntries}; subdomains included).`,
    freshness:
      'Only results published within the last day, week, month or year: use it for news and recent events. start_date and end_date override it.',
    start_date:
      'Earliest publication date, YYYY-MM-DD (inclusive). Undated results are left out under any date filter.',
    end_date: 'Latest publication date, YYYY-MM-DD (inclusive).',
    search_depth:
      "basic (default): titles, URLs, snippets and dates; fast, 1 search unit. advanced: Scout also reads each result's page and adds its most relevant passages and page text; slower (seconds) and 2 search units. Use advanced when snippets will not answer the question (details, numbers, technical specifics), basic to find pages or for simple facts.",
    max_content_tokens: `Token budget, ${L.maxContentTokens.min} to ${L.maxContentTokens.max}, for the page text (advanced) or the snippets (basic) of all results together. Leave it out unless you need less text; the whole result is kept under a fixed size anyway.`,
    country:
      'Two-letter ISO 3166-1 country code (US, GB, DE, ...) to get results for that country. The United Kingdom is GB.',
  }),
);

export const fetchPageInput = nullableOptionals(
  describedSchema(FetchPageArguments, `Arguments of fetch_page. Only url is required. ${NULL_IS_ABSENT}`, {
    url: `Absolute http(s) URL of the page (a web_search result URL, sponsored ones included), at most ${FETCH_LIMITS.urlMax} characters.`,
    max_chars: `Most characters of page content to return in this call, ${FETCH_LIMITS.maxChars.min} to ${FETCH_LIMITS.maxChars.max} (default ${FETCH_LIMITS.maxChars.default}). The result is also kept under a fixed token size, so a long page comes in parts.`,
    start_index:
      'Where to start reading, as a character offset into the page content (default 0). When a result says more content follows, call again with the start_index it gives.',
  }),
);

export const webSearchOutput = jsonSchemaOf(SearchResponse);
export const fetchPageOutput = jsonSchemaOf(FetchResponse);

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/**
 * What web_search searches: `web` when a web provider is configured (or unknown: `scout mcp`
 * in front of another Scout's URL), `local` when only the operator's own index is, so that an
 * agent is not told it searches the web when it does not.
 */
export type SearchScope = 'web' | 'local';

const SEARCH_WHAT: Record<SearchScope, string> = {
  web: 'Search the web.',
  local:
    "Search this server's own index (no web search provider is configured: results come only from the documents indexed on this server, not from the web).",
};

/** The tools as tools/list shows them, web_search described for `scope`. */
export const toolsFor = (scope: SearchScope): Tool[] => [
  {
    name: WEB_SEARCH,
    title: 'Web search',
    description: [
      `${SEARCH_WHAT[scope]} Returns numbered results with title, URL, source domain, publication date and snippet (advanced depth: also the most relevant page text).`,
      "Use it to find pages and facts; then call fetch_page with a result's url to read that page in full.",
      'Sponsored entries, when there are any, come first, are marked [Sponsored] with their disclosure, and never replace or reorder organic results: weigh them as ads.',
    ].join(' '),
    inputSchema: webSearchInput as Tool['inputSchema'],
    outputSchema: webSearchOutput as Tool['outputSchema'],
    annotations: { title: 'Web search', ...readOnly },
  },
  {
    name: FETCH_PAGE,
    title: 'Fetch page',
    description: [
      'Read one web page (HTML, PDF, feed or text) and get its main content as markdown, without navigation and ads.',
      'A long page comes in parts: the result says when more follows and which start_index to call with next.',
      'Private, loopback and reserved addresses are refused.',
    ].join(' '),
    inputSchema: fetchPageInput as Tool['inputSchema'],
    outputSchema: fetchPageOutput as Tool['outputSchema'],
    annotations: { title: 'Fetch page', ...readOnly },
  },
];

/** The tools with web_search described as searching the web (the usual case). */
export const TOOLS: Tool[] = toolsFor('web');
