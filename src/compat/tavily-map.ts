import { STOP_WORDS } from '../content/stop-words.ts';
import { MAP_LIMITS, type MapRequest, type MapResponse } from '../schemas/map.ts';
import type { TavilyMapResponse } from '../schemas/tavily.ts';
import type { RequestContext } from '../search/search-service.ts';
import { responseTime } from './tavily-response.ts';
import { absent, answerTimeoutMs, invalid, refuseCategories, siteFilter, startUrl } from './tavily-site-fields.ts';
import { jsonObject } from './json-body.ts';

/** What a Tavily map asks of Scout's map (POST /v1/map's service). */
export interface TavilyMapPlan {
  request: MapRequest;
  /** select_/exclude_ paths and domains, when any was sent. */
  filter?: (url: URL) => boolean;
  /** The url as sent: Tavily answers it as base_url. */
  baseUrl: string;
}

/** Tavily's own default limit. */
export const TAVILY_MAP_DEFAULT_LIMIT = 50;

/**
 * Words of `instructions` that describe the task rather than its topic ("find all pages
 * about …"): dropped, with stop words (the, of, …), before the rest becomes the map's search,
 * which keeps only URLs matching a word: "get all the URLs" must not keep only URLs saying "the".
 */
const TASK_WORDS = new Set(
  (
    'find get list show give return returns retrieve fetch crawl map discover locate search look want need ' +
    'all every any only just each more most please me us my i we you including include includes ' +
    'page pages url urls link links site sites website websites web webpage webpages domain section sections ' +
    'about related relating regarding containing contain contains mention mentions mentioning covering cover ' +
    'specific particular relevant information info content'
  ).split(' '),
);

function limit(v: unknown): number {
  if (absent(v)) return TAVILY_MAP_DEFAULT_LIMIT;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid('limit must be a whole number from 1');
  // Tavily sets no maximum; Scout returns at most 5000, so more asks for 5000.
  return Math.min(MAP_LIMITS.limit.max, v);
}

/** The topic words of `instructions`, as the map's search, or undefined when it names no topic. */
export function instructionsSearch(v: unknown): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string') throw invalid('instructions must be a string');
  const words = v
    .split(/[^\p{L}\p{N}_./-]+/u)
    .map((w) => w.replace(/^[./-]+|[./-]+$/g, ''))
    .filter((w) => w !== '' && !TASK_WORDS.has(w.toLowerCase()) && !STOP_WORDS.has(w.toLowerCase()));
  let search = '';
  for (const w of words) {
    if (search.length + w.length + 1 > MAP_LIMITS.searchMax) break;
    search = search === '' ? w : `${search} ${w}`;
  }
  return search === '' ? undefined : search;
}

/**
 * A Tavily map body → the Scout map that answers it. Lenient where clients differ (unknown
 * fields, nulls, a bare host), strict where a wrong answer would look right: a filter Scout
 * cannot apply exactly (a regex needing backtracking, categories) is a 400, never dropped.
 */
export function tavilyMapPlan(body: unknown): TavilyMapPlan {
  const b = jsonObject(body);
  const url = startUrl(b.url, 'map');
  refuseCategories(b.categories);
  const request: MapRequest = { url, limit: limit(b.limit) };
  const search = instructionsSearch(b.instructions);
  if (search !== undefined) request.search = search;
  const timeoutMs = answerTimeoutMs(b.timeout, MAP_LIMITS.timeoutMs);
  if (timeoutMs !== undefined) request.timeout_ms = timeoutMs;
  const { filter, namesDomains } = siteFilter(b);
  // Naming domains asks for more hosts than the start's own: its subdomains are mapped too.
  if (namesDomains) request.include_subdomains = true;
  const plan: TavilyMapPlan = { request, baseUrl: String(b.url).trim() };
  if (filter !== undefined) plan.filter = filter;
  return plan;
}

/** Scout's map → Tavily's answer: the URLs alone, in the map's order. */
export function tavilyMapBody(plan: TavilyMapPlan, out: MapResponse, ctx: RequestContext): TavilyMapResponse {
  return {
    base_url: plan.baseUrl,
    results: out.results.map((r) => r.url),
    response_time: responseTime(ctx),
    request_id: ctx.requestId,
  };
}
