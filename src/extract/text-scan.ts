/**
 * Linear-time string helpers for page-controlled text. Regexes such as `\s+$`,
 * `\s*\n\s*` or `[ \t]+(?=\n\n)` look harmless but restart their scan at every position of
 * a long run that does not end the way they need: quadratic time on a few hundred KB of
 * spaces, and the fetch deadline cannot interrupt synchronous work. These loops read each
 * character once.
 */

const SPACE = /\s/;

/** True for the characters `\s` matches (the same set `String.prototype.trim` removes). */
export const isSpace = (c: string): boolean => SPACE.test(c);

/** Index of the first character at or after `from` that is not whitespace. */
export function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charAt(i))) i += 1;
  return i;
}

/** `text` without the trailing characters that `drop` accepts. */
export function trimEndWhere(text: string, drop: (c: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text.charAt(end - 1))) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the leading characters that `drop` accepts. */
export function trimStartWhere(text: string, drop: (c: string) => boolean): string {
  let start = 0;
  while (start < text.length && drop(text.charAt(start))) start += 1;
  return start === 0 ? text : text.slice(start);
}

export const isNewline = (c: string): boolean => c === '\n';
export const isBlank = (c: string): boolean => c === ' ' || c === '\t';

/** Length of the longest run of `char` in `text` (0 when it does not occur). */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    run = text[i] === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * Every whitespace run that holds a line break becomes one space; other runs stay. Same
 * result as `replace(/\s*\n+\s*\/g, ' ')`: `\s+` never fails once it starts, so it is linear.
 */
export function joinLines(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
}

/**
 * A memo for `indexOf` searches made at increasing offsets: once the next occurrence (or
 * its absence) is known, later searches before it cost nothing, so a scan that looks for
 * the same closing delimiter from many openings stays linear.
 */
export function forwardFinder(find: (from: number) => number): (from: number) => number {
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (from >= searchedFrom && (found === -1 || found >= from)) return found;
    searchedFrom = from;
    found = find(from);
    return found;
  };
}

/** Runs of white space as one space, trimmed: text as a reader sees it on one line. */
export const collapseSpace = (text: string): string => text.replace(/\s+/g, ' ').trim();
