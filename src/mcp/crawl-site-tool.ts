import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createValidator } from '../schemas/body-validator.ts';
import { CRAWL_LIMITS, CrawlResponse } from '../schemas/crawl.ts';
import { boundCrawl } from './bound-crawl.ts';
import { CRAWL_SITE_TIMEOUT_MS, CrawlSiteArguments } from './crawl-site-schemas.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { measuredResult } from './rendered-result.ts';
import { FETCH_PAGE, NULL_IS_ABSENT, READ_ONLY } from './tool-definitions.ts';
import { nullableOptionals } from './tool-arguments.ts';
import { defineTool } from './tool-spec.ts';

export const CRAWL_SITE = 'crawl_site';

const L = CRAWL_LIMITS;

export const crawlSiteInput = nullableOptionals(
  describedSchema(CrawlSiteArguments, `Arguments of crawl_site. Only url is required. ${NULL_IS_ABSENT}`, {
    url: 'The page to start from: an absolute http(s) URL, usually the start of the part of a site you want (a docs section). The crawl stays on its host (with or without www.).',
    max_depth: `How many links away from the start page to go, ${L.maxDepth.min} to ${L.maxDepth.max} (default ${L.maxDepth.default}): 0 reads the start page only, 1 also the pages it links to.`,
    limit: `Most pages to read and return, ${L.limit.min} to ${L.limit.max} (default ${L.limit.default}). The pages share one fixed result size, so the more pages, the shorter each.`,
    include_paths:
      'Read only pages whose path matches one of these patterns: * matches within a path segment, ** any number of segments, as in /docs/** or /blog/*/2024-*.',
    exclude_paths: 'Never read pages whose path matches one of these patterns (same syntax as include_paths).',
    include_subdomains: "true to crawl the host's subdomains too (docs.example.com for example.com). Default false.",
    sitemap:
      "skip (default) finds pages by following links; include also reads the site's sitemaps and queues their pages one link from the start page.",
    max_chars: `Most characters of each page's content, ${L.maxChars.min} to ${L.maxChars.max} (default ${L.maxChars.default}).`,
    timeout_ms: `Time for the whole crawl in milliseconds, ${L.timeoutMs.min} to ${L.timeoutMs.max} (default ${CRAWL_SITE_TIMEOUT_MS}); when it runs out the crawl returns the pages it has. Many MCP clients give up on a call after 60 seconds unless configured to wait longer.`,
  }),
);
export const crawlSiteOutput = jsonSchemaOf(CrawlResponse);

const crawlSiteArgs = createValidator<CrawlSiteArguments>(CrawlSiteArguments, 'arguments');

/**
 * crawl_site (Firecrawl's crawl, Tavily's /crawl): a site's pages, breadth first from a start
 * page, each as markdown, through POST /v1/crawl's service (robots.txt, pacing, the address
 * policy on every hop), the pages sharing the result bound (bound-crawl.ts). Charged one
 * request up front like any tool call, then one per further page or sitemap it fetches.
 */
export const crawlSiteTool = defineTool<CrawlSiteArguments>({
  name: CRAWL_SITE,
  role: 'read',
  definition: (setting): Tool => {
    const canReadOn = setting.offered.has(FETCH_PAGE);
    return {
      name: CRAWL_SITE,
      title: 'Crawl a site',
      description: [
        `Read up to ${L.limit.max} pages of a website at once, breadth first from a start page, each as its main content in markdown: the start page, then the pages it links to, up to max_depth links away.`,
        'Stays on the site, honours its robots.txt and reads politely (one page at a time per host), so a crawl of many pages takes a while.',
        'Use it to read a documentation section or a small site whole; narrow it with include_paths and limit.',
        `The pages share one fixed result size, so the more pages, the shorter each; a shortened page says so${canReadOn ? ' and gives the start_index to read on with fetch_page' : ''}.`,
        'Says whether the crawl is complete or why it stopped early (limit, depth, time), and which URLs it skipped and why.',
        'Each page or sitemap it fetches counts as one request against the rate limit, the first included in the call itself.',
        'Private, loopback and reserved addresses are refused.',
      ].join(' '),
      inputSchema: crawlSiteInput as Tool['inputSchema'],
      outputSchema: crawlSiteOutput as Tool['outputSchema'],
      annotations: { title: 'Crawl a site', ...READ_ONLY },
    };
  },
  parse: crawlSiteArgs,
  async run(args, { backend, caller, signal, setting }) {
    const crawl = await backend.crawl(
      { ...args, timeout_ms: args.timeout_ms ?? CRAWL_SITE_TIMEOUT_MS },
      caller,
      signal,
    );
    const { body, text, json } = boundCrawl(crawl, {
      limit: setting.maxResultTokens,
      canReadOn: setting.offered.has(FETCH_PAGE),
    });
    return measuredResult(text, body, json);
  },
});
