import type { JobPatterns } from '../crawl/crawl-job-data.ts';
import { DomainError } from '../domain/errors.ts';
import { CRAWL_LIMITS, type CrawlRequest } from '../schemas/crawl.ts';
import { toFrontierUrl } from '../site/frontier-url.ts';
import { formatName, REFUSED_FORMATS, scrapePlan } from './firecrawl-scrape.ts';
import { urlProblem } from './tavily-extract.ts';
import { regexList } from './tavily-site-fields.ts';
import { jsonObject, requiredUrl } from './json-body.ts';

/** What a Firecrawl crawl asks of Scout's crawl jobs (POST /v1/crawl with async: true). */
export interface FirecrawlCrawlPlan {
  /** The crawl, as an asynchronous job's. */
  request: CrawlRequest;
  /** includePaths, excludePaths, and the start path's hierarchy unless crawlEntireDomain: kept with the job. */
  patterns?: JobPatterns;
  /** What Scout does otherwise than asked, said in the start answer's agent_hints. */
  hints: string[];
}

/** Firecrawl's own default limit (its crawls run until done; Scout's return at most 100 pages). */
export const FIRECRAWL_CRAWL_DEFAULT_LIMIT = 10_000;

const L = CRAWL_LIMITS;
const invalid = (message: string) => new DomainError('invalid', message);
/** A field a client sent as null counts as not sent. */
const absent = (v: unknown): boolean => v === undefined || v === null;

/** Options Scout cannot honour: refused when set (non-empty), never dropped. */
const REFUSED_SET: Record<string, string> = {
  webhook:
    "Scout calls no webhook; poll GET /v2/crawl/{id} for the pages as they come (the SDK's crawl() and getCrawlStatus do)",
  prompt:
    'Scout runs no model to turn a prompt into crawl options; set includePaths, excludePaths, limit and maxDiscoveryDepth yourself',
  robotsUserAgent: 'Scout reads robots.txt as its own user agent',
};

/** Options refused when true: Scout's crawl cannot do what they ask. */
const REFUSED_TRUE: Record<string, string> = {
  allowExternalLinks:
    "Scout's crawl stays on the start URL's site (allowSubdomains adds the hosts under it); crawl another site with its own start URL",
  ignoreRobotsTxt: 'Scout always follows robots.txt',
  regexOnFullURL:
    "Scout matches includePaths and excludePaths against the URL's path only; write them for the path (^/docs/)",
  zeroDataRetention: `a crawl job's pages are kept in Scout's store until the job expires, 24 h after it was made`,
};

const set = (v: unknown): boolean =>
  !absent(v) &&
  v !== false &&
  v !== '' &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

function bool(v: unknown, name: string, fallback: boolean): boolean {
  if (absent(v)) return fallback;
  if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`);
  return v;
}

function whole(v: unknown, name: string, min: number): number | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw invalid(`${name} must be a whole number from ${min}`);
  return v;
}

/** includePaths / excludePaths: checked (and refused, naming them) now; kept as text with the job. */
function paths(v: unknown, name: string): string[] | undefined {
  const list = regexList(v, name).map((r) => r.source);
  return list.length === 0 ? undefined : list;
}

function sitemap(b: Record<string, unknown>): 'include' | 'skip' {
  if (absent(b.sitemap)) return b.ignoreSitemap === true ? 'skip' : 'include';
  if (b.sitemap === 'include' || b.sitemap === 'skip') return b.sitemap;
  if (b.sitemap === 'only')
    throw invalid(
      'sitemap "only" is not served for a crawl: Scout\'s crawl also follows the pages\' links; use "include" or "skip", or POST /v2/map with sitemap "only" to list the sitemap\'s URLs',
    );
  throw invalid('sitemap must be "include" or "skip"');
}

/** scrapeOptions: a crawl's pages come as markdown; every other format, and the options /v2/scrape refuses, are 400. */
function scrapeOptions(v: unknown): void {
  if (absent(v)) return;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid('scrapeOptions must be an object');
  const o = v as Record<string, unknown>;
  if (!absent(o.formats)) {
    if (!Array.isArray(o.formats)) throw invalid('scrapeOptions.formats must be a list');
    for (const f of o.formats) {
      const name = formatName(f);
      if (name === 'markdown') continue;
      const why =
        REFUSED_FORMATS[name] ??
        (name === 'rawHtml' || name === 'links' || name === 'summary'
          ? `Scout's crawl keeps each page's markdown only; POST /v2/scrape gives a page's ${name}`
          : undefined);
      throw invalid(
        `scrapeOptions.formats "${name.slice(0, 40)}" is not served for a crawl${why ? `: ${why}` : ''}. A crawl's pages come as markdown`,
      );
    }
  }
  // The options /v2/scrape refuses are refused here too, in the same words.
  scrapePlan({ ...o, formats: undefined }, ['markdown'], 'scrapeOptions.');
}

/** `timeout` (ms, for the whole crawl) → the job's timeout_ms; Firecrawl's crawl has none, so absent is Scout's longest. */
function timeoutMs(v: unknown): number {
  const { max } = L.jobTimeoutMs;
  if (absent(v)) return max;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw invalid('timeout must be a positive number of milliseconds');
  return Math.round(Math.min(max, Math.max(L.timeoutMs.min, v)));
}

/**
 * A Firecrawl crawl body → the Scout crawl job that answers it, with Firecrawl's defaults
 * (sitemap include, the start path's hierarchy only, no depth bound but Scout's) rather than
 * /v1/crawl's. Unknown fields and nulls are ignored; a value Scout cannot read, or an option
 * it cannot honour, is a 400 naming it.
 */
export function firecrawlCrawlPlan(body: unknown): FirecrawlCrawlPlan {
  const b = jsonObject(body);
  const url = requiredUrl(b);
  const problem = urlProblem(url);
  if (problem !== undefined) throw invalid(`url is ${problem}`);
  for (const [name, why] of Object.entries(REFUSED_SET))
    if (set(b[name])) throw invalid(`${name} is not served: ${why}`);
  for (const [name, why] of Object.entries(REFUSED_TRUE))
    if (bool(b[name], name, false)) throw invalid(`${name} true is not served: ${why}`);
  scrapeOptions(b.scrapeOptions);

  const hints: string[] = [];
  const asked = whole(b.limit, 'limit', 1);
  const wanted = asked ?? FIRECRAWL_CRAWL_DEFAULT_LIMIT;
  const limit = Math.min(L.limit.max, wanted);
  if (wanted > limit)
    hints.push(
      `limit ${wanted}${asked === undefined ? " (Firecrawl's default)" : ''} is more than Scout's crawl returns: it returns at most ${L.limit.max} pages; when more are within reach GET /v2/crawl/{id} says so`,
    );
  const depth = whole(b.maxDiscoveryDepth, 'maxDiscoveryDepth', 0);
  if (depth !== undefined && depth > L.maxDepth.max)
    hints.push(`maxDiscoveryDepth ${depth} is deeper than Scout crawls: it follows at most ${L.maxDepth.max} links`);
  const ignoreQuery = bool(b.ignoreQueryParameters, 'ignoreQueryParameters', false);
  if (ignoreQuery)
    hints.push(
      'ignoreQueryParameters is not applied: Scout reads URLs that differ in their query as pages of their own (tracking parameters aside), so a path may come more than once',
    );

  const request: CrawlRequest = {
    url,
    // Firecrawl's crawl has no depth bound by default: Scout's deepest.
    max_depth: Math.min(L.maxDepth.max, depth ?? L.maxDepth.max),
    limit,
    include_subdomains: bool(b.allowSubdomains, 'allowSubdomains', false),
    sitemap: sitemap(b),
    // Each page as whole as the crawl's 2,000,000 characters allow when every page is long.
    max_chars: Math.min(L.maxChars.max, Math.floor(L.totalChars / limit)),
    timeout_ms: timeoutMs(b.timeout),
    async: true,
  };

  const patterns: JobPatterns = {};
  const include = paths(b.includePaths, 'includePaths');
  const exclude = paths(b.excludePaths, 'excludePaths');
  if (include !== undefined) patterns.select_paths = include;
  if (exclude !== undefined) patterns.exclude_paths = exclude;
  // Firecrawl reads only the start URL's path and below unless crawlEntireDomain (its older name: allowBackwardLinks).
  const entire = bool(b.crawlEntireDomain ?? b.allowBackwardLinks, 'crawlEntireDomain', false);
  const start = toFrontierUrl(url);
  const prefix = 'url' in start ? new URL(start.url).pathname : '/';
  if (!entire && prefix !== '/') patterns.path_prefix = prefix;

  return { request, hints, ...(Object.keys(patterns).length === 0 ? {} : { patterns }) };
}
