/**
 * Path patterns of a site walk (`include_paths`, `exclude_paths`): globs, never regular
 * expressions, so a caller's pattern cannot make matching take exponential (or polynomial in
 * the number of wildcards) time. A pattern is matched against a URL's whole path (`/docs/a`,
 * no query, no fragment, case-sensitive as paths are), segment by segment:
 * - `*` matches any run of characters within one segment (not `/`);
 * - `**` as a whole segment matches any number of segments, none included, so `/docs/**`
 *   matches `/docs`, `/docs/` and `/docs/a/b` (inside a segment, `**` is just `*`);
 * - every other character matches itself.
 * Both levels use the classic wildcard match that backtracks only to the latest star, whose
 * work is at most the product of the two lengths (paths are at most 2048 characters and
 * patterns 200, as src/schemas/map.ts checks), never exponential.
 */

type Segment = '**' | string;

export interface PathPattern {
  source: string;
  segments: Segment[];
}

export function compilePattern(pattern: string): PathPattern {
  return { source: pattern, segments: pattern.split('/').slice(1) };
}

/** Whole-string match of `text` against a `*` glob (no `/` inside either: they are segments). */
function segmentMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && glob[g] !== '*' && glob[g] === text[t]) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = t;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}

/** The same algorithm over segments, `**` being the star and segmentMatches the equality. */
function segmentsMatch(globs: readonly Segment[], parts: readonly string[]): boolean {
  let g = 0;
  let p = 0;
  let star = -1;
  let resume = 0;
  while (p < parts.length) {
    const glob = globs[g];
    if (glob !== undefined && glob !== '**' && segmentMatches(glob, parts[p] as string)) {
      g++;
      p++;
    } else if (glob === '**') {
      star = g++;
      resume = p;
    } else if (star >= 0) {
      g = star + 1;
      p = ++resume;
    } else {
      return false;
    }
  }
  while (globs[g] === '**') g++;
  return g === globs.length;
}

export function pathMatches(pattern: PathPattern, path: string): boolean {
  return segmentsMatch(pattern.segments, path.split('/').slice(1));
}

/** A URL path passes when it matches one of `include` (or there is none) and none of `exclude`. */
export function pathFilter(include: readonly string[], exclude: readonly string[]): (path: string) => boolean {
  const inc = include.map(compilePattern);
  const exc = exclude.map(compilePattern);
  return (path) =>
    (inc.length === 0 || inc.some((p) => pathMatches(p, path))) && !exc.some((p) => pathMatches(p, path));
}
