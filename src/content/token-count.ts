import { decode, encodeGenerator, isWithinTokenLimit } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token counting for max_content_tokens: o200k_base (the GPT-4o / GPT-5 family vocabulary)
 * through gpt-tokenizer, pure JavaScript with its own merge cache.
 *
 * Upstream quirk: by default gpt-tokenizer throws on text that spells a special token
 * ("<|endoftext|>"), which any page about tokenizers does. Pages are data, never control
 * tokens, so every call encodes such text as ordinary characters.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Token count of `text`, or false as soon as it passes `limit` (cost grows with the limit, not the text). */
export function tokensWithin(text: string, limit: number): number | false {
  if (text === '') return 0;
  if (limit < 0) return false;
  return isWithinTokenLimit(text, limit, AS_TEXT);
}

/** Exact token count of `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : (tokensWithin(text, Number.MAX_SAFE_INTEGER) as number);
}

/**
 * The longest prefix of `text` whose encoding starts with at most `limit` of its tokens: the
 * first `limit` tokens decoded, less a character the last token only began (a multi-byte
 * character split between tokens decodes to U+FFFD).
 */
export function tokenPrefix(text: string, limit: number): string {
  if (limit <= 0) return '';
  const tokens: number[] = [];
  for (const chunk of encodeGenerator(text, AS_TEXT)) {
    tokens.push(...chunk);
    if (tokens.length > limit) break;
  }
  if (tokens.length <= limit) return text;
  let head = decode(tokens.slice(0, limit));
  while (head !== '' && !text.startsWith(head)) head = head.slice(0, -1);
  return head;
}
