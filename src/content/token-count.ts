import { decode, encodeGenerator, isWithinTokenLimit, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/**
 * Token counting for max_content_tokens: o200k_base (the GPT-4o / GPT-5 family vocabulary)
 * through gpt-tokenizer, pure JavaScript with its own merge cache.
 *
 * Upstream quirk: by default gpt-tokenizer throws on text that spells a special token
 * ("<|endoftext|>"), which any page about tokenizers does. Pages are data, never control
 * tokens, so every call encodes such text as ordinary characters.
 *
 * Upstream quirk: the tokenizer first splits text into pieces (runs of letters, of
 * punctuation, of white space) and byte-pair merges each piece in time quadratic in its
 * length: one 200,000-letter "word" takes about 15 s, and a limit does not stop it early (the
 * limit is checked between pieces). Callers hand it only text whose pieces are at most about
 * LONG_PIECE long: see tokenizableEnd. Counts stay exact; the pieces bound the work.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Upstream quirk: the merge cache is an LRU over a Map that moves a piece on every hit
 * (delete, then set). V8 keeps the deleted entries in the hash chain until the table is
 * rehashed, so a piece a page repeats walks a chain that grows with the cache: with the
 * default 100,000 entries a 200,000-character page of one repeated piece (">ab" over and
 * over) took 1.5 s to count, 0.09 s with 1,000 entries. Plain prose counts about a third
 * slower than with the default. Process-wide, set once here: this file is the tokenizer's
 * only user.
 */
export const MERGE_CACHE_SIZE = 1000;
setMergeCacheSize(MERGE_CACHE_SIZE);

/**
 * Longest piece worth counting, in UTF-16 units. Real prose, code and CJK text without
 * punctuation stay far below it; merging one piece this long takes well under a millisecond.
 */
export const LONG_PIECE = 512;

// The tokenizer's own pre-split pattern, so "piece" means exactly what it merges; a copy
// because a global regex carries lastIndex.
const PIECES = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

// What `\s` matches (ECMAScript WhiteSpace and LineTerminator).
const isSpaceCode = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/**
 * Whether `text` has a run of `min` characters or more of white space, of anything else, or
 * of line breaks and slashes. A piece longer than 2 * min + 1 needs one: letter and
 * punctuation pieces take at most one leading space, and punctuation ones a tail of line
 * breaks and slashes ("-/\n/\n/\n..." is one piece). A plain loop, so the common page with
 * no such run skips the (much slower) split pattern.
 */
function hasLongRun(text: string, min: number): boolean {
  let spaces = 0;
  let others = 0;
  let breaks = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    // Printable ASCII but the slash, most of any page: one test instead of a dozen.
    if (c > 32 && c < 0x7f && c !== 47) {
      others += 1;
      spaces = 0;
      breaks = 0;
      if (others >= min) return true;
      continue;
    }
    const space = isSpaceCode(c);
    spaces = space ? spaces + 1 : 0;
    others = space ? 0 : others + 1;
    breaks = c === 10 || c === 13 || c === 47 ? breaks + 1 : 0;
    if (spaces >= min || others >= min || breaks >= min) return true;
  }
  return false;
}

/**
 * Where `text` stops being cheap to count: LONG_PIECE units into its first piece longer than
 * that, or `text.length` when it has none. Any prefix up to this offset has only pieces of
 * at most about LONG_PIECE units, so counting it takes time linear in its length. Looks at
 * the first `pieces` pieces only (an encoding that stops after n tokens reads at most n + 1
 * pieces). Linear too: the split pattern has no overlapping quantifiers.
 */
export function tokenizableEnd(text: string, pieces = Number.POSITIVE_INFINITY): number {
  if (text.length <= LONG_PIECE || !hasLongRun(text, LONG_PIECE / 2)) return text.length;
  PIECES.lastIndex = 0;
  let seen = 0;
  for (let m = PIECES.exec(text); m !== null && seen < pieces; m = PIECES.exec(text)) {
    seen += 1;
    if (m[0].length > LONG_PIECE) {
      const end = m.index + LONG_PIECE;
      return isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
    }
  }
  return text.length;
}

/**
 * Token count of `text`, or false as soon as it passes `limit` (cost grows with the limit, not
 * the text, once no piece is longer than LONG_PIECE).
 */
export function tokensWithin(text: string, limit: number): number | false {
  if (text === '') return 0;
  if (limit < 0) return false;
  return isWithinTokenLimit(text, limit, AS_TEXT);
}

/** Exact token count of `text` (callers keep long pieces out, see tokenizableEnd). */
export function countTokens(text: string): number {
  return text === '' ? 0 : (tokensWithin(text, Number.MAX_SAFE_INTEGER) as number);
}

/**
 * The longest prefix of `text` up to tokenizableEnd whose encoding starts with at most `limit`
 * of its tokens: the first `limit` tokens decoded, less a character the last token only began
 * (a multi-byte character split between tokens decodes to U+FFFD).
 */
export function tokenPrefix(text: string, limit: number): string {
  if (limit <= 0) return '';
  const head = text.slice(0, tokenizableEnd(text, limit + 1));
  const tokens: number[] = [];
  for (const chunk of encodeGenerator(head, AS_TEXT)) {
    // Not push(...chunk): one piece's tokens as arguments overflowed the stack on a long word.
    for (const token of chunk) tokens.push(token);
    if (tokens.length > limit) break;
  }
  if (tokens.length <= limit) return head;
  let prefix = decode(tokens.slice(0, limit));
  while (prefix !== '' && !head.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
