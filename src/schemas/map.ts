import { Type, type Static } from '@sinclair/typebox';
import { FETCH_LIMITS } from './fetch.ts';
import { Nullable } from './nullable.ts';
import { rule } from './rule.ts';

/** Characters of one path pattern (src/site/path-patterns.ts) at most. */
const PATTERN_MAX_CHARS = 200;
/** A path pattern: a path, since the query and fragment are never matched. */
const PATTERN_SHAPE = '^/[^?#]*$';

/** Limits of POST /v1/map (docs/api.md "POST /v1/map" says why each is what it is). */
export const MAP_LIMITS = {
  limit: { min: 1, max: 5000, default: 100 },
  searchMax: 200,
  patterns: 20,
  timeoutMs: { min: 1000, max: 60_000, default: 30_000 },
  /** Pages read for their links per map. */
  pages: 20,
  /** Sitemap files read per map (robots.txt's Sitemap: lines, /sitemap.xml, an index's children). */
  sitemaps: 20,
  /** Sitemap index levels followed: an index of indexes of sitemaps, no deeper. */
  sitemapDepth: 3,
  /** URLs held per map before filtering and ranking (memory bound on huge sitemaps). */
  candidates: 50_000,
  /** Skipped URLs listed in an answer (the first ones). */
  skipped: 20,
} as const;

/** A list of path patterns (src/site/path-patterns.ts), as POST /v1/map and POST /v1/crawl take them. */
export const Patterns = (what: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: PATTERN_MAX_CHARS, pattern: PATTERN_SHAPE }), {
      maxItems: MAP_LIMITS.patterns,
      description: `${what} Path globs, at most ${MAP_LIMITS.patterns}: \`*\` matches within one path segment, a \`**\` segment matches any number of segments (\`/docs/**\`); matched against the whole URL path, case-sensitive.`,
      ...rule(
        `must be an array of at most ${MAP_LIMITS.patterns} path patterns, each starting with "/", without "?" or "#", 1 to ${PATTERN_MAX_CHARS} characters`,
      ),
    }),
  );

const L = MAP_LIMITS;

export const MapRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: FETCH_LIMITS.urlMax,
      description: "The site's start URL (absolute http(s)); the map stays on its host.",
      ...rule(`must be an absolute http(s) URL of 1 to ${FETCH_LIMITS.urlMax} characters`),
    }),
    limit: Type.Optional(
      Type.Integer({
        minimum: L.limit.min,
        maximum: L.limit.max,
        default: L.limit.default,
        description: `URLs returned at most, ${L.limit.min}..${L.limit.max} (default ${L.limit.default}).`,
        ...rule(`must be an integer from ${L.limit.min} to ${L.limit.max}`),
      }),
    ),
    sitemap: Type.Optional(
      Type.Union([Type.Literal('include'), Type.Literal('only'), Type.Literal('skip')], {
        default: 'include',
        description: `Where URLs come from: \`include\` (default) reads the sitemaps and then up to ${L.pages} pages for their links; \`only\` reads the sitemaps and no page; \`skip\` reads no sitemap, only pages.`,
        ...rule('must be one of include, only, skip'),
      }),
    ),
    include_subdomains: Type.Optional(
      Type.Boolean({
        default: false,
        description: "Also map the start host's subdomains (default false: the start host, with or without www.).",
        ...rule('must be true or false'),
      }),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: L.searchMax,
        description:
          'Keep only URLs whose path (or page title) matches words of this query, the URLs matching most words first.',
        ...rule(`must be a string of 1 to ${L.searchMax} characters`),
      }),
    ),
    include_paths: Patterns(
      'Keep only URLs whose path matches one of these; pages read for links must match too (the start page excepted).',
    ),
    exclude_paths: Patterns('Leave out URLs whose path matches one of these; such pages are not read either.'),
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: L.timeoutMs.min,
        maximum: L.timeoutMs.max,
        default: L.timeoutMs.default,
        description: `Time for the whole map, in ms, ${L.timeoutMs.min}..${L.timeoutMs.max} (default ${L.timeoutMs.default}); at the end the map answers with what it found, stopped: "deadline".`,
        ...rule(`must be an integer from ${L.timeoutMs.min} to ${L.timeoutMs.max}`),
      }),
    ),
  },
  { title: 'MapRequest', additionalProperties: false },
);
export type MapRequest = Static<typeof MapRequest>;

export const MapLink = Type.Object(
  {
    url: Type.String(),
    source: Type.Union([Type.Literal('sitemap'), Type.Literal('page')], {
      description: 'Where the map found the URL first: a sitemap, or a link (or the address) of a page it read.',
    }),
    title: Nullable(Type.String({ description: "The page's title, when the map read the page; else null." })),
    lastmod: Nullable(Type.String({ description: "The sitemap's <lastmod> as written, when it gave one; else null." })),
  },
  { title: 'MapLink', additionalProperties: false },
);
export type MapLink = Static<typeof MapLink>;

export const MapStop = Type.Union(
  [
    Type.Literal('limit'),
    Type.Literal('deadline'),
    Type.Literal('page_budget'),
    Type.Literal('sitemap_budget'),
    Type.Literal('candidates'),
    Type.Literal('rate_limited'),
  ],
  {
    title: 'MapStop',
    description:
      'The first bound that left URLs unread: limit (limit URLs found), deadline (timeout_ms), page_budget (pages read), sitemap_budget (sitemaps read), candidates (URLs held), rate_limited (the key ran out of requests); null when complete.',
  },
);
export type MapStop = Static<typeof MapStop>;

export const MapResponse = Type.Object(
  {
    request_id: Type.String(),
    url: Type.String({ description: 'The start URL as requested.' }),
    results: Type.Array(MapLink),
    complete: Type.Boolean({
      description: 'True when every source was read to its end; false when a bound stopped the map (see stopped).',
    }),
    stopped: Nullable(MapStop),
    sitemaps_read: Type.Integer({ description: 'Sitemap files fetched.' }),
    pages_read: Type.Integer({ description: 'Pages fetched for their links.' }),
    charged: Type.Integer({
      description: "Requests taken from the key's rate limit: one per sitemap or page fetched, at least 1.",
    }),
    skipped: Type.Array(
      Type.Object({ url: Type.String(), reason: Type.String() }, { title: 'MapSkipped', additionalProperties: false }),
      {
        maxItems: MAP_LIMITS.skipped,
        description: `URLs the map did not read or return, with why (robots.txt, a refused address, a redirect off the site, an error): the first ${MAP_LIMITS.skipped}.`,
      },
    ),
    response_time_ms: Type.Number(),
  },
  { title: 'MapResponse', additionalProperties: false },
);
export type MapResponse = Static<typeof MapResponse>;
