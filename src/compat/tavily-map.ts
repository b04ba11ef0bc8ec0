import { STOP_WORDS } from '../content/stop-words.ts';
import { DomainError } from '../domain/errors.ts';
import { MAP_LIMITS, type MapRequest, type MapResponse } from '../schemas/map.ts';
import type { TavilyMapResponse } from '../schemas/tavily.ts';
import type { RequestContext } from '../search/search-service.ts';
import { compileLinearRegex, type LinearRegex, RegexRefused } from './linear-regex.ts';
import { urlProblem } from './tavily-extract.ts';
import { responseTime } from './tavily-response.ts';

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
/** Characters of one pattern, and patterns of one list, at most (as /v1/map's path globs). */
const PATTERN_MAX_CHARS = 200;
/**
 * The SDK's HTTP timeout is the `timeout` it sends: the map stops this much earlier, so its
 * answer (what it found) reaches the client before the client gives up.
 */
const ANSWER_MARGIN_MS = 1000;

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

const invalid = (message: string) => new DomainError('invalid', message);
const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

/** A list of regexes (or one string), each compiled to the linear-time matcher; a refused one is 400 naming it. */
function patterns(v: unknown, name: string): LinearRegex[] {
  if (absent(v)) return [];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string'))
    throw invalid(`${name} must be a list of regular expressions (strings)`);
  if (list.length > MAP_LIMITS.patterns)
    throw invalid(`${name} may list at most ${MAP_LIMITS.patterns} patterns on this Scout`);
  return list.map((p: string) => {
    if (p.length === 0 || p.length > PATTERN_MAX_CHARS)
      throw invalid(`${name} patterns must be 1 to ${PATTERN_MAX_CHARS} characters`);
    try {
      return compileLinearRegex(p);
    } catch (e) {
      if (!(e instanceof RegexRefused)) throw e;
      throw invalid(
        `${name} pattern ${JSON.stringify(p)} is not served: ${e.message}. Scout matches patterns without backtracking (docs/compat.md lists what it takes)`,
      );
    }
  });
}

function positive(v: unknown, name: string, unit: string): number | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw invalid(`${name} must be a positive number of ${unit}`);
  return v;
}

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

/** `url` as Tavily takes it: an http(s) URL, or a bare host and path ("docs.tavily.com"), read as https. */
function startUrl(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '')
    throw invalid('url is required: the site to map, as an http(s) URL or a host name');
  const raw = v.trim();
  const url = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw) ? raw : `https://${raw}`;
  const problem = urlProblem(url);
  if (problem !== undefined) throw invalid(`url is ${problem}`);
  return url;
}

/**
 * A Tavily map body → the Scout map that answers it. Lenient where clients differ (unknown
 * fields, nulls, a bare host), strict where a wrong answer would look right: a filter Scout
 * cannot apply exactly (a regex needing backtracking, categories) is a 400, never dropped.
 */
export function tavilyMapPlan(body: unknown): TavilyMapPlan {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('send a JSON object');
  const b = body as Record<string, unknown>;
  const url = startUrl(b.url);
  if (Array.isArray(b.categories) && b.categories.length > 0)
    throw invalid('categories are not served: Scout has no page categories (use select_paths or instructions)');
  const request: MapRequest = { url, limit: limit(b.limit) };
  const search = instructionsSearch(b.instructions);
  if (search !== undefined) request.search = search;
  const seconds = positive(b.timeout, 'timeout', 'seconds');
  if (seconds !== undefined)
    request.timeout_ms = Math.round(
      Math.min(MAP_LIMITS.timeoutMs.max, Math.max(MAP_LIMITS.timeoutMs.min, seconds * 1000 - ANSWER_MARGIN_MS)),
    );
  const selectPaths = patterns(b.select_paths, 'select_paths');
  const excludePaths = patterns(b.exclude_paths, 'exclude_paths');
  const selectDomains = patterns(b.select_domains, 'select_domains');
  const excludeDomains = patterns(b.exclude_domains, 'exclude_domains');
  // Naming domains asks for more hosts than the start's own: its subdomains are mapped too.
  if (selectDomains.length > 0 || excludeDomains.length > 0) request.include_subdomains = true;
  const plan: TavilyMapPlan = { request, baseUrl: String(b.url).trim() };
  if (selectPaths.length + excludePaths.length + selectDomains.length + excludeDomains.length > 0)
    plan.filter = (u) => {
      const keeps = (list: LinearRegex[], text: string, none: boolean) =>
        list.length === 0 ? none : list.some((p) => p.test(text));
      return (
        keeps(selectPaths, u.pathname, true) &&
        !keeps(excludePaths, u.pathname, false) &&
        keeps(selectDomains, u.hostname, true) &&
        !keeps(excludeDomains, u.hostname, false)
      );
    };
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
