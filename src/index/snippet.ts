/**
 * The `content` of a hit: a window of the stored text showing the query terms in context,
 * plain text on one line, at most SNIPPET_MAX_CHARS, with ellipses where it was cut.
 *
 * Built here rather than with FTS5's snippet(): snippet() re-tokenises the whole document
 * with the porter tokenizer for every hit (measured ~55 µs for a 3.5 KB text, half of a
 * typical uncached search); a regex over the text is ~5x cheaper. A term matches a word
 * that is its light stem plus an inflection ("indexing" → "index" finds "indexed" and
 * "indexes", not "indexical"), close to what porter matched. A term the regex misses (a
 * stem porter folds differently, a diacritic the query lacks) only costs the window its
 * position: the text's opening is shown, as FTS5 does for a title-only match.
 */
export const SNIPPET_MAX_CHARS = 300;
/** Context kept before the first term of the window. */
const LEAD = 60;
/** Matches considered per document: enough to find the densest window of any real text. */
export const MAX_MATCHES = 256;

const SUFFIXES = [
  'ations',
  'ation',
  'ments',
  'ment',
  'ness',
  'ings',
  'ing',
  'ions',
  'ion',
  'ers',
  'er',
  'ies',
  'ied',
  'ed',
  'es',
  'ly',
  's',
  'y',
];

/** What may follow a stem in a matching word: "index" matches "indexed", not "indexical". */
const INFLECTIONS = [...SUFFIXES, 'e', 'd'].sort((a, b) => b.length - a.length).join('|');

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '');

/** `indexing` → `index`: strips the longest common suffix that leaves at least 3 letters. */
export function lightStem(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

export interface SnippetMatcher {
  regex: RegExp;
  /** Index of the query term a matched (lower-case) word belongs to. */
  termOf(word: string): number;
}

/** One matcher per search, shared by its hits; undefined when there are no terms. */
export function snippetMatcher(terms: readonly string[]): SnippetMatcher | undefined {
  const prefixes: [string, number][] = [];
  terms.forEach((t, i) => {
    for (const p of new Set([lightStem(t), lightStem(fold(t))])) prefixes.push([p, i]);
  });
  if (prefixes.length === 0) return undefined;
  // Longest first, so the alternation and termOf prefer the most specific prefix.
  prefixes.sort((a, b) => b[0].length - a[0].length);
  const alternation = prefixes.map(([p]) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  // No `u` flag and no \p{…} classes here: V8 builds the case-folded Unicode property
  // tables on every compile of such a regex (~120-500 µs), once per distinct query. Word
  // boundaries are checked afterwards against the precompiled WORD_CHAR instead.
  return {
    regex: new RegExp(`(?:${alternation})(?:${INFLECTIONS})?`, 'gi'),
    termOf: (word) => prefixes.find(([p]) => word.startsWith(p))?.[1] ?? -1,
  };
}

/** Letters, digits and marks: compiled once. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** The code point ending just before `at` / starting at `at`, as a string (surrogates kept whole). */
const before = (text: string, at: number): string => {
  const lo = text.charCodeAt(at - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(at - 1, at);
};
const after = (text: string, at: number): string => String.fromCodePoint(text.codePointAt(at) ?? 32);

function isWholeWord(text: string, start: number, end: number): boolean {
  if (start > 0 && WORD_CHAR.test(before(text, start))) return false;
  return end >= text.length || !WORD_CHAR.test(after(text, end));
}

export interface Match {
  at: number;
  end: number;
  term: number;
}

/** Whole-word occurrences of the query's terms in `text`, in order (at most MAX_MATCHES). */
export function findMatches(text: string, m: SnippetMatcher): Match[] {
  const out: Match[] = [];
  for (const hit of text.matchAll(m.regex)) {
    if (!isWholeWord(text, hit.index, hit.index + hit[0].length)) continue;
    out.push({ at: hit.index, end: hit.index + hit[0].length, term: m.termOf(hit[0].toLowerCase()) });
    if (out.length >= MAX_MATCHES) break;
  }
  return out;
}

/** Start of the window with the most distinct terms (then most hits, then earliest). */
function bestStart(matches: Match[], width: number): number {
  let best = { start: 0, distinct: 0, hits: 0 };
  let end = 0;
  const counts = new Map<number, number>();
  for (const [i, m] of matches.entries()) {
    // The matches from `end` on that start inside the window beginning at m.
    for (let next = matches[end]; next !== undefined && next.at < m.at + width - LEAD; next = matches[++end]) {
      counts.set(next.term, (counts.get(next.term) ?? 0) + 1);
    }
    if (counts.size > best.distinct || (counts.size === best.distinct && end - i > best.hits)) {
      best = { start: m.at, distinct: counts.size, hits: end - i };
    }
    const left = (counts.get(m.term) ?? 1) - 1;
    if (left === 0) counts.delete(m.term);
    else counts.set(m.term, left);
  }
  return best.start;
}

export function makeSnippet(text: string, matcher: SnippetMatcher | undefined, maxChars = SNIPPET_MAX_CHARS): string {
  return snippetAround(text, matcher ? findMatches(text, matcher) : [], maxChars);
}

/**
 * The snippet of `text` around the densest window of `matches` (in text order; found by
 * findMatches, or by the in-memory ranker from its token positions).
 */
export function snippetAround(text: string, matches: Match[], maxChars = SNIPPET_MAX_CHARS): string {
  if (matches.length === 0) return tidySnippet(text.slice(0, maxChars * 2), maxChars);
  let start = Math.max(0, bestStart(matches, maxChars) - LEAD);
  if (start > 0 && !/\s/.test(text.charAt(start - 1))) {
    // Begin at a word boundary rather than mid-word.
    const space = text.slice(start, start + LEAD).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  if (start === 0) return tidySnippet(text.slice(0, maxChars * 2), maxChars);
  const window = text.slice(start, start + maxChars * 2);
  // One character for the leading ellipsis, one kept for a trailing one.
  const body = tidySnippet(window, maxChars - 2);
  const more = !body.endsWith('…') && start + window.length < text.length;
  return `…${body}${more ? '…' : ''}`;
}

/**
 * Plain text on one line (stored text keeps its newlines and runs of spaces), at most
 * `maxChars`, cut at a word boundary with an ellipsis.
 */
export function tidySnippet(raw: string, maxChars = SNIPPET_MAX_CHARS): string {
  // Flattened from a prefix first: a snippet needs maxChars, and the window handed in is
  // twice that; the whole window only when the prefix flattens short.
  const prefix = raw.length > maxChars + 64 ? raw.slice(0, maxChars + 64) : raw;
  let flat = flatten(prefix);
  if (flat.length <= maxChars && prefix !== raw) flat = flatten(raw);
  if (flat.length <= maxChars) return flat;
  // Never cut a surrogate pair in half (emoji, astral CJK).
  let cut = flat.slice(0, maxChars - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  return `${trimEndSpaceOrEllipsis(space > maxChars / 2 ? cut.slice(0, space) : cut)}…`;
}

/**
 * Runs of whitespace as one space, trimmed. Only runs that are not already one space are
 * replaced: `\s+` would rebuild the string at every word gap (measured 3x slower).
 */
const flatten = (text: string): string => text.replace(/\s{2,}|[^\S ]/g, ' ').trim();

/** Without trailing whitespace and ellipses (a hand loop: `/[\s…]+$/` retries at every position). */
function trimEndSpaceOrEllipsis(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charAt(end - 1) === '…' || /\s/.test(text.charAt(end - 1)))) end--;
  return end === text.length ? text : text.slice(0, end);
}
