import robotsParserModule from 'robots-parser';
import { DomainError } from '../domain/errors.ts';

// robots-parser is CommonJS typed with `export default`: under NodeNext the default import is
// typed as the module namespace, while at run time it is module.exports, the function itself.
type ParseRobots = typeof robotsParserModule.default;
const robotsParser: ParseRobots =
  (robotsParserModule as unknown as { default?: ParseRobots }).default ??
  (robotsParserModule as unknown as ParseRobots);

/**
 * robots.txt (RFC 9309) for one origin, parsed by robots-parser (longest match wins, Allow
 * wins a tie, `*` and `$` patterns). Scout's product token is `ScoutFetch` (the token in its
 * User-Agent); a group for `ScoutFetch` replaces the `*` group, as the RFC says.
 *
 * How the answer to GET /robots.txt is read (RFC 9309 2.3.1):
 * - a page (any content type the fetch pipeline extracts; redirects followed) → its rules;
 * - 4xx ("unavailable") → everything allowed, except 429: a server asking for fewer requests
 *   is treated as unreachable, as Google does;
 * - 5xx, 429, a refused address, a network error or a timeout ("unreachable") → nothing on that
 *   origin is crawled, so a struggling or hidden server is not hammered.
 */

export const ROBOTS_TOKEN = 'ScoutFetch';
/** Crawl-delay is honoured up to this: a larger value would stall a crawl for minutes a page. */
export const MAX_CRAWL_DELAY_MS = 10_000;
/** RFC 9309 2.5: crawlers must parse at least the first 500 KiB. */
export const ROBOTS_MAX_CHARS = 512_000;

export interface OriginRobots {
  /** Set when the origin must not be crawled at all, with the reason. */
  blocked?: string;
  /** With `blocked`: the error that kept robots.txt from being read (a refused address is a DomainError 'forbidden'). */
  failure?: unknown;
  allows(url: string): boolean;
  /** Crawl-delay for Scout in milliseconds, capped at MAX_CRAWL_DELAY_MS; undefined when none. */
  crawlDelayMs?: number;
  /** The `Sitemap:` lines, as written (absolute URLs; the reader checks them); empty when none. */
  sitemaps: string[];
}

export const robotsUrl = (origin: string): string => `${origin}/robots.txt`;

/** The status of an origin's "origin answered NNN" error, as src/fetch/http-fetch.ts words it. */
export function originStatus(err: unknown): number | undefined {
  if (!(err instanceof DomainError) || err.kind !== 'upstream') return undefined;
  const m = /^origin answered (\d{3})\b/.exec(err.message);
  return m ? Number(m[1]) : undefined;
}

export function robotsFromText(origin: string, text: string): OriginRobots {
  const robots = robotsParser(robotsUrl(origin), text);
  const delayS = robots.getCrawlDelay(ROBOTS_TOKEN);
  return {
    // robots-parser answers undefined for a URL of another origin: that is a bug of ours, so refuse.
    allows: (url) => robots.isAllowed(url, ROBOTS_TOKEN) === true,
    sitemaps: robots.getSitemaps(),
    ...(delayS === undefined || !(delayS > 0) ? {} : { crawlDelayMs: Math.min(delayS * 1000, MAX_CRAWL_DELAY_MS) }),
  };
}

const allowAll: OriginRobots = { allows: () => true, sitemaps: [] };

/** Fetches and reads one origin's robots.txt; `fetchText` GETs a URL through the safe pipeline. */
export async function loadRobots(origin: string, fetchText: (url: string) => Promise<string>): Promise<OriginRobots> {
  try {
    return robotsFromText(origin, await fetchText(robotsUrl(origin)));
  } catch (err) {
    const status = originStatus(err);
    if (status !== undefined && status >= 400 && status < 500 && status !== 429) return allowAll;
    const reason = err instanceof Error ? err.message : String(err);
    return { blocked: `its robots.txt could not be read (${reason})`, failure: err, allows: () => false, sitemaps: [] };
  }
}
