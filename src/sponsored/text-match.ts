/**
 * The word rules of keyword matching (docs/sponsored.md "Matching"): case-, accent- and
 * simple-plural-insensitive. Both sides of a match (campaign keywords, the user's query) go
 * through the same functions, so the rules only need to be consistent, not linguistic.
 */

/** Letters that NFKD does not decompose into a base letter plus a mark. */
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLD_RE = /[ßæœøłđðþı]/g;

/** A word is a run of letters and digits; trailing + and # stay so c++, c# and f# are words. */
const WORD_RE = /[\p{L}\p{N}]+[+#]*/gu;

/** Lower case, accents removed, apostrophes dropped ("Women’s" → "womens"). */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(FOLD_RE, (c) => FOLD[c] ?? c)
    .replace(/['’ʼ]/g, '');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_WORD_RE = /[a-z0-9]+[+#]*/g;

/** The words of a text, folded. */
export function tokenize(text: string): string[] {
  // Printable ASCII (most queries) has no accents, marks or letters to fold: the same words
  // without NFKD and the Unicode-property scan. Apostrophes still join ("women's" → womens).
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(/'/g, '').match(ASCII_WORD_RE) ?? [];
  return foldText(text).match(WORD_RE) ?? [];
}

/** Words that end in s but are not plurals, where stripping it would meet another word. */
const NOT_PLURAL = new Set([
  'news',
  'series',
  'species',
  'means',
  'does',
  'goes',
  'lens',
  'canvas',
  'atlas',
  'bias',
  'alias',
  'chaos',
  'ios',
  'macos',
]);
const SIBILANT_END = /(s|x|z|ch|sh|o)$/;

/**
 * The forms a word may be the plural of, the word itself included. Two words match when
 * their sets meet: "cookies" {cookies, cooky, cookie} meets "cookie"; "boxes" meets "box";
 * "wines" {wines, wine} does not meet "win". Singular words only ever match themselves, so
 * the rule never conflates two different singulars.
 */
export function wordForms(word: string): string[] {
  const forms = [word];
  if (word.length < 4 || !word.endsWith('s') || NOT_PLURAL.has(word)) return forms;
  if (word.length >= 5 && word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  // Only -ss never ends a plural; a form like analysi (of analysis) is harmless: no keyword is spelt so.
  if (!word.endsWith('ss')) forms.push(word.slice(0, -1));
  if (word.endsWith('es') && SIBILANT_END.test(word.slice(0, -2))) forms.push(word.slice(0, -2));
  return forms;
}

/** A tokenized keyword phrase with each word's forms precomputed. */
export interface Phrase {
  text: string;
  words: string[][];
}

export function toPhrase(text: string): Phrase {
  return { text, words: tokenize(text).map(wordForms) };
}

const meet = (a: readonly string[], b: readonly string[]): boolean => a.some((x) => b.includes(x));

/** True when `phrase` occurs in `query` (word forms) starting at word index `at`. */
export function phraseAt(phrase: Phrase, query: readonly string[][], at: number): boolean {
  if (phrase.words.length === 0 || at + phrase.words.length > query.length) return false;
  return phrase.words.every((forms, i) => meet(forms, query[at + i] as string[]));
}

/** Word indexes of the first occurrence of `phrase` in `query`, or undefined. */
export function findPhrase(phrase: Phrase, query: readonly string[][]): number | undefined {
  for (let at = 0; at + phrase.words.length <= query.length; at++) if (phraseAt(phrase, query, at)) return at;
  return undefined;
}
