import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createValidator } from '../schemas/body-validator.ts';
import { MAP_LIMITS, MapRequest, MapResponse } from '../schemas/map.ts';
import { boundMap } from './bound-map.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { measuredResult } from './rendered-result.ts';
import { FETCH_PAGE, FETCH_PAGES, NULL_IS_ABSENT, READ_ONLY } from './tool-definitions.ts';
import { nullableOptionals } from './tool-arguments.ts';
import { defineTool } from './tool-spec.ts';

export const MAP_SITE = 'map_site';

const L = MAP_LIMITS;

export const mapSiteInput = nullableOptionals(
  describedSchema(MapRequest, `Arguments of map_site. Only url is required. ${NULL_IS_ABSENT}`, {
    url: "The site to map: an absolute http(s) URL on it, usually its home or its docs' start page. The map stays on that host (with or without www.).",
    limit: `Most URLs to return, ${L.limit.min} to ${L.limit.max} (default ${L.limit.default}). A long list is also shortened to the fixed result size.`,
    sitemap: `Where URLs come from: include (default) reads the site's sitemaps, then up to ${L.pages} pages for their links; only reads sitemaps alone (fewer requests); skip reads pages alone (for sites without a sitemap).`,
    include_subdomains: "true to map the host's subdomains too (docs.example.com for example.com). Default false.",
    search:
      'Words the wanted URLs hold in their path or page title, such as "pricing" or "authentication api": only URLs matching them are kept, those matching most words first.',
    include_paths:
      'Keep only URLs whose path matches one of these patterns: * matches within a path segment, ** any number of segments, as in /docs/** or /blog/*/2024-*.',
    exclude_paths: 'Leave out URLs whose path matches one of these patterns (same syntax as include_paths).',
    timeout_ms: `Time for the whole map in milliseconds, ${L.timeoutMs.min} to ${L.timeoutMs.max} (default ${L.timeoutMs.default}); when it runs out the map returns what it found so far.`,
  }),
);
export const mapSiteOutput = jsonSchemaOf(MapResponse);

const mapSiteArgs = createValidator<MapRequest>(MapRequest, 'arguments');

/**
 * map_site (Firecrawl's map, Tavily's /map): a site's URLs, from its sitemaps and the links of
 * a few of its pages, through POST /v1/map's service (robots.txt, pacing, the address policy
 * on every hop), the list bounded (bound-map.ts). Charged one request up front like any tool
 * call, then one per further sitemap or page the map fetches, as it goes.
 */
export const mapSiteTool = defineTool<MapRequest>({
  name: MAP_SITE,
  role: 'read',
  definition: (setting): Tool => {
    const reader = setting.offered.has(FETCH_PAGE)
      ? FETCH_PAGE
      : setting.offered.has(FETCH_PAGES)
        ? FETCH_PAGES
        : undefined;
    return {
      name: MAP_SITE,
      title: 'Map a site',
      description: [
        "List a website's page URLs (with titles where known) without reading the pages: from its sitemaps and the links of up to " +
          `${L.pages} of its pages, staying on the site and honouring its robots.txt.`,
        `Use it to find the right pages of a documentation or product site${reader === undefined ? '.' : `, then read them with ${reader}.`}`,
        'Narrow it with search (words in the URL or title) or include_paths, and say how many URLs you want with limit.',
        'Says whether the list is complete or why it stopped early (limit, time, how many pages or sitemaps one map reads).',
        'Each sitemap or page it fetches counts as one request against the rate limit, the first included in the call itself.',
        'Private, loopback and reserved addresses are refused.',
      ].join(' '),
      inputSchema: mapSiteInput as Tool['inputSchema'],
      outputSchema: mapSiteOutput as Tool['outputSchema'],
      annotations: { title: 'Map a site', ...READ_ONLY },
    };
  },
  parse: mapSiteArgs,
  async run(args, { backend, caller, signal, setting }) {
    const map = await backend.map(args, caller, signal);
    const { body, text, json } = boundMap(map, setting.maxResultTokens);
    return measuredResult(text, body, json);
  },
});
