import { tokenPrefix } from './token-count.ts';

/**
 * Where a part of a page ends: within a number of characters (and, for MCP results, of
 * tokens), at a paragraph or line break near the end when one is there, so a part reads
 * well and the next one starts on a fresh line. A part is an exact slice: parts laid end to
 * end give the page back. Shared by fetch_page's parts, fetch_pages and POST /v1/extract's windows.
 */

// A cut prefers a paragraph break in the last 30% of the part, then a line break or a space
// in its last half; else the part ends where the limit fell.
const PARAGRAPH_FLOOR = 0.7;
const LINE_FLOOR = 0.5;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Where a part of `rest` that must end within `prefix` ends: at a break near its end if one is there. */
function cutIn(rest: string, prefix: string): number {
  const len = prefix.length;
  if (len === rest.length) return len;
  const para = prefix.lastIndexOf('\n\n');
  if (para >= len * PARAGRAPH_FLOOR) return para + 2;
  const line = prefix.lastIndexOf('\n');
  if (line >= len * LINE_FLOOR) return line + 1;
  const space = Math.max(prefix.lastIndexOf(' '), prefix.lastIndexOf('\t'));
  if (space >= len * LINE_FLOOR) return space + 1;
  return len;
}

/** The first `maxChars` characters of `rest`, never half a surrogate pair. */
function charPrefix(rest: string, maxChars: number): string {
  let chars = Math.min(rest.length, maxChars);
  if (chars < rest.length && chars > 0 && isHighSurrogate(rest.charCodeAt(chars - 1))) chars -= 1;
  return rest.slice(0, chars);
}

/** Length of the part of `rest` within `maxChars` characters and, when given, `maxTokens` tokens. */
export function partLength(rest: string, maxChars: number, maxTokens?: number): number {
  const chars = charPrefix(rest, maxChars);
  return cutIn(rest, maxTokens === undefined ? chars : tokenPrefix(chars, Math.max(0, maxTokens)));
}
