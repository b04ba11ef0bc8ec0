import { STOP_WORDS } from './stop-words.ts';

/**
 * Terms for passage scoring: lower case, accents folded (café = cafe), a light English
 * stemmer (plurals, -ing, -ed), and character bigrams for scripts written without spaces
 * (Han, kana, Hangul, Thai), where a "word" found by a letter run is a whole clause.
 * Query and passages go through the same function, so a stem only has to be consistent,
 * not a dictionary word.
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const MARKS = /\p{M}+/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** Harman's S-stemmer plus -ing/-ed, guarded by length so short words stay themselves. */
export function stem(word: string): string {
  let w = word.replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies') && !/[ae]ies$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('es') && !/[aeo]es$/.test(w) && /(?:s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/[us]s$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) w = w.slice(0, -2);
  return w;
}

function fold(word: string): string {
  const lower = word.toLowerCase();
  // Only decompose when there is something to fold: NFKD is the costly step.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included, needs no folding
  return /^[\x00-\x7f]*$/.test(lower) ? lower : lower.normalize('NFKD').replace(MARKS, '');
}

function bigrams(run: string, out: string[]): void {
  const chars = [...run];
  const [only] = chars;
  if (chars.length === 1 && only !== undefined) out.push(only);
  let previous: string | undefined;
  for (const c of chars) {
    if (previous !== undefined) out.push(previous + c);
    previous = c;
  }
}

function addTerms(word: string, out: string[]): void {
  if (UNSPACED.test(word)) bigrams(word, out);
  else out.push(stem(word));
}

// Words repeat a lot within and across pages: folding and stemming each spelling once is
// most of the saving. Cleared, not evicted, when full: a simple bound on memory.
const STEMS = new Map<string, string>();
const STEMS_MAX = 50_000;

/** The terms of `text`, in order, with repeats. */
export function terms(text: string): string[] {
  const out: string[] = [];
  // match() over matchAll(): no match objects, about half the time on long pages.
  for (const word of text.match(WORD) ?? []) {
    const cached = STEMS.get(word);
    if (cached !== undefined) {
      out.push(cached);
      continue;
    }
    const start = out.length;
    addTerms(fold(word), out);
    const term = out[start];
    if (out.length === start + 1 && term !== undefined && word.length < 40) {
      if (STEMS.size >= STEMS_MAX) STEMS.clear();
      STEMS.set(word, term);
    }
  }
  return out;
}

/**
 * Distinct query terms worth scoring: stop words (checked before stemming, as the list is
 * written) dropped unless nothing else is left ("to be or not to be" is still a query).
 */
export function queryTerms(query: string): string[] {
  const words = [...query.matchAll(WORD)].map((m) => fold(m[0]));
  const content: string[] = [];
  const all: string[] = [];
  for (const w of words) {
    addTerms(w, all);
    if (!STOP_WORDS.has(w.replace(/['’]s$/, ''))) addTerms(w, content);
  }
  return [...new Set(content.length > 0 ? content : all)];
}
