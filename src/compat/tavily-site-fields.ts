import { DomainError } from '../domain/errors.ts';
import { MAP_LIMITS } from '../schemas/map.ts';
import { compileLinearRegex, type LinearRegex, RegexRefused } from './linear-regex.ts';
import { urlProblem } from './tavily-extract.ts';

/**
 * The fields Tavily's /map and /crawl share, read the same way for both (src/compat/
 * tavily-map.ts, tavily-crawl.ts): the start url, the four regex filters, the timeout.
 */

/** Characters of one pattern, and patterns of one list, at most (as /v1/map's path globs). */
const PATTERN_MAX_CHARS = 200;
/**
 * The SDK's HTTP timeout is the `timeout` it sends: the walk stops this much earlier, so its
 * answer (what it found) reaches the client before the client gives up.
 */
const ANSWER_MARGIN_MS = 1000;

export const invalid = (message: string) => new DomainError('invalid', message);
/** Clients send null or "" for a field left unset. */
export const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

/**
 * A list of regexes (or one string), each compiled to the linear-time matcher; a refused one
 * is 400 naming it (and `name`, the caller's own name of the field).
 */
export function regexList(v: unknown, name: string): LinearRegex[] {
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

/** The four regex fields as one URL filter (undefined when none was sent), and whether domains were named. */
export function siteFilter(b: Record<string, unknown>): {
  filter?: (url: URL) => boolean;
  namesDomains: boolean;
} {
  const selectPaths = regexList(b.select_paths, 'select_paths');
  const excludePaths = regexList(b.exclude_paths, 'exclude_paths');
  const selectDomains = regexList(b.select_domains, 'select_domains');
  const excludeDomains = regexList(b.exclude_domains, 'exclude_domains');
  const namesDomains = selectDomains.length > 0 || excludeDomains.length > 0;
  if (selectPaths.length + excludePaths.length + selectDomains.length + excludeDomains.length === 0)
    return { namesDomains };
  const keeps = (list: LinearRegex[], text: string, none: boolean) =>
    list.length === 0 ? none : list.some((p) => p.test(text));
  return {
    namesDomains,
    filter: (u) =>
      keeps(selectPaths, u.pathname, true) &&
      !keeps(excludePaths, u.pathname, false) &&
      keeps(selectDomains, u.hostname, true) &&
      !keeps(excludeDomains, u.hostname, false),
  };
}

/** `url` as Tavily takes it: an http(s) URL, or a bare host and path ("docs.tavily.com"), read as https. */
export function startUrl(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.trim() === '')
    throw invalid(`url is required: the site to ${what}, as an http(s) URL or a host name`);
  const raw = v.trim();
  const url = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw) ? raw : `https://${raw}`;
  const problem = urlProblem(url);
  if (problem !== undefined) throw invalid(`url is ${problem}`);
  return url;
}

/** `timeout` (seconds) → the walk's timeout_ms, 1 s short of it, within Scout's bounds; undefined when not sent. */
export function answerTimeoutMs(v: unknown, bounds: { min: number; max: number }): number | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw invalid('timeout must be a positive number of seconds');
  return Math.round(Math.min(bounds.max, Math.max(bounds.min, v * 1000 - ANSWER_MARGIN_MS)));
}

/** Non-empty `categories` is refused: Scout has no page categories, and dropping one would widen the answer. */
export function refuseCategories(v: unknown): void {
  if (Array.isArray(v) && v.length > 0)
    throw invalid('categories are not served: Scout has no page categories (use select_paths or instructions)');
}
