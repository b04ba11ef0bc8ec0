import type { ToolSetting } from './tool-spec.ts';

/**
 * What the tools' descriptions share. Input schemas are the HTTP API's (src/schemas) with
 * descriptions written for a model, and null also allowed for each optional argument (as left
 * out, tool-arguments.ts); output schemas are the HTTP response bodies (or, for the tools that
 * do several at once, a list of them), which structuredContent always matches.
 */

export const NULL_IS_ABSENT = 'An optional argument given as null is the same as leaving it out.';

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/**
 * What web_search searches: `web` when a web provider is configured (or unknown: `scout mcp`
 * in front of another Scout's URL), `local` when only the operator's own index is, so that an
 * agent is not told it searches the web when it does not.
 */
export type SearchScope = 'web' | 'local';

export const SEARCH_WHAT: Record<SearchScope, string> = {
  web: 'Search the web.',
  local:
    "Search this server's own index (no web search provider is configured: results come only from the documents indexed on this server, not from the web).",
};

export const FETCH_PAGE = 'fetch_page';
export const FETCH_PAGES = 'fetch_pages';

/**
 * The tool a search result is read with, among those offered: fetch_page, else fetch_pages,
 * else none (a tool never names one the model does not have).
 */
export type Reader = typeof FETCH_PAGE | typeof FETCH_PAGES | 'none';

export const readerOf = (setting: ToolSetting): Reader =>
  setting.offered.has(FETCH_PAGE) ? FETCH_PAGE : setting.offered.has(FETCH_PAGES) ? FETCH_PAGES : 'none';

/**
 * The end of the sentence of a search tool's description that says what it is for: how to
 * read what it found, when a reading tool is offered (`Use it to find pages and facts` + this).
 */
export function readOn(reader: Reader): string {
  if (reader === FETCH_PAGE) return "; then call fetch_page with a result's url to read that page in full.";
  if (reader === FETCH_PAGES) return '; then call fetch_pages with the urls of the results worth reading to read them.';
  return '.';
}

/** The ads sentence of the search tools' descriptions. */
export const SPONSORED_SENTENCE =
  'Sponsored entries, when there are any, come first, are marked [Sponsored] with their disclosure, and never replace or reorder organic results: weigh them as ads.';
