import { fetchPageTool } from './fetch-page-tool.ts';
import { fetchPagesTool } from './fetch-pages-tool.ts';
import { mapSiteTool } from './map-site-tool.ts';
import { crawlSiteTool } from './crawl-site-tool.ts';
import { parallelSearchTool } from './parallel-search-tool.ts';
import type { AnyTool } from './tool-spec.ts';
import { webSearchTool } from './web-search-tool.ts';

/**
 * Every MCP tool Scout has, in the order tools/list shows them. A tool is added here and
 * nowhere else: the selection (?tools=, --tools, SCOUT_MCP_TOOLS, `all`), tools/list,
 * tools/call and its rate-limit cost follow from its entry. Which are offered without a
 * selection is SCOUT_MCP_TOOLS (default web_search,fetch_page): each tool described costs a
 * model context, so the others are opt-in.
 */
export const TOOL_CATALOG: readonly AnyTool[] = [
  webSearchTool,
  fetchPageTool,
  fetchPagesTool,
  parallelSearchTool,
  mapSiteTool,
  crawlSiteTool,
];
