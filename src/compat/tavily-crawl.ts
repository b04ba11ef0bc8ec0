import { markdownToPlainText } from '../content/markdown-to-text.ts';
import { CRAWL_LIMITS, type CrawlRequest, type CrawlResponse } from '../schemas/crawl.ts';
import { EXTRACT_LIMITS } from '../schemas/extract.ts';
import type { TavilyCrawlResponse } from '../schemas/tavily.ts';
import type { RequestContext } from '../search/search-service.ts';
import { instructionsSearch } from './tavily-map.ts';
import { responseTime } from './tavily-response.ts';
import { absent, answerTimeoutMs, invalid, refuseCategories, siteFilter, startUrl } from './tavily-site-fields.ts';
import { jsonObject } from './json-body.ts';

/** What a Tavily crawl asks of Scout's crawl (POST /v1/crawl's service). */
export interface TavilyCrawlPlan {
  request: CrawlRequest;
  /** select_/exclude_ paths and domains, when any was sent. */
  filter?: (url: URL) => boolean;
  /** The url as sent: Tavily answers it as base_url. */
  baseUrl: string;
  /** format: "text": raw_content as plain text rather than markdown. */
  text: boolean;
}

/** Tavily's own defaults (its API reference): depth 1, 50 pages, 3 chunks per page with instructions. */
export const TAVILY_CRAWL_DEFAULTS = { maxDepth: 1, limit: 50, chunksPerSource: 3 } as const;

/** A whole number from `min`, or Tavily's default when not sent; more than Scout's `max` asks for `max`. */
function whole(v: unknown, name: string, min: number, max: number, fallback: number): number {
  if (absent(v)) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw invalid(`${name} must be a whole number from ${min}`);
  return Math.min(max, v);
}

function textFormat(v: unknown): boolean {
  if (absent(v) || v === 'markdown') return false;
  if (v === 'text') return true;
  throw invalid('format must be "markdown" or "text"');
}

/**
 * A Tavily crawl body → the Scout crawl that answers it, read as the map reads its body
 * (src/compat/tavily-map.ts): lenient with unknown fields, nulls and a bare host; a filter
 * Scout cannot apply exactly (a regex needing backtracking, categories) is a 400, never dropped.
 */
export function tavilyCrawlPlan(body: unknown): TavilyCrawlPlan {
  const b = jsonObject(body);
  const url = startUrl(b.url, 'crawl');
  refuseCategories(b.categories);
  const request: CrawlRequest = {
    url,
    // Tavily allows 1..5 and Scout 0..5: more than 5 asks for 5, 0 for the start page alone.
    max_depth: whole(b.max_depth, 'max_depth', 0, CRAWL_LIMITS.maxDepth.max, TAVILY_CRAWL_DEFAULTS.maxDepth),
    limit: whole(b.limit, 'limit', 1, CRAWL_LIMITS.limit.max, TAVILY_CRAWL_DEFAULTS.limit),
  };
  const text = textFormat(b.format);
  // Scout runs no model: the topic words of the instructions pick each page's passages, as
  // Tavily's chunks_per_source chunks; which pages are read does not depend on them.
  const query = instructionsSearch(b.instructions);
  if (query !== undefined) {
    request.query = query;
    request.max_passages = whole(
      b.chunks_per_source,
      'chunks_per_source',
      1,
      EXTRACT_LIMITS.maxPassages.max,
      TAVILY_CRAWL_DEFAULTS.chunksPerSource,
    );
  }
  const timeoutMs = answerTimeoutMs(b.timeout, CRAWL_LIMITS.timeoutMs);
  if (timeoutMs !== undefined) request.timeout_ms = timeoutMs;
  const { filter, namesDomains } = siteFilter(b);
  // Naming domains asks for more hosts than the start's own: its subdomains are crawled too.
  if (namesDomains) request.include_subdomains = true;
  const plan: TavilyCrawlPlan = { request, baseUrl: String(b.url).trim(), text };
  if (filter !== undefined) plan.filter = filter;
  return plan;
}

/**
 * Scout's crawl → Tavily's answer: the pages in crawl order, each its /v1/crawl content. With
 * instructions, a page none of whose passages matches is left out (Tavily's instructions keep
 * the pages relevant to them).
 */
export function tavilyCrawlBody(plan: TavilyCrawlPlan, out: CrawlResponse, ctx: RequestContext): TavilyCrawlResponse {
  const pages = plan.request.query === undefined ? out.pages : out.pages.filter((p) => p.content !== '');
  return {
    base_url: plan.baseUrl,
    results: pages.map((p) => ({
      url: p.url,
      raw_content: plan.text ? markdownToPlainText(p.content) : p.content,
      images: [],
    })),
    response_time: responseTime(ctx),
    request_id: ctx.requestId,
  };
}
