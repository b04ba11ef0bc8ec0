import { RE2JS } from 're2js';

/**
 * A caller's regular expression (the Tavily shape's `select_paths`, `exclude_paths`,
 * `select_domains`, `exclude_domains`), matched without backtracking. JavaScript's RegExp
 * backtracks: a pattern like `(a+)+$` takes exponential time on a short path, on the event
 * loop. re2js (a pure-JavaScript port of RE2) runs an automaton instead, so a test costs at
 * most (text length) × (program size), whatever the pattern; the program size is capped.
 *
 * The syntax is RE2's, which is Python's `re` (what Tavily runs) less what needs
 * backtracking: backreferences and lookaround are refused with RegexRefused, whose message
 * says why. Python's `\Z` (end of text) is RE2's `\z`. Matching is a search, as Python's
 * `re.search` and RegExp.test: the pattern may match anywhere in the text unless `^`/`$` pin it.
 */

export class RegexRefused extends Error {}

/** RE2 instructions of one pattern at most: bounds both memory and the work of one test. */
export const MAX_PROGRAM_SIZE = 1000;

export interface LinearRegex {
  readonly source: string;
  /** The pattern matches somewhere in `text` (a search, as re.search and RegExp.test). */
  test(text: string): boolean;
}

/** Python's spelling → RE2's, where the two differ only in spelling. */
const toRe2 = (source: string): string => source.replace(/(^|[^\\])((?:\\\\)*)\\Z/g, '$1$2\\z');

/** Why RE2 refused `source`, said for the caller. */
function refusal(source: string, message: string): string {
  if (/\\[1-9]|\(\?P=/.test(source))
    return 'backreferences need a backtracking matcher, which Scout does not run on callers’ patterns';
  if (/\(\?<?[=!]/.test(source))
    return 'lookahead and lookbehind need a backtracking matcher, which Scout does not run on callers’ patterns';
  return message.replace(/^error parsing regexp: /, '');
}

/** Compiles `source`, or throws RegexRefused saying why it is not served. */
export function compileLinearRegex(source: string): LinearRegex {
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(toRe2(source));
  } catch (e) {
    throw new RegexRefused(refusal(source, e instanceof Error ? e.message : String(e)));
  }
  if (pattern.programSize() > MAX_PROGRAM_SIZE) {
    throw new RegexRefused(`the pattern is too large (more than ${MAX_PROGRAM_SIZE} instructions once compiled)`);
  }
  return { source, test: (text) => pattern.test(text) };
}
